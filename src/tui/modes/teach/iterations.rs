//! Teach mode's statistics panel (`S`): a row per iteration of iterative
//! deepening (one without it) with what that iteration alone cost: nodes,
//! leaves, beta cutoffs and the share the first move made (the measure of
//! move ordering), transposition table hits, the share of nodes spent in
//! quiescence, the deepest ply reached and the branching factor against
//! the iteration before. Under them the whole search so far. The rows add
//! up to the total: each counts from where the one before it ended.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::engine::stats::{Counters, SearchStats};
use crate::tui::theme::Theme;
use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::{human_count, section};

pub struct IterationsPanel<'a> {
    pub stats: &'a SearchStats,
    /// Whether the search had a transposition table and quiescence: a
    /// search without them (a hand-made tree has neither) has no column
    /// for them.
    pub table: bool,
    pub quiescence: bool,
    pub theme: &'a Theme,
}

fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".into(), |r| format!("{:.0}%", r * 100.0))
}

impl IterationsPanel<'_> {
    /// The column heads, over the rows `row` writes.
    fn head(&self) -> String {
        let mut head = "  d  nodes leaves  cuts 1st%".to_string();
        if self.table {
            head.push_str("  hits");
        }
        if self.quiescence {
            head.push_str("  qs%");
        }
        head + " ply  N/N-1"
    }

    /// One row: its label (the depth, or "all"), the counters, the deepest
    /// ply and the branching factor.
    fn row(&self, label: &str, c: &Counters, deepest: u32, factor: Option<f64>) -> String {
        let mut row = format!(
            "{label:>3} {:>6} {:>6} {:>5} {:>4}",
            human_count(c.nodes()),
            human_count(c.leaves),
            human_count(c.beta_cutoffs),
            percent(c.first_move_cutoff_rate()),
        );
        if self.table {
            row.push_str(&format!(" {:>5}", human_count(c.tt_hits)));
        }
        if self.quiescence {
            row.push_str(&format!(" {:>4}", percent(c.quiescence_share())));
        }
        let factor = factor.map_or_else(|| "-".into(), |f| format!("{f:.2}"));
        format!("{row} {deepest:>3} {factor:>6}")
    }
}

impl IterationsPanel<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let stats = self.stats;
        let dim = Style::default().fg(self.theme.dim);
        let inner = section(
            frame,
            " Statistics per iteration (S hides) ",
            area,
            self.theme,
        );
        if inner.height == 0 {
            return;
        }
        let mut lines = vec![Line::styled(self.head(), dim)];
        // The newest iterations where not all fit: the head and the total
        // keep their rows.
        let room = usize::from(inner.height).saturating_sub(2).max(1);
        let factors = stats.branching_factors();
        let first = stats.iterations.len().saturating_sub(room);
        for (i, iteration) in stats.iterations.iter().enumerate().skip(first) {
            let factor = factors.get(i).and_then(|f| f.ratio);
            lines.push(Line::raw(self.row(
                &iteration.depth.to_string(),
                &iteration.counters,
                iteration.selective_depth,
                factor,
            )));
        }
        if stats.iterations.len() > 1 {
            lines.push(Line::styled(
                self.row("all", &stats.totals, stats.selective_depth, None),
                Style::default().add_modifier(Modifier::BOLD),
            ));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
