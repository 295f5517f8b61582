//! The search-statistics panel: what each iteration of the engine's search
//! cost, and what saved work. A bar per depth splits the iteration's nodes
//! into the main search and quiescence; beside it the effective branching
//! factor by both definitions; under it the cutoffs (and how many the first
//! move made: the measure of move ordering), the transposition table's hits
//! and the search's speed. The compact form says the same in one line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::engine::stats::SearchStats;
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::{human_count, section};

/// Columns beside the bar: depth, nodes, and the two branching factors.
const FIXED_COLUMNS: u16 = 3 + 1 + 6 + 1 + 6 + 6;

fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".into(), |r| format!("{:.0}%", r * 100.0))
}

pub struct StatsPanel<'a> {
    pub stats: &'a SearchStats,
    pub theme: &'a Theme,
}

impl StatsPanel<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let dim = Style::default().fg(theme.dim);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let stats = self.stats;
        // With several threads the counters are the main thread's tree
        // (see `SearchStats::helper_threads`); the title says so.
        let title = match stats.helper_threads {
            0 => " Search statistics (S hides) ".to_string(),
            helpers => format!(
                " Search statistics, main thread of {} (S hides) ",
                helpers + 1
            ),
        };
        let inner = section(frame, title, area, theme);
        let bar_width = usize::from(inner.width.saturating_sub(FIXED_COLUMNS)).max(4);
        // The two last columns are branching factors: this iteration's
        // nodes over the previous one's (N/N-1), and the depth-th root of
        // all nodes so far (root). Their name goes over the bars' end where
        // it fits.
        const LEGEND: &str = "█ main ░ quiescence";
        let legend_width = LEGEND.chars().count();
        let name = ["branching factor", "branching"]
            .into_iter()
            .find(|name| legend_width + 1 + name.len() <= bar_width)
            .unwrap_or("");
        let legend: String = LEGEND.chars().take(bar_width).collect();
        let mut lines = vec![Line::from(vec![
            Span::styled("  d  nodes ", dim),
            Span::styled(
                format!("{legend:<width$}{name}", width = bar_width - name.len()),
                dim,
            ),
            Span::styled(" N/N-1  root", dim),
        ])];
        let bars = usize::from(inner.height.saturating_sub(4)).max(1);
        let factors = stats.branching_factors();
        let shown = factors.len().saturating_sub(bars);
        let widest = stats.iterations[shown..]
            .iter()
            .map(|i| i.counters.nodes())
            .max()
            .unwrap_or(0)
            .max(1);
        for (iteration, factor) in stats.iterations.iter().zip(&factors).skip(shown) {
            let nodes = iteration.counters.nodes();
            // Bars share one scale, so each is the iteration's cost beside
            // the others; a non-empty iteration gets at least one cell.
            let cells = |n: u64| (n as usize * bar_width).div_ceil(widest as usize);
            let total = cells(nodes).min(bar_width);
            let main = cells(iteration.counters.main).min(total);
            lines.push(Line::from(vec![
                Span::raw(format!("{:>3} {:>6} ", iteration.depth, human_count(nodes))),
                Span::styled("█".repeat(main), Style::default().fg(theme.accent)),
                Span::styled("░".repeat(total - main), dim),
                Span::raw(" ".repeat(bar_width - total)),
                Span::raw(format!(
                    " {:>5} {:>5}",
                    factor
                        .ratio
                        .map_or_else(|| "-".into(), |r| format!("{r:.2}")),
                    format!("{:.2}", factor.root)
                )),
            ]));
        }
        let totals = &stats.totals;
        lines.push(Line::from(vec![
            Span::styled("cutoffs ", bold),
            Span::raw(format!(
                "{}: {} by the first move",
                human_count(totals.beta_cutoffs),
                percent(totals.first_move_cutoff_rate())
            )),
        ]));
        lines.push(Line::from(vec![
            Span::styled("TT hits ", bold),
            Span::raw(format!(
                "{}/{} {} ({}), {} {}",
                human_count(totals.tt_hits),
                human_count(totals.tt_probes),
                if totals.tt_probes == 1 {
                    "probe"
                } else {
                    "probes"
                },
                percent(totals.tt_hit_rate()),
                human_count(totals.tt_cutoffs),
                if totals.tt_cutoffs == 1 {
                    "cutoff"
                } else {
                    "cutoffs"
                }
            )),
        ]));
        // A replayed search (teach mode) has no time: its leaves instead.
        let last = if stats.elapsed_ms == 0 {
            format!(
                "{} {}",
                human_count(totals.leaves),
                if totals.leaves == 1 { "leaf" } else { "leaves" }
            )
        } else {
            format!("{} n/s", human_count(stats.nodes_per_second()))
        };
        lines.push(Line::from(format!(
            "quiescence {} · seldepth {} · {last}",
            percent(totals.quiescence_share()),
            stats.selective_depth,
        )));
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}

/// The panel in brief, for small terminals: one line where the side panel
/// is wide enough for it, else two (the three labels alone need more than
/// the 37 columns an 80-column terminal leaves beside the board).
pub struct StatsLine<'a> {
    pub stats: &'a SearchStats,
    pub theme: &'a Theme,
}

impl StatsLine<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let stats = self.stats;
        let totals = &stats.totals;
        let factor = stats.branching_factors().last().map_or_else(
            || "-".into(),
            |f| {
                f.ratio
                    .map_or_else(|| format!("{:.1}", f.root), |r| format!("{r:.1}"))
            },
        );
        let depth = stats.iterations.last().map_or(0, |i| i.depth);
        let first = format!("d{depth} branching factor {factor}");
        let second = format!(
            "cutoffs {} 1st · TT hits {}",
            percent(totals.first_move_cutoff_rate()),
            percent(totals.tt_hit_rate()),
        );
        let style = Style::default().fg(self.theme.dim);
        let lines = if area.height >= 2 {
            vec![Line::styled(first, style), Line::styled(second, style)]
        } else {
            vec![Line::styled(format!("{first} · {second}"), style)]
        };
        frame.render_widget(fitted(lines, area.width), area);
    }
}
