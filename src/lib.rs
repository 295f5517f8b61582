//! kibitz: a terminal chess application with its own engine.

pub mod book;
pub mod cli;
pub mod config;
pub mod core;
pub mod db;
pub mod engine;
pub mod fsutil;
pub mod game;
pub mod learn;
pub mod perft;
pub mod review;
pub mod tablebase;
pub mod teach;
pub mod text;
pub mod train;
#[cfg(feature = "tui")]
pub mod tui;
pub mod tune;
pub mod uci;
