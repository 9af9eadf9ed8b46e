//! millbase: a retrograde-analysis solver and database generator for Nine Men's
//! Morris (Mill, Mühle).
//!
//! The library is layered as the data flows: [`geometry`] (points, mills,
//! symmetries) → [`position`] (positions and their string form) → [`moves`]
//! (forward move generation, perft).

pub mod generate;
pub mod geometry;
pub mod index;
pub mod moves;
pub mod opening;
pub mod position;
pub mod query;
pub mod solver;
pub mod storage;
pub mod value;
pub mod verify;

pub use moves::{Move, Rules};
pub use position::{Color, Position, PositionError};
pub use value::Value;
