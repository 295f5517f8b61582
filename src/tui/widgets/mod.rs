//! One type per panel, each drawing itself from the state it is given.
//! Widgets read state types; no state type reads a widget.

pub mod board;
pub mod book;
pub mod breakdown;
pub mod engine;
pub mod engine_lines;
pub mod eval_bar;
pub mod explorer;
pub mod fitted;
pub mod map_legend;
pub mod move_list;
pub mod players;
pub mod stats;
pub mod tablebase;
pub mod tabs;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders};
use shakmaty::Color;

pub use crate::text::score_text;

use super::theme::Theme;

pub fn side_name(color: Color) -> &'static str {
    // MAX and MIN while a hand-made tree's record is drawn.
    crate::teach::values::side_name(color)
}

/// Human-readable counts: 950, 12.3k, 4.56M.
pub fn human_count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

/// An exact count with thousands separators: 950, 1,656, 62,136.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A panel section: a dim rule across the top with `title` in it. Draws it
/// and returns the area inside.
pub fn section(frame: &mut Frame, title: impl Into<String>, area: Rect, theme: &Theme) -> Rect {
    let title = fit(&title.into(), usize::from(area.width.saturating_sub(2)));
    let block = Block::default()
        .borders(Borders::TOP)
        .title(title)
        .border_style(Style::default().fg(theme.dim));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    inner
}

/// `text` cut to `width` characters, with "…" at the cut; a cut inside a
/// word goes back to the space before it, so no move is shown half.
pub fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let kept: String = text.chars().take(width - 1).collect();
    let whole = match kept.rfind(' ') {
        // Back to the word's start only where a word is left before it:
        // a long path with nothing before it is cut inside, not to a
        // lone "…".
        Some(space) if !text[kept.len()..].starts_with(' ') && !kept[..space].trim().is_empty() => {
            kept[..space].trim_end()
        }
        _ => kept.trim_end(),
    };
    // Cut after a whole part: never on a separator left dangling
    // ("Explorer · 62,136 games ·…").
    let whole = match whole.trim_end_matches(['·', ',', ' ']) {
        "" => whole,
        trimmed => trimmed,
    };
    format!("{whole}…")
}

/// [`fit`] for a text of parts joined by " · " (the status line's): a cut
/// goes back to the end of a whole part where one fits, so no number or
/// "no" is left alone before the "…" ("4…" reads like a cut number).
pub fn fit_parts(text: &str, width: usize) -> String {
    const SEP: &str = " · ";
    let cut = fit(text, width);
    let Some(kept) = cut.strip_suffix('…') else {
        return cut;
    };
    let rest = &text[kept.len().min(text.len())..];
    if !text.starts_with(kept) || rest.starts_with(SEP) {
        return cut;
    }
    match kept.rfind(SEP) {
        Some(end) if !kept[..end].trim().is_empty() => format!("{}…", &kept[..end]),
        _ => cut,
    }
}

#[cfg(test)]
mod tests {
    use super::{fit, fit_parts};

    #[test]
    fn a_long_first_word_is_cut_inside_not_to_a_lone_ellipsis() {
        let said =
            " /tmp/a/very/long/folder/name/map.csv exists: :map export! map.csv replaces it.";
        let cut = fit(said, 20);
        assert_eq!(cut, " /tmp/a/very/long/f…");
    }

    #[test]
    fn parts_are_cut_whole() {
        let said = "Move-table map: white knight ∩ black queen · 61 shared · 4 links · touches.";
        // Not "… · 61 shared · 4…".
        assert_eq!(
            fit_parts(said, 62),
            "Move-table map: white knight ∩ black queen · 61 shared…"
        );
        assert_eq!(fit_parts(said, 80), said);
        // A cut at a part's end stays there.
        assert_eq!(
            fit_parts(said, 66),
            "Move-table map: white knight ∩ black queen · 61 shared · 4 links…"
        );
        // The first part alone is cut at a word.
        assert_eq!(fit_parts(said, 30), "Move-table map: white knight…");
    }

    #[test]
    fn fit_cuts_at_a_word_with_an_ellipsis() {
        assert_eq!(fit("1.e4 e5 2.Nf3", 20), "1.e4 e5 2.Nf3");
        assert_eq!(fit("1.e4 e5 2.Nf3 Nc6", 12), "1.e4 e5…");
        assert_eq!(fit("1.e4 e5 2.Nf3 Nc6", 14), "1.e4 e5 2.Nf3…");
        assert_eq!(fit("Kasparovich", 6), "Kaspa…");
        assert_eq!(fit("abc", 0), "");
        // No separator left dangling before the "…".
        assert_eq!(
            fit("Explorer · 62,136 games · cancer0707", 27),
            "Explorer · 62,136 games…"
        );
        assert_eq!(fit("Carlsen, Magnus", 10), "Carlsen…");
        assert_eq!(super::thousands(62_136), "62,136");
        assert_eq!(super::thousands(1_234_567), "1,234,567");
        assert_eq!(super::thousands(950), "950");
    }
}
