//! The rules of the game: the variant and the stone counts ([`variant`]), the
//! board ([`geometry`]), positions and their string form ([`position`]), the
//! legal moves ([`moves`]), and a game with its history and end ([`game`]).

pub mod game;
pub mod geometry;
pub mod moves;
pub mod position;
pub mod variant;
