//! The game record and the notation people type. Independent of the engine
//! and of any user interface.

pub mod fen;
pub mod notation;
