//! Solving: values and table cells ([`value`]), the retrograde analysis of a
//! movement pair ([`solver`]), the forward pass of a placement sector
//! ([`placement`]), a value from the children's values ([`children`]), and the
//! no-removal rule over both ([`counter`]).

pub mod children;
pub mod counter;
pub mod known;
pub mod placement;
pub mod solver;
pub mod value;
