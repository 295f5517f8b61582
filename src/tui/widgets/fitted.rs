//! The one rule for text wider than its place: cut after the last whole
//! word that fits, and end with "…", so that no word, number or move is
//! shown in part (`Kasparo`, `(29 pli`) and the reader sees that something
//! is missing. Every panel that does not wrap its lines draws through here.

use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthChar;

/// A paragraph of `text` whose lines are each cut to `width` columns.
pub fn fitted<'a>(text: impl Into<Text<'a>>, width: u16) -> Paragraph<'a> {
    let mut text: Text<'a> = text.into();
    let width = usize::from(width);
    text.lines = std::mem::take(&mut text.lines)
        .into_iter()
        .map(|line| fit_line(line, width))
        .collect();
    Paragraph::new(text)
}

/// `line` as it fits in `width` columns: whole if it does, else cut after
/// a whole word with "…" (in the style of the text before it).
pub fn fit_line(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width {
        return line;
    }
    if width == 0 {
        return Line::default();
    }
    // Every character with its style, to cut across spans.
    let chars: Vec<(char, Style)> = line
        .spans
        .iter()
        .flat_map(|span| {
            let style = line.style.patch(span.style);
            span.content.chars().map(move |c| (c, style))
        })
        .collect();
    // The characters that fit before the "…".
    let mut used = 0;
    let mut kept = 0;
    for (c, _) in &chars {
        let w = c.width().unwrap_or(0);
        if used + w > width - 1 {
            break;
        }
        used += w;
        kept += 1;
    }
    // Inside a word: go back to the space before it, unless the line's
    // first word alone is wider than the room (then cut inside it).
    let in_word = chars.get(kept).is_some_and(|(c, _)| *c != ' ');
    if in_word
        && let Some(space) = chars[..kept].iter().rposition(|(c, _)| *c == ' ')
        && chars[..space].iter().any(|(c, _)| *c != ' ')
    {
        kept = space;
    }
    while kept > 0 && chars[kept - 1].0 == ' ' {
        kept -= 1;
    }
    let ellipsis_style = chars
        .get(kept.saturating_sub(1))
        .map_or(line.style, |(_, s)| *s);
    let mut spans: Vec<Span<'static>> = Vec::new();
    for &(c, style) in &chars[..kept] {
        match spans.last_mut() {
            Some(last) if last.style == style => last.content.to_mut().push(c),
            _ => spans.push(Span::styled(c.to_string(), style)),
        }
    }
    spans.push(Span::styled("…", ellipsis_style));
    Line::from(spans).alignment(line.alignment.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn cuts_after_a_whole_word_across_spans() {
        let line = Line::from(vec![
            Span::styled("TT hits 232.9k/763.6k ", Style::default().fg(Color::Red)),
            Span::raw("probes (31%), 102.6k cutoffs"),
        ]);
        let cut = fit_line(line.clone(), 40);
        assert_eq!(text(&cut), "TT hits 232.9k/763.6k probes (31%),…");
        assert!(cut.width() <= 40);
        assert_eq!(cut.spans[0].style.fg, Some(Color::Red));
        assert_eq!(text(&fit_line(line.clone(), 80)), text(&line));
        assert_eq!(text(&fit_line(Line::raw("Kasparov"), 7)), "Kaspar…");
        assert_eq!(text(&fit_line(Line::raw("(29 plies)"), 8)), "(29…");
        assert_eq!(text(&fit_line(Line::raw("abc"), 0)), "");
    }
}
