//! Teach mode's caption: what the step just did and why, in words.
//!
//! A caption longer than its panel is never cut silently: the panel shows
//! a page of it, its last row cut after a whole word with "…" and the key
//! that shows the rest (`e`, page by page, then back to the start).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use crate::tui::modes::teach::{Record, Teach};
use crate::tui::theme::Theme;
use crate::tui::widgets::fitted::fit_line;

use crate::tui::widgets::section;

/// What the last row of a page that does not hold the whole caption says
/// after its "…".
pub const MORE: &str = " (e: more)";

pub struct Caption<'a> {
    pub teach: &'a Teach,
    pub theme: &'a Theme,
}

impl Caption<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let teach = self.teach;
        let inner = section(frame, " What happened ", area, theme);
        let mut texts: Vec<(String, Style)> = Vec::new();
        match &teach.record {
            Record::Making { .. } => {
                texts.push((
                    "Recording the engine's search of this position…".to_string(),
                    Style::default(),
                ));
            }
            Record::Failed(why) => {
                texts.push((why.clone(), Style::default().fg(theme.check)));
            }
            Record::Ready { replay, step } => {
                // Predict mode's lines first, so that a small panel shows
                // them and pages the step's caption: the verdict on the
                // answer this step revealed, the question waiting here
                // (the score is in the header).
                let predict = &teach.predict;
                if predict.on {
                    let accent = Style::default().fg(theme.accent);
                    if let Some(verdict) = predict.verdict_at(step.applied) {
                        texts.push((verdict.text.clone(), accent));
                    }
                    if let Some(question) = predict.pending(replay, step) {
                        texts.push((question.text(), accent));
                    }
                }
                if let Some(note) = &teach.note {
                    texts.push((note.clone(), Style::default().fg(theme.accent)));
                }
                if step.applied == 0
                    && let Some(description) = &teach.description
                {
                    texts.push((description.clone(), Style::default().fg(theme.dim)));
                }
                texts.push((
                    crate::teach::caption::caption(replay, step),
                    Style::default(),
                ));
            }
        }
        let rows: Vec<(String, Style)> = texts
            .iter()
            .flat_map(|(text, style)| {
                wrap(text, usize::from(inner.width))
                    .into_iter()
                    .map(move |row| (row, *style))
            })
            .collect();
        let lines = page(
            &rows,
            usize::from(inner.width),
            usize::from(inner.height),
            teach.caption_page(),
            Style::default().fg(theme.dim),
        );
        frame.render_widget(Paragraph::new(lines), inner);
    }
}

/// `text` in rows of at most `width` columns, broken between words (a word
/// wider than the row is broken where the row ends).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split_whitespace() {
        let mut word = word.to_string();
        loop {
            let room = if row.is_empty() {
                width
            } else {
                width.saturating_sub(row.width() + 1)
            };
            if word.width() <= room {
                if !row.is_empty() {
                    row.push(' ');
                }
                row.push_str(&word);
                break;
            }
            if !row.is_empty() {
                rows.push(std::mem::take(&mut row));
                continue;
            }
            // Alone and still too wide: break it at the row's end.
            let mut used = 0;
            let cut = word
                .char_indices()
                .find(|&(_, c)| {
                    used += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                    used > width
                })
                .map_or(word.len(), |(i, _)| i.max(1));
            rows.push(word[..cut].to_string());
            word = word[cut..].to_string();
            if word.is_empty() {
                break;
            }
        }
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}

/// How many pages `rows` take in a panel `height` rows high: every page
/// but the last gives its last row to the cut and the key.
pub fn pages(rows: usize, height: usize) -> usize {
    if rows <= height || height < 2 {
        1
    } else {
        // Full pages of `height - 1` rows until the rest fits in `height`.
        let mut shown = 0;
        let mut pages = 1;
        while rows - shown > height {
            shown += height - 1;
            pages += 1;
        }
        pages
    }
}

/// Page `page` (counted round) of `rows` in a panel `width` by `height`.
fn page(
    rows: &[(String, Style)],
    width: usize,
    height: usize,
    page: usize,
    dim: Style,
) -> Vec<Line<'static>> {
    let line = |(text, style): &(String, Style)| Line::styled(text.clone(), *style);
    if rows.len() <= height {
        return rows.iter().map(line).collect();
    }
    if height == 0 {
        return Vec::new();
    }
    let page = page % pages(rows.len(), height);
    let first = page * (height - 1);
    if height >= 2 && rows.len() - first <= height {
        return rows[first..].iter().map(line).collect();
    }
    let full = height - 1;
    let mut lines: Vec<Line> = rows[first..first + full].iter().map(line).collect();
    // The next row, cut after a whole word, then the key.
    let (text, style) = &rows[first + full];
    let room = width.saturating_sub(MORE.width());
    let mut cut = fit_line(Line::styled(text.clone(), *style), room);
    if !cut.spans.last().is_some_and(|s| s.content.ends_with('…')) {
        cut.spans.push(Span::styled("…", *style));
    }
    cut.spans.push(Span::styled(MORE, dim));
    lines.push(cut);
    lines
}
