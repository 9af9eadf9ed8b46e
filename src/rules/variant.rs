//! The rules the engine plays ([`Variant`]): a handle to a rule set's
//! tables, made once, that move generation, the indexer and the solver read.
//!
//! Nine Men's Morris as `docs/RULES.md` gives it (9 stones a side, a side
//! below 3 stones on board plus in hand has lost, flying at 3 on board with
//! none in hand, or never) is [`Variant::nine`]; any other rule set the
//! engine plays comes from its description by [`Variant::of_rules`].

use crate::rules::geometry::Geometry;
use crate::rules::ruleset::{Flying, FullBoard, Rules, RulesError, RulesId};
use std::sync::OnceLock;

/// Stones each player starts with in hand in Nine Men's Morris.
pub const STONES_PER_SIDE: u8 = 9;

/// The most stones a side may have in any rule set the engine plays.
pub const MAX_STONES: u8 = 12;

/// A side with fewer stones than this on board plus in hand has lost.
pub const MIN_STONES: u8 = 3;

/// In Nine Men's Morris, a side with exactly this many stones on board and
/// none in hand may fly (where flying is on).
pub const FLYING_STONES: u8 = 3;

/// The rules a database is solved for and the engine plays: a cheap copy
/// of a reference to tables made once per rule set. Two variants are equal
/// when their rules have the same fingerprint.
#[derive(Clone, Copy)]
pub struct Variant(&'static Setup);

/// What [`Variant`] refers to.
struct Setup {
    rules: Rules,
    id: RulesId,
    fingerprint: u64,
    geometry: &'static Geometry,
    /// `Some(flying)` for nine's two rule sets.
    nine: Option<bool>,
    stones: u8,
    min_stones: u8,
    flying: Flying,
    /// A side flies with this many stones on board and none in hand (0:
    /// never so).
    fly_on_board: u8,
    /// A side flies with this many stones on board plus in hand (0: never
    /// so).
    fly_total: u8,
}

impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        self.0.fingerprint == other.0.fingerprint
    }
}

impl Eq for Variant {}

impl std::hash::Hash for Variant {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.fingerprint.hash(h)
    }
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({} {})", self.0.id.name, self.0.id.fingerprint)
    }
}

impl Default for Variant {
    fn default() -> Self {
        Variant::nine(true)
    }
}

impl Setup {
    fn new(rules: Rules, geometry: &'static Geometry, nine: Option<bool>) -> Setup {
        Setup {
            id: rules.id(),
            fingerprint: rules.fingerprint(),
            geometry,
            nine,
            stones: rules.stones(),
            min_stones: rules.min_stones(),
            flying: rules.flying(),
            fly_on_board: match rules.flying() {
                Flying::OnBoard(k) => k,
                _ => 0,
            },
            fly_total: match rules.flying() {
                Flying::Total(k) => k,
                _ => 0,
            },
            rules,
        }
    }
}

impl Variant {
    /// Nine Men's Morris, with flying or without.
    pub fn nine(flying: bool) -> Variant {
        static NINES: [OnceLock<Setup>; 2] = [OnceLock::new(), OnceLock::new()];
        Variant(NINES[usize::from(!flying)].get_or_init(|| {
            let name = if flying { "nine" } else { "nine-no-flying" };
            let rules = Rules::preset(name).expect("nine's presets exist");
            Setup::new(rules, Geometry::nine(), Some(flying))
        }))
    }

    /// Nine's two rule sets, flying first.
    pub fn nines() -> [Variant; 2] {
        [Variant::nine(true), Variant::nine(false)]
    }

    /// The engine's variant for `rules`: nine's own tables for the rules of
    /// `nine` and `nine-no-flying` (whatever their name and counter limit),
    /// else the tables of this rule set, made at its first call and kept
    /// for the life of the process (about 60 KB a rule set; later calls
    /// with rules of the same fingerprint get the same tables). Errors name
    /// what the engine does not play yet.
    pub fn of_rules(rules: &Rules) -> Result<Variant, RulesError> {
        let f = rules.fingerprint();
        if let Some(v) = Variant::nines().into_iter().find(|v| v.0.fingerprint == f) {
            return Ok(v);
        }
        // the tables made so far, one per fingerprint: a cache, so that
        // opening a database again does not make them again
        static MADE: std::sync::Mutex<Vec<&'static Setup>> = std::sync::Mutex::new(Vec::new());
        let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&setup) = made.iter().find(|s| s.fingerprint == f) {
            return Ok(Variant(setup));
        }
        let unsupported = |what: &str| {
            Err(RulesError(format!(
                "{}: {what} is not played by this engine yet",
                rules.name()
            )))
        };
        if rules.lasker() {
            return unsupported("Lasker's turn (place or move)");
        }
        if rules.min_stones() != MIN_STONES {
            return unsupported(&format!("a least of other than {MIN_STONES} stones"));
        }
        let board = rules.board();
        if 2 * rules.stones() as usize >= board.len() && rules.full_board() == FullBoard::Draw {
            return unsupported("a board that placement can fill");
        }
        if rules.stones() > STONES_PER_SIDE {
            // the subspace lists stop at nine's stones so far
            return unsupported(&format!("more than {STONES_PER_SIDE} stones a side"));
        }
        let names = board.points().iter().map(|p| p.name.clone()).collect();
        let neighbours: Vec<u32> = (0..board.len()).map(|p| board.neighbours(p)).collect();
        let geometry = Geometry::new(names, &neighbours, &board.mill_masks(), &board.symmetries())
            .map_err(|e| RulesError(format!("{}: {e}", rules.name())))?;
        let geometry: &'static Geometry = Box::leak(Box::new(geometry));
        let setup: &'static Setup = Box::leak(Box::new(Setup::new(rules.clone(), geometry, None)));
        made.push(setup);
        Ok(Variant(setup))
    }

    /// Whether these are nine's rules, and with flying: `Some(flying)` for
    /// `nine` and `nine-no-flying`, else `None`.
    pub fn nine_flying(&self) -> Option<bool> {
        self.0.nine
    }

    /// Short name: `flying` or `no-flying` for nine's rules (as nine's
    /// manifests write it), else the rules' name.
    pub fn name(&self) -> &'static str {
        match self.0.nine {
            Some(true) => "flying",
            Some(false) => "no-flying",
            None => &self.0.id.name,
        }
    }

    /// Nine's variant called `name` ([`Variant::name`]), if any.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::nines().into_iter().find(|r| r.name() == name)
    }

    /// The `generate` flags that select these rules (empty for the default).
    pub fn flag(&self) -> String {
        match self.0.nine {
            Some(true) => String::new(),
            Some(false) => " --no-flying".into(),
            None => format!(" --rules {}", self.0.id.name),
        }
    }

    /// The name of these rules: `nine`, `nine-no-flying`, another preset's
    /// or the name a description gives.
    pub fn preset(&self) -> &'static str {
        &self.0.id.name
    }

    /// These rules as a description.
    pub fn rules(&self) -> &'static Rules {
        &self.0.rules
    }

    /// The name and fingerprint of these rules.
    pub fn rules_id(&self) -> &'static RulesId {
        &self.0.id
    }

    /// The fingerprint of these rules ([`Rules::fingerprint`]).
    pub fn fingerprint(&self) -> u64 {
        self.0.fingerprint
    }

    /// The board's tables.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry {
        self.0.geometry
    }

    /// Stones each side starts with in hand.
    pub fn stones(&self) -> u8 {
        self.0.stones
    }

    /// A side with fewer stones than this on board plus in hand has lost.
    pub fn min_stones(&self) -> u8 {
        self.0.min_stones
    }

    /// Whether a side with `on_board` stones on board and `in_hand` in hand
    /// moves a stone to any empty point.
    #[inline(always)]
    pub fn can_fly(&self, on_board: u32, in_hand: u8) -> bool {
        // a count of 0 never matches: a side with no stone has lost
        let s = self.0;
        (in_hand == 0 && on_board == u32::from(s.fly_on_board)) & (on_board != 0)
            | (on_board + u32::from(in_hand) == u32::from(s.fly_total)) & (s.fly_total != 0)
    }

    /// Whether flying is part of these rules at all.
    pub fn flies(&self) -> bool {
        self.0.flying != Flying::Never
    }

    /// The most stones on board a side can fly with and none in hand, if
    /// it ever flies.
    pub fn flying_stones(&self) -> Option<u8> {
        match self.0.flying {
            Flying::Never => None,
            Flying::OnBoard(k) | Flying::Total(k) => Some(k),
        }
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
        for v in Variant::nines() {
            assert_eq!(Variant::of_rules(v.rules()).unwrap(), v);
            assert_eq!(v.rules().name(), v.preset());
        }
        for other in ["six", "seven", "three"] {
            let v = Variant::of_rules(&Rules::preset(other).unwrap()).unwrap();
            let again = Variant::of_rules(&Rules::preset(other).unwrap()).unwrap();
            assert!(std::ptr::eq(v.geometry(), again.geometry()), "made once");
            assert_eq!(v.nine_flying(), None);
            assert_eq!(v.preset(), other);
            assert_ne!(v, Variant::default());
        }
        for not_yet in ["twelve", "lasker"] {
            let e = Variant::of_rules(&Rules::preset(not_yet).unwrap()).unwrap_err();
            assert!(e.0.contains("not played by this engine yet"), "{e}");
        }
        let mut ten = Rules::preset("lasker").unwrap().spec();
        ten.lasker = false;
        let e = Variant::of_rules(&Rules::new(ten).unwrap()).unwrap_err();
        assert!(e.0.contains("more than 9 stones"), "{e}");
    }

    #[test]
    fn names_round_trip() {
        for r in Variant::nines() {
            assert_eq!(Variant::from_name(r.name()), Some(r));
        }
        assert_eq!(Variant::from_name("Flying"), None);
    }

    #[test]
    fn flying_on_board_and_in_total() {
        let nine = Variant::nine(true);
        assert!(nine.can_fly(3, 0));
        assert!(!nine.can_fly(3, 1) && !nine.can_fly(4, 0));
        assert!(!Variant::nine(false).can_fly(3, 0));
    }
}
