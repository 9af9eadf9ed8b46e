//! millbase: a retrograde-analysis solver and database generator for Nine Men's
//! Morris (Mill, Mühle).
//!
//! The modules, each one concept, in the order the data flows (no module uses
//! one that uses it back; `tests/layers.rs` checks this):
//!
//! - [`rules`] (the variant and the stone counts) → [`geometry`] (points, mills,
//!   symmetries) → [`position`] (positions and their string form) → [`moves`]
//!   (forward move generation, perft) → [`index`] (subspaces, perfect hash of
//!   symmetry classes);
//! - [`value`] (values, table cells, counts) → [`solver`] (retrograde analysis
//!   of a subspace pair) and [`children`] (a value from the children's values);
//! - [`storage`] (the file format) → [`db`] (a database directory) →
//!   [`plan`]/[`generate`] (building one) and [`verify`] (checking one);
//! - [`query`] (probes) ← [`wdl`] (whole-table maps) ← [`opening`] (placement
//!   search) ← [`answer`] (value and move list, the JSON of `docs/RULES.md`);
//!   [`report`] holds the other commands' JSON shapes.
#![warn(missing_docs)]

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
pub mod records;
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
