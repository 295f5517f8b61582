//! Board and interface colours.

use ratatui::style::Color;

use shakmaty::{Piece, Role};

use crate::config::{PieceStyle, ThemeName};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub light: Color,
    pub dark: Color,
    pub white_piece: Color,
    pub black_piece: Color,
    /// The squares of the last move.
    pub last_move: Color,
    pub selected: Color,
    pub cursor: Color,
    /// Squares the selected piece may move to.
    pub target: Color,
    pub check: Color,
    pub hint: Color,
    pub accent: Color,
    pub dim: Color,
}

impl Theme {
    /// The style of the selected item of a list or form: bold dark text on
    /// the accent colour.
    pub fn highlight(&self) -> ratatui::style::Style {
        ratatui::style::Style::default()
            .fg(self.black_piece)
            .bg(self.accent)
            .add_modifier(ratatui::style::Modifier::BOLD)
    }

    /// The theme `name` as this terminal can show it: its 24-bit colours
    /// as they are where the terminal says it has true colour (`COLORTERM`
    /// is `truecolor` or `24bit`), else each as the nearest colour of the
    /// 256-colour palette, which every colour terminal kibitz supports has.
    pub fn for_terminal(name: ThemeName, true_colour: bool) -> Theme {
        let theme = Theme::get(name);
        if true_colour {
            return theme;
        }
        let fit = |colour: Color| match colour {
            Color::Rgb(r, g, b) => Color::Indexed(nearest_256(r, g, b)),
            other => other,
        };
        Theme {
            light: fit(theme.light),
            dark: fit(theme.dark),
            white_piece: fit(theme.white_piece),
            black_piece: fit(theme.black_piece),
            last_move: fit(theme.last_move),
            selected: fit(theme.selected),
            cursor: fit(theme.cursor),
            target: fit(theme.target),
            check: fit(theme.check),
            hint: fit(theme.hint),
            accent: fit(theme.accent),
            dim: fit(theme.dim),
        }
    }

    pub fn get(name: ThemeName) -> Theme {
        let base = Theme {
            light: Color::Rgb(214, 182, 140),
            dark: Color::Rgb(158, 112, 76),
            white_piece: Color::Rgb(255, 255, 255),
            black_piece: Color::Rgb(0, 0, 0),
            last_move: Color::Rgb(205, 200, 90),
            selected: Color::Rgb(110, 160, 220),
            cursor: Color::Rgb(90, 200, 200),
            target: Color::Rgb(130, 190, 130),
            check: Color::Rgb(220, 70, 60),
            hint: Color::Rgb(80, 180, 90),
            accent: Color::Yellow,
            dim: Color::DarkGray,
        };
        match name {
            ThemeName::Classic => base,
            ThemeName::Green => Theme {
                light: Color::Rgb(200, 210, 170),
                dark: Color::Rgb(105, 140, 80),
                ..base
            },
            ThemeName::Blue => Theme {
                light: Color::Rgb(190, 205, 215),
                dark: Color::Rgb(100, 130, 155),
                ..base
            },
            // For terminals without true colour: the 16 basic colours only.
            ThemeName::Mono => Theme {
                light: Color::Gray,
                dark: Color::DarkGray,
                white_piece: Color::White,
                black_piece: Color::Black,
                last_move: Color::Yellow,
                selected: Color::Blue,
                cursor: Color::Cyan,
                target: Color::Green,
                check: Color::Red,
                hint: Color::LightGreen,
                accent: Color::Yellow,
                dim: Color::DarkGray,
            },
        }
    }
}

/// The glyph of a piece: filled Unicode symbols for both sides (coloured),
/// which read better at terminal sizes than the outlined white set; or a
/// letter, upper case for White.
pub fn glyph(piece: Piece, style: PieceStyle) -> char {
    match style {
        PieceStyle::Unicode => filled(piece.role),
        PieceStyle::Ascii => piece.char(),
    }
}

/// The glyph of a piece where colour may not tell the sides apart (the mono
/// theme, `NO_COLOR`): White's outlined symbols, Black's filled ones (or the
/// letters, whose case already differs).
pub fn glyph_by_shape(piece: Piece, style: PieceStyle) -> char {
    match (style, piece.color.is_white()) {
        (PieceStyle::Unicode, true) => match piece.role {
            Role::King => '♔',
            Role::Queen => '♕',
            Role::Rook => '♖',
            Role::Bishop => '♗',
            Role::Knight => '♘',
            Role::Pawn => '♙',
        },
        (PieceStyle::Unicode, false) => filled(piece.role),
        (PieceStyle::Ascii, _) => piece.char(),
    }
}

fn filled(role: Role) -> char {
    match role {
        Role::King => '♚',
        Role::Queen => '♛',
        Role::Rook => '♜',
        Role::Bishop => '♝',
        Role::Knight => '♞',
        Role::Pawn => '♟',
    }
}

/// Whether the terminal says it shows 24-bit colour, by the `COLORTERM`
/// convention (`truecolor` or `24bit`).
pub fn true_colour_from(colorterm: Option<&str>) -> bool {
    matches!(colorterm, Some("truecolor" | "24bit"))
}

/// The colour of the xterm 256-colour palette nearest to `(r, g, b)`: one
/// of the 6 x 6 x 6 cube (indices 16-231, levels 0, 95, 135 ... 255) or of
/// the grey ramp (232-255, levels 8, 18 ... 238), by squared distance.
pub fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [i32; 6] = [0, 95, 135, 175, 215, 255];
    let level = |c: u8| -> usize {
        let c = i32::from(c);
        (0..6).min_by_key(|&i| (LEVELS[i] - c).abs()).unwrap_or(0)
    };
    let distance = |x: [i32; 3]| {
        let d = [
            x[0] - i32::from(r),
            x[1] - i32::from(g),
            x[2] - i32::from(b),
        ];
        d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = 16 + 36 * ri + 6 * gi + bi;
    let cube_distance = distance([LEVELS[ri], LEVELS[gi], LEVELS[bi]]);
    let mean = (i32::from(r) + i32::from(g) + i32::from(b)) / 3;
    let grey = ((mean - 8 + 5) / 10).clamp(0, 23);
    let level = 8 + 10 * grey;
    if distance([level, level, level]) < cube_distance {
        (232 + grey) as u8
    } else {
        cube as u8
    }
}

/// The colours of the move-table map's six bands (red most ... dark blue
/// least), as deep as the theme's terminal allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapPalette {
    /// The 256-colour cube, for the true-colour themes (every terminal
    /// with true colour has it).
    Indexed,
    /// The 16 basic colours (the mono theme), with the band's digit too,
    /// since "light red" and "red" differ little on some terminals.
    Basic,
    /// No colour at all (`NO_COLOR`): the band's digit only.
    Digits,
}

/// Greer's six bands in the 256-colour cube: red, orange, yellow, green,
/// light blue, dark blue.
const BANDS_256: [u8; 6] = [196, 208, 226, 46, 117, 21];
const BANDS_16: [Color; 6] = [
    Color::Red,
    Color::LightRed,
    Color::Yellow,
    Color::Green,
    Color::LightCyan,
    Color::Blue,
];

impl MapPalette {
    pub fn new(theme: ThemeName, no_color: bool) -> MapPalette {
        match (no_color, theme) {
            (true, _) => MapPalette::Digits,
            (false, ThemeName::Mono) => MapPalette::Basic,
            (false, ThemeName::Classic | ThemeName::Green | ThemeName::Blue) => MapPalette::Indexed,
        }
    }

    /// The background of band `band` (0 = most), if the palette has colour.
    pub fn colour(self, band: u8) -> Option<Color> {
        let band = usize::from(band).min(BANDS_256.len() - 1);
        match self {
            MapPalette::Indexed => Some(Color::Indexed(BANDS_256[band])),
            MapPalette::Basic => Some(BANDS_16[band]),
            MapPalette::Digits => None,
        }
    }

    /// Text on band `band`: black on the light bands, white on dark blue.
    pub fn text(self, band: u8) -> Option<Color> {
        match self {
            MapPalette::Digits => None,
            MapPalette::Indexed | MapPalette::Basic if band >= 5 => Some(Color::White),
            MapPalette::Indexed | MapPalette::Basic => Some(Color::Black),
        }
    }

    /// Whether squares carry their band's digit (1 = most).
    pub fn digits(self) -> bool {
        matches!(self, MapPalette::Basic | MapPalette::Digits)
    }

    /// The palette also stands for the screen's colours: where it is basic
    /// (the mono theme) or none (`NO_COLOR`), colour alone may not tell the
    /// sides or the highlighted squares apart, so the board draws them by
    /// shape and marks as well.
    pub fn marks(self) -> bool {
        matches!(self, MapPalette::Basic | MapPalette::Digits)
    }

    /// Whether the board may use colour at all (not with `NO_COLOR`).
    pub fn has_colour(self) -> bool {
        !matches!(self, MapPalette::Digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_fall_back_to_the_256_colour_palette() {
        assert_eq!(nearest_256(255, 255, 255), 231);
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(255, 0, 0), 196);
        // Grey goes to the grey ramp: 128 is nearest 128 (232 + 12).
        assert_eq!(nearest_256(128, 128, 128), 244);
        let theme = Theme::for_terminal(ThemeName::Classic, false);
        for colour in [theme.light, theme.dark, theme.last_move, theme.check] {
            assert!(matches!(colour, Color::Indexed(_)), "{colour:?}");
        }
        assert_eq!(
            Theme::for_terminal(ThemeName::Classic, true),
            Theme::get(ThemeName::Classic)
        );
        assert!(true_colour_from(Some("truecolor")));
        assert!(true_colour_from(Some("24bit")));
        assert!(!true_colour_from(None));
        assert!(!true_colour_from(Some("")));
    }
}
