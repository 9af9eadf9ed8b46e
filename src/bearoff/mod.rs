//! Backgammon's bear-off, solved backward like Mill: once every chequer of
//! both sides is in its home board, each position's value follows from
//! those with fewer chequers or chequers lower down, over the 21 rolls.
//!
//! - [`position`]: a side's chequers on its points, gnubg's index of it, the
//!   written forms (`"2 5 / 2 3"`, gnubg position IDs);
//! - [`moves`]: the rolls and the legal plays of a roll, in gnubg's order and
//!   notation;
//! - [`one_sided`]: gnubg's one-sided databases (the distribution of the
//!   rolls a side needs), generated and read;
//! - [`two_sided`]: gnubg's two-sided databases (cubeless and cubeful
//!   equities of pairs), generated and read;
//! - [`full`]: two-sided cubeless databases past gnubg's 11 chequers, in
//!   millbase's own compressed file;
//! - [`exact`]: the same recursions in f64, to measure the files' rounding;
//! - [`file`](mod@file): gnubg's file header, the errors;
//! - [`database`]: an open file of any of these kinds;
//! - [`query`]: a position's value and the plays of a roll, best first.
//!
//! The gnubg files are byte for byte those of gnubg's `makebearoff` (its
//! index, move order, rounding and integer cube arithmetic); the tests check
//! them against the MD5 sums gnubg's manual publishes.

pub mod database;
pub mod exact;
pub mod file;
pub mod full;
pub mod moves;
pub mod one_sided;
pub mod position;
pub mod query;
pub mod two_sided;
