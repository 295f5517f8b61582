//! Shared helpers for the integration tests.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::PathBuf;

use kibitz::engine::search::{self, SearchResult};
use kibitz::engine::trace::NoTrace;
use kibitz::engine::{Limits, SearchOptions};
use shakmaty::Chess;

/// A file of the tests' data, `tests/data/RELATIVE` in the repository
/// (origins and licences in `tests/data/README.md`). Panics with the path
/// when it is missing: these tests must not pass silently without their data.
pub fn testdata(relative: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative);
    assert!(path.exists(), "test data missing: {}", path.display());
    path
}

pub fn read_testdata(relative: &str) -> String {
    let path = testdata(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One search on this thread with a fresh 16 MiB table.
pub fn search(position: &Chess, limits: &Limits, options: SearchOptions) -> SearchResult {
    search::search_fresh(position, &[], limits, options, 16, &mut NoTrace)
}
pub mod uci_session;
