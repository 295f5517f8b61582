//! Criterion bench for drawing one frame of the board screen (120 x 40,
//! a two-player game after 20 plies, a piece selected with its targets) into
//! ratatui's `TestBackend`: the work the UI thread does per redraw, without
//! the terminal's own output time.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::config::Settings;
use kibitz::tui::app::App;
use kibitz::tui::msg::Msg;
use kibitz::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

fn mid_game() -> (App, Instant) {
    let now = Instant::now();
    let mut app = App::new(Settings::default(), None, None, None, (120, 40));
    let key = |app: &mut App, code| app.update(Msg::Key(KeyEvent::from(code), now), now);
    // Two players, so the moves below need no engine.
    for _ in 0..3 {
        key(&mut app, KeyCode::Right);
    }
    key(&mut app, KeyCode::Enter);
    for san in "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7".split(' ')
    {
        key(&mut app, KeyCode::Char(':'));
        for c in san.chars() {
            key(&mut app, KeyCode::Char(c));
        }
        key(&mut app, KeyCode::Enter);
    }
    app.take_commands();
    app.cx.board.selected = Some(shakmaty::Square::F3);
    (app, now)
}

fn benches(c: &mut Criterion) {
    let (app, now) = mid_game();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("test backend");
    c.bench_function("draw frame 120x40", |b| {
        b.iter(|| {
            terminal
                .draw(|frame| ui::draw(frame, black_box(&app), now))
                .expect("draw");
        })
    });
}

criterion_group!(tui, benches);
criterion_main!(tui);
