//! The rules of the game: the variant and the stone counts ([`variant`]), the
//! board ([`geometry`]), positions and their string form ([`position`]), the
//! legal moves ([`moves`]), and a game with its history and end ([`game`]);
//! the rules as data ([`ruleset`], its board in [`board`]): every preset of
//! docs/RULES.md and a user's own, with the fingerprint files name them by.

pub mod board;
pub mod game;
pub mod generic;
pub mod geometry;
pub mod moves;
pub mod position;
pub mod ruleset;
pub mod variant;
