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
