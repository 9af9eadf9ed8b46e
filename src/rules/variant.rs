//! The rule variant and the stone counts of the game, named once.
//!
//! Nine Men's Morris as `docs/RULES.md` gives it: 9 stones a side, a side below
//! 3 stones (on board plus in hand) has lost, a side with exactly 3 on board and
//! none in hand may fly where flying is on. Other boards and stone counts
//! (Twelve Men's Morris, Lasker Morris) would start here.

use crate::rules::ruleset::{Rules, RulesId};
use std::sync::OnceLock;

/// Stones each player starts with in hand.
pub const STONES_PER_SIDE: u8 = 9;

/// A side with fewer stones than this on board plus in hand has lost.
pub const MIN_STONES: u8 = 3;

/// A side with exactly this many stones on board and none in hand may fly
/// (where [`Variant::flying`] is on).
pub const FLYING_STONES: u8 = 3;

/// The rule variant a database is solved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Whether a side with [`FLYING_STONES`] stones on board and none in hand
    /// may move a stone to any empty point.
    pub flying: bool,
}

impl Default for Variant {
    fn default() -> Self {
        Variant { flying: true }
    }
}

impl Variant {
    /// Both variants, flying first.
    pub const ALL: [Variant; 2] = [Variant { flying: true }, Variant { flying: false }];

    /// Short name of the variant: `flying` or `no-flying`.
    pub fn name(&self) -> &'static str {
        if self.flying { "flying" } else { "no-flying" }
    }

    /// The variant called `name` ([`Variant::name`]), if any.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The `generate` flag that selects this variant (empty for the default).
    pub fn flag(&self) -> &'static str {
        if self.flying { "" } else { " --no-flying" }
    }

    /// The name of the preset these rules are ([`Rules::preset`]): `nine`
    /// or `nine-no-flying`.
    pub fn preset(&self) -> &'static str {
        if self.flying {
            "nine"
        } else {
            "nine-no-flying"
        }
    }

    /// These rules as a description.
    pub fn rules(&self) -> Rules {
        Rules::preset(self.preset()).expect("nine's presets exist")
    }

    /// The name and fingerprint of these rules (made once).
    pub fn rules_id(&self) -> &'static RulesId {
        static IDS: [OnceLock<RulesId>; 2] = [OnceLock::new(), OnceLock::new()];
        IDS[usize::from(!self.flying)].get_or_init(|| self.rules().id())
    }

    /// The variant the engine plays `rules` as: the rules of `nine` or
    /// `nine-no-flying` (whatever their name and counter limit), else `None`.
    pub fn of_rules(rules: &Rules) -> Option<Variant> {
        let f = rules.fingerprint();
        Variant::ALL
            .into_iter()
            .find(|v| v.rules().fingerprint() == f)
    }
}

/// The move limit `L` of the no-removal rule in the rule texts: 50 moves by
/// each side without a removal, 100 plies ([`crate::solve::counter`]).
pub const DEFAULT_MOVE_LIMIT: u16 = crate::rules::ruleset::DEFAULT_LIMIT;
/// The largest move limit a table of the no-removal rule can hold (a distance
/// is stored in one byte).
pub const MAX_MOVE_LIMIT: u16 = crate::rules::ruleset::MAX_LIMIT;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_is_its_preset() {
        for v in Variant::ALL {
            assert_eq!(Variant::of_rules(&v.rules()), Some(v));
            assert_eq!(v.rules().name(), v.preset());
        }
        for other in ["twelve", "lasker", "six", "seven", "three"] {
            assert_eq!(Variant::of_rules(&Rules::preset(other).unwrap()), None);
        }
    }

    #[test]
    fn names_round_trip() {
        for r in Variant::ALL {
            assert_eq!(Variant::from_name(r.name()), Some(r));
        }
        assert_eq!(Variant::from_name("Flying"), None);
    }
}
