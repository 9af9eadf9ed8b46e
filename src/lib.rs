//! millbase: a retrograde-analysis solver and database generator for Nine Men's
//! Morris (Mill, Mühle).
//!
//! The library is layered as the data flows: [`geometry`] (points, mills,
//! symmetries) → [`position`] (positions and their string form) → [`moves`]
//! (forward move generation, perft) → [`index`] (perfect hash of symmetry
//! classes) → [`solver`] (retrograde analysis) → [`storage`] (compressed files)
//! → [`query`] (probes) and [`opening`] (the placement phase by search, with
//! [`wdl`] maps at its leaves).

pub mod answer;
pub mod children;
pub mod db;
pub mod generate;
pub mod geometry;
pub mod index;
pub mod moves;
pub mod opening;
pub mod plan;
pub mod position;
pub mod query;
pub mod report;
pub mod rules;
pub mod solver;
pub mod storage;
pub mod value;
pub mod verify;
pub mod wdl;

pub use moves::Move;
pub use position::{Color, Position, PositionError};
pub use rules::Rules;
pub use value::Value;
