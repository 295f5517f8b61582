//! The terminal board's tests, one module per file, in one test binary
//! (one link instead of seven). Each drives `App` with the harness of
//! `tests/common/board.rs`.
#![allow(clippy::unwrap_used)]

#[path = "../common/mod.rs"]
mod common;

mod accessibility_tui;
mod analysis;
mod chess960_tui;
mod course_tui;
mod evening_analysis;
mod evening_play;
mod evening_status;
mod explorer_trial;
mod explorer_tui;
mod game_tables_tui;
mod map_export;
mod movetables_tui;
mod resize;
mod review_all_tui;
mod screens;
mod scripted;
mod stats_panel;
mod teach_game_tree;
mod teach_predict;
mod teach_tree;
mod teach_tui;
mod train_tui;
mod tui;

/// `insta` as these tests use it, with their snapshots kept where they were
/// when each file was a test binary of its own: `tests/snapshots/FILE__NAME.snap`
/// (insta would name them after the module path, `tui__FILE__NAME`, in a
/// `snapshots` folder beside the file). Each module imports it as `insta`.
mod snapshot_names {
    pub use insta::with_settings;

    macro_rules! assert_snapshot {
        ($name:expr, $value:expr $(,)?) => {{
            let file = module_path!().rsplit("::").next().unwrap_or_default();
            ::insta::with_settings!({
                prepend_module_to_snapshot => false,
                snapshot_path => "../snapshots",
            }, {
                ::insta::assert_snapshot!(format!("{file}__{}", $name), $value);
            });
        }};
    }

    pub(crate) use assert_snapshot;
}
