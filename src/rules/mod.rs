//! The rules of the game: the variant and the stone counts ([`variant`]), the
//! board ([`geometry`]), positions and their string form ([`position`]), and
//! the legal moves ([`moves`]).

pub mod geometry;
pub mod moves;
pub mod position;
pub mod variant;
