//! Material signatures: which pieces are on the board, as "KQvKR".
//!
//! Each table is stored once, under its canonical signature, where White has
//! the stronger material. A position with the mirrored signature (KvKQ) is
//! looked up in its twin after a colour flip: mirror the board top to
//! bottom, swap the colours of the pieces and the side to move.

use std::fmt;
use std::str::FromStr;

use shakmaty::{Board, Color, Role};

/// Strength order for sorting and comparing: queen first, pawn last.
fn strength(role: Role) -> u8 {
    match role {
        Role::Queen => 5,
        Role::Rook => 4,
        Role::Bishop => 3,
        Role::Knight => 2,
        Role::Pawn => 1,
        Role::King => 6,
    }
}

/// The pieces besides the kings, per side, strongest first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub white: Vec<Role>,
    pub black: Vec<Role>,
}

impl Material {
    pub fn new(mut white: Vec<Role>, mut black: Vec<Role>) -> Material {
        white.sort_by_key(|r| std::cmp::Reverse(strength(*r)));
        black.sort_by_key(|r| std::cmp::Reverse(strength(*r)));
        Material { white, black }
    }

    pub fn from_board(board: &Board) -> Material {
        let side = |color: Color| {
            let mut roles = Vec::new();
            for square in board.by_color(color) {
                if let Some(role) = board.role_at(square)
                    && role != Role::King
                {
                    roles.push(role);
                }
            }
            roles
        };
        Material::new(side(Color::White), side(Color::Black))
    }

    /// Pieces on the board, kings included.
    pub fn count(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    pub fn pawns(&self) -> usize {
        self.white
            .iter()
            .chain(&self.black)
            .filter(|r| **r == Role::Pawn)
            .count()
    }

    /// Both sides have pawns: en passant can happen inside the table.
    pub fn both_sides_have_pawns(&self) -> bool {
        self.white.contains(&Role::Pawn) && self.black.contains(&Role::Pawn)
    }

    pub fn mirrored(&self) -> Material {
        Material {
            white: self.black.clone(),
            black: self.white.clone(),
        }
    }

    /// White's material is at least Black's: more pieces, or as many and
    /// stronger, piece by piece.
    pub fn is_canonical(&self) -> bool {
        let key = |roles: &[Role]| {
            (
                roles.len(),
                roles.iter().map(|r| strength(*r)).collect::<Vec<_>>(),
            )
        };
        key(&self.white) >= key(&self.black)
    }

    /// The canonical twin and whether the colours are flipped to reach it.
    pub fn canonical(&self) -> (Material, bool) {
        if self.is_canonical() {
            (self.clone(), false)
        } else {
            (self.mirrored(), true)
        }
    }

    /// The canonical signatures one capture or promotion leads to.
    pub fn children(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for (side, other, white) in [
            (&self.white, &self.black, true),
            (&self.black, &self.white, false),
        ] {
            for i in 0..side.len() {
                // A capture of this piece.
                let mut less = side.clone();
                less.remove(i);
                out.push(if white {
                    Material::new(less, other.clone())
                } else {
                    Material::new(other.clone(), less)
                });
                // A promotion of this pawn.
                if side[i] == Role::Pawn {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        let mut promoted = side.clone();
                        promoted[i] = role;
                        out.push(if white {
                            Material::new(promoted, other.clone())
                        } else {
                            Material::new(other.clone(), promoted)
                        });
                    }
                }
            }
        }
        let mut out: Vec<Material> = out
            .into_iter()
            .filter(|m| m.count() > 2)
            .map(|m| m.canonical().0)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Does solving this table need `other` (through any chain of captures
    /// and promotions)?
    pub fn depends_on(&self, other: &Material) -> bool {
        self.children()
            .iter()
            .any(|c| c == other || c.depends_on(other))
    }

    /// Every canonical signature of 3 and 4 pieces (35), in an order where a
    /// table comes after every table its captures and promotions lead to.
    pub fn all() -> Vec<Material> {
        let roles = [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ];
        let mut out = Vec::new();
        for &a in &roles {
            out.push(Material::new(vec![a], vec![]));
        }
        for (i, &a) in roles.iter().enumerate() {
            for &b in &roles[i..] {
                out.push(Material::new(vec![a, b], vec![]));
                out.push(Material::new(vec![a], vec![b]));
            }
        }
        out.sort_by_key(|m| (m.count(), m.pawns()));
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |roles: &[Role]| -> String {
            std::iter::once('K')
                .chain(roles.iter().map(|r| r.upper_char()))
                .collect()
        };
        write!(f, "{}v{}", side(&self.white), side(&self.black))
    }
}

impl FromStr for Material {
    type Err = String;
    fn from_str(text: &str) -> Result<Material, String> {
        let bad = || format!("'{text}' is not a material signature (like KQvK or KRPvKR)");
        let (white, black) = text.trim().split_once(['v', 'V']).ok_or_else(bad)?;
        let side = |s: &str| -> Result<Vec<Role>, String> {
            let upper = s.to_ascii_uppercase();
            let mut chars = upper.chars();
            if chars.next() != Some('K') {
                return Err(bad());
            }
            chars
                .map(|c| match Role::from_char(c.to_ascii_lowercase()) {
                    Some(Role::King) | None => Err(bad()),
                    Some(role) => Ok(role),
                })
                .collect()
        };
        Ok(Material::new(side(white)?, side(black)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_five_canonical_tables_in_dependency_order() {
        let all = Material::all();
        assert_eq!(all.len(), 35);
        assert!(all.iter().all(Material::is_canonical));
        let names: Vec<String> = all.iter().map(ToString::to_string).collect();
        assert_eq!(names[0], "KQvK");
        let pos = |n: &str| names.iter().position(|x| x == n).unwrap();
        // Promotions lead to a table with fewer pawns: it must come first.
        assert!(pos("KQvKP") < pos("KPvKP"));
        assert!(pos("KQPvK") < pos("KPPvK"));
        assert!(pos("KQvKR") < pos("KRPvK").max(pos("KRvKP")));
    }

    #[test]
    fn parse_print_and_mirror() {
        let m: Material = "KvKQ".parse().unwrap();
        assert!(!m.is_canonical());
        assert_eq!(m.canonical(), ("KQvK".parse().unwrap(), true));
        assert_eq!("KRNvkq".parse::<Material>().unwrap().to_string(), "KRNvKQ");
        assert_eq!("kpvkp".parse::<Material>().unwrap().to_string(), "KPvKP");
        assert!("KQvKK".parse::<Material>().is_err());
        assert!("QvK".parse::<Material>().is_err());
    }
}
