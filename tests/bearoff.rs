//! The bear-off databases: byte for byte gnubg's files (the MD5 sums its
//! manual publishes), and their values against a naive solver of this file
//! (its own move generation, exact rationals).

mod common;

use md5::{Digest, Md5};
use millbase::bearoff::{one_sided, two_sided};

fn md5_hex(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// gnubg's manual, "Verification of the databases": one-sided, 15 chequers.
const ONE_SIDED_MD5: [(usize, &str); 8] = [
    (1, "c789f049ec98ce4e307b471257999f39"),
    (2, "b6e61c1625ae4b3b164e93ab064192b9"),
    (3, "346dae6139ccb4b227c534373e5c52e4"),
    (4, "653255f5f9f22fd50277f7ff25b2a343"),
    (5, "2064f9a56b23117d053a573c96a92fa2"),
    (6, "3dc7b833c4670849cee00479a9e21b49"),
    (7, "67235c8e0ee152df5daf36cbeae5b3c2"),
    (8, "a4acbb5c7e9e1f08e561afe0af934e5c"),
];

/// The same: two-sided, 6 points, cubeful.
const TWO_SIDED_MD5: [(usize, &str); 6] = [
    (1, "7ed6f8e7fce16ea2b80e07a4a516653c"),
    (2, "e9d760bf213841c285245ed757a52f4d"),
    (3, "9d67da3db32ad4720cc38eecf9a67967"),
    (4, "9156f37032d1d4b0352a41186e632dfc"),
    (5, "0db19ab08feae1feb33ddbd709479f62"),
    (6, "44b6040b49b46cb9dd2ce8caa947044d"),
];

#[test]
fn one_sided_files_are_gnubgs() {
    for (points, md5) in ONE_SIDED_MD5 {
        let table = one_sided::generate(points, 15, &mut |_, _| {});
        let bytes = one_sided::gnubg_bytes(points, 15, &table);
        assert_eq!(md5_hex(&bytes), md5, "one-sided, {points} points");
    }
}

#[test]
fn two_sided_files_are_gnubgs() {
    for (chequers, md5) in TWO_SIDED_MD5 {
        let table = two_sided::generate(6, chequers, true, &mut |_, _| {});
        let bytes = two_sided::gnubg_bytes(6, chequers, true, &table);
        assert_eq!(md5_hex(&bytes), md5, "two-sided, {chequers} chequers");
    }
}

use millbase::bearoff::exact;
use millbase::bearoff::full;
use millbase::bearoff::moves::{Roll, plays};
use millbase::bearoff::position::{Side, positions};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::BTreeSet;

/// The naive rules: every sequence of dice a side can play (each die moves
/// one chequer down, or off once all are home: by the exact number, or a
/// higher one from the highest point), then those that play the most dice,
/// and of two dice of which only one can be played, the larger.
fn naive_plays(counts: [u8; 6], roll: (u8, u8)) -> BTreeSet<[u8; 6]> {
    fn walk(c: [u8; 6], dice: &[u8], used: Vec<u8>, out: &mut Vec<([u8; 6], Vec<u8>)>) {
        let mut any = false;
        if let Some((&d, rest)) = dice.split_first() {
            for p in 1..=6usize {
                if c[p - 1] == 0 {
                    continue;
                }
                let d = usize::from(d);
                let highest = (1..=6).rev().find(|&q| c[q - 1] > 0).unwrap();
                let ok = p >= d || p == highest;
                if !ok {
                    continue;
                }
                let mut next = c;
                next[p - 1] -= 1;
                if p > d {
                    next[p - d - 1] += 1;
                }
                let mut u = used.clone();
                u.push(d as u8);
                walk(next, rest, u, out);
                any = true;
            }
        }
        if !any {
            out.push((c, used));
        }
    }
    let orders: Vec<Vec<u8>> = if roll.0 == roll.1 {
        vec![vec![roll.0; 4]]
    } else {
        vec![vec![roll.0, roll.1], vec![roll.1, roll.0]]
    };
    let mut all = Vec::new();
    for o in orders {
        walk(counts, &o, vec![], &mut all);
    }
    let most = all.iter().map(|(_, u)| u.len()).max().unwrap();
    let mut legal: Vec<_> = all.into_iter().filter(|(_, u)| u.len() == most).collect();
    if most == 1 && roll.0 != roll.1 {
        let larger = roll.0.max(roll.1);
        if legal.iter().any(|(_, u)| u[0] == larger) {
            legal.retain(|(_, u)| u[0] == larger);
        }
    }
    legal.into_iter().map(|(c, _)| c).collect()
}

fn counts6(s: &Side) -> [u8; 6] {
    s.counts()[..6].try_into().unwrap()
}

fn rolls() -> Vec<(u8, u8)> {
    (1..=6).flat_map(|a| (1..=a).map(move |b| (a, b))).collect()
}

#[test]
fn the_plays_are_the_naive_rules_plays() {
    // every position of up to 15 chequers on 6 points, every roll
    for i in 1..positions(6, 15) {
        let side = Side::from_index(i, 6).unwrap();
        assert_eq!(side.index(6), i, "index and position agree");
        for (a, b) in rolls() {
            let ours: Vec<[u8; 6]> = plays(&side, Roll { high: a, low: b })
                .iter()
                .map(|p| counts6(&p.to))
                .collect();
            let set: BTreeSet<[u8; 6]> = ours.iter().copied().collect();
            assert_eq!(set.len(), ours.len(), "{side} {a}{b}: a position twice");
            assert_eq!(
                set,
                naive_plays(counts6(&side), (a, b)),
                "{side} roll {a}{b}"
            );
            for to in &set {
                let to = Side::from_counts(to).unwrap();
                assert!(to.index(6) < i, "{side} {a}{b}: a play to a larger index");
            }
        }
    }
}

/// Exact values by the naive rules for every position of up to `c`
/// chequers on 6 points: the expected rolls of one side, and a pair's
/// cubeless chance of winning and cubeful equities (the side on roll's,
/// before its cube decision: owned, centred, opponent's).
struct Naive {
    sides: Vec<[u8; 6]>,
    rolls: Vec<BigRational>,
    win: Vec<BigRational>,
    cubeful: Vec<[BigRational; 3]>,
}

fn weight(r: (u8, u8)) -> BigRational {
    let w = if r.0 == r.1 { 1 } else { 2 };
    BigRational::new(w.into(), 36.into())
}

fn naive(c: usize) -> Naive {
    // positions in order of pips, so every play leads to a position before
    let mut sides: Vec<[u8; 6]> = Vec::new();
    fn all(c: usize, at: usize, cur: [u8; 6], out: &mut Vec<[u8; 6]>) {
        if at == 6 {
            out.push(cur);
            return;
        }
        let used: usize = cur.iter().map(|&x| usize::from(x)).sum();
        for k in 0..=c - used {
            let mut n = cur;
            n[at] = k as u8;
            all(c, at + 1, n, out);
        }
    }
    all(c, 0, [0; 6], &mut sides);
    let pips = |s: &[u8; 6]| {
        s.iter()
            .enumerate()
            .map(|(i, &k)| (i + 1) * usize::from(k))
            .sum::<usize>()
    };
    sides.sort_by_key(pips);
    let n = sides.len();
    let at = |s: &[u8; 6]| sides.iter().position(|t| t == s).unwrap();
    let succ: Vec<Vec<Vec<usize>>> = sides
        .iter()
        .map(|s| {
            rolls()
                .into_iter()
                .map(|r| naive_plays(*s, r).iter().map(&at).collect())
                .collect()
        })
        .collect();
    let one = BigRational::one();
    let mut exp_rolls = vec![BigRational::zero(); n];
    for i in 1..n {
        let mut e = one.clone();
        for (k, r) in rolls().into_iter().enumerate() {
            let best = succ[i][k]
                .iter()
                .map(|&j| exp_rolls[j].clone())
                .min()
                .unwrap();
            e += weight(r) * best;
        }
        exp_rolls[i] = e;
    }
    let two = BigRational::from_integer(2.into());
    let cube = |nd: &BigRational, dt: &BigRational| -> BigRational {
        if *dt >= nd / &two && one >= *nd {
            one.clone().min(&two * dt)
        } else {
            nd.clone()
        }
    };
    let mut win = vec![BigRational::zero(); n * n];
    let mut cubeful: Vec<[BigRational; 3]> = vec![Default::default(); n * n];
    for sum in 0..2 * n - 1 {
        for us in sum.saturating_sub(n - 1)..=sum.min(n - 1) {
            let them = sum - us;
            let k = us * n + them;
            if us == 0 {
                win[k] = one.clone();
                cubeful[k] = [one.clone(), one.clone(), one.clone()];
                continue;
            }
            if them == 0 {
                win[k] = BigRational::zero();
                cubeful[k] = [-one.clone(), -one.clone(), -one.clone()];
                continue;
            }
            let mut w = BigRational::zero();
            let mut cf: [BigRational; 3] = Default::default();
            for (r, roll) in rolls().into_iter().enumerate() {
                let after = |j: usize| them * n + j;
                let best = succ[us][r]
                    .iter()
                    .map(|&j| &one - &win[after(j)])
                    .max()
                    .unwrap();
                w += weight(roll) * best;
                let owned = succ[us][r]
                    .iter()
                    .map(|&j| -cubeful[after(j)][2].clone())
                    .max()
                    .unwrap();
                let centred = (succ[us][r].iter())
                    .map(|&j| -cube(&cubeful[after(j)][1], &cubeful[after(j)][2]))
                    .max()
                    .unwrap();
                let theirs = (succ[us][r].iter())
                    .map(|&j| -cube(&cubeful[after(j)][0], &cubeful[after(j)][2]))
                    .max()
                    .unwrap();
                cf[0] += weight(roll) * owned;
                cf[1] += weight(roll) * centred;
                cf[2] += weight(roll) * theirs;
            }
            win[k] = w;
            cubeful[k] = cf;
        }
    }
    Naive {
        sides,
        rolls: exp_rolls,
        win,
        cubeful,
    }
}

fn f(r: &BigRational) -> f64 {
    r.to_f64().unwrap()
}

#[test]
fn the_files_agree_with_a_naive_exact_solver() {
    let c = 3;
    let nv = naive(c);
    let n = nv.sides.len();
    let index: Vec<usize> = nv
        .sides
        .iter()
        .map(|s| Side::from_counts(s).unwrap().index(6) as usize)
        .collect();
    // one side: gnubg's fixed point keeps 32 rolls of 16 bits; its mean
    // is off by at most 31 rolls · 32 entries · half a unit per roll of
    // depth (3 chequers need at most 6 rolls), 0.045 rolls, a bound far
    // above what it is measured off by
    let fixed = one_sided::generate(6, c, &mut |_, _| {});
    let real = exact::one_sided(6, c);
    let (mut to_fixed, mut to_real) = (0.0f64, 0.0f64);
    for k in 0..n {
        let e = f(&nv.rolls[k]);
        to_fixed = to_fixed.max((fixed[index[k]].expected_rolls() - e).abs());
        to_real = to_real.max((exact::mean(&real[index[k]].off) - e).abs());
    }
    // gnubg's 16-bit fixed point, measured (`cargo test --release --test
    // bearoff the_files_agree -- --nocapture`): one-sided 2.98e-5 rolls,
    // cubeless 6.51e-5, cubeful 8.41e-5; each bound is a little above its
    // measure, so that a change of the arithmetic shows
    assert!(to_real < 1e-12, "f64 one-sided off by {to_real}");
    assert!(to_fixed < 4e-5, "gnubg one-sided off by {to_fixed}");
    // two sides: each ply of a game truncates by less than one unit of
    // 1/32767.5 and the complement adds one; 3 chequers a side end within
    // 12 plies, so the cubeless equity is off by less than 24 units (7.3e-4)
    // whatever the arithmetic's details; it is measured far below
    let fixed = two_sided::generate(6, c, true, &mut |_, _| {});
    let real = exact::two_sided(6, c);
    let m = positions(6, c) as usize;
    let (mut cubeless_fixed, mut real_off) = (0.0f64, 0.0f64);
    let mut cubeful_fixed = 0.0f64;
    for a in 0..n {
        for b in 0..n {
            let (k, at) = (a * n + b, index[a] * m + index[b]);
            let equity = 2.0 * f(&nv.win[k]) - 1.0;
            cubeless_fixed = cubeless_fixed.max((two_sided::equity(fixed[at][0]) - equity).abs());
            real_off = real_off.max((real[at][0] - equity).abs());
            for q in 0..3 {
                let e = f(&nv.cubeful[k][q]);
                real_off = real_off.max((real[at][q + 1] - e).abs());
                cubeful_fixed = cubeful_fixed.max((two_sided::equity(fixed[at][q + 1]) - e).abs());
            }
        }
    }
    assert!(real_off < 1e-12, "f64 two-sided off by {real_off}");
    assert!(
        cubeless_fixed < 8e-5,
        "gnubg cubeless off by {cubeless_fixed}"
    );
    eprintln!(
        "largest differences from exact: one-sided {to_fixed:.2e} rolls, cubeless {cubeless_fixed:.2e}, cubeful {cubeful_fixed:.2e}"
    );
    assert!(cubeful_fixed < 1e-4, "gnubg cubeful off by {cubeful_fixed}");
}

#[test]
fn millbases_two_sided_file_has_gnubgs_cubeless_equities() {
    let small = two_sided::generate(6, 3, false, &mut |_, _| {});
    let m = positions(6, 3) as usize;
    for c in 1..=5 {
        let gnubg = two_sided::generate(6, c, false, &mut |_, _| {});
        let ours = full::generate(6, c, &|_, _| {});
        let cubeless: Vec<i16> = gnubg.iter().map(|e| e[0]).collect();
        assert_eq!(ours, cubeless, "{c} chequers");
        if c >= 3 {
            // a smaller file's pairs come first in a larger one
            let n = positions(6, c) as usize;
            for a in 0..m {
                for b in 0..m {
                    assert_eq!(ours[a * n + b], small[a * m + b][0]);
                }
            }
        }
    }
}

#[test]
fn millbases_file_reads_back_and_damage_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ts.mbo");
    let table = full::generate(6, 4, &|_, _| {});
    full::write(&path, 6, 4, &table).unwrap();
    let file = full::FullFile::open(&path).unwrap();
    let n = positions(6, 4);
    for a in (0..n).step_by(7) {
        for b in (0..n).step_by(5) {
            assert_eq!(file.equity(a, b).unwrap(), table[(a * n + b) as usize]);
        }
    }
    let bytes = std::fs::read(&path).unwrap();
    // a flipped byte in a block is a checksum error naming the file
    let mut bad = bytes.clone();
    let last = bad.len() - 10;
    bad[last] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    let file = full::FullFile::open(&path).unwrap();
    let errors = (0..n).filter_map(|a| file.equity(a, 0).err()).count();
    assert!(errors > 0, "a damaged block read without error");
    // truncated: refused when opened
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let e = full::FullFile::open(&path)
        .err()
        .expect("a truncated file opened");
    assert!(e.to_string().contains("ts.mbo"), "{e}");
}

#[test]
fn a_position_id_reads_as_gnubgs_manual_draws_it() {
    // gnubg's manual (hypergammon databases): "ADAAAQAkIAAAAA", X on roll
    // with chequers on its 15-, 17- and 24-points, O on its 13-point (two)
    // and 23-point
    let [on_roll, opponent] =
        millbase::bearoff::position::position_id_boards("ADAAAQAkIAAAAA").unwrap();
    let on = |b: [u8; 25]| -> Vec<(usize, u8)> {
        b.iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| (i + 1, *c))
            .collect()
    };
    assert_eq!(on(on_roll), vec![(15, 1), (17, 1), (24, 1)]);
    assert_eq!(on(opponent), vec![(13, 2), (23, 1)]);
    // a bear-off position's ID reads back
    let a = Side::parse("2 5", 6).unwrap();
    let b = Side::parse("2 3 6 6", 6).unwrap();
    let id = millbase::bearoff::position::position_id(&a, &b);
    assert_eq!(
        millbase::bearoff::position::from_position_id(&id).unwrap(),
        (a, b)
    );
}

fn out(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// `bearoff generate FLAGS --out PATH`, which succeeds: its output.
fn generate(flags: &[&str], path: &std::path::Path) -> std::process::Output {
    let o = common::run(
        &[
            &["bearoff", "generate"],
            flags,
            &["--out", path.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", err(&o));
    o
}

fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn the_command_generates_queries_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let os = dir.path().join("os3.bd");
    let ts = dir.path().join("ts3.bd");
    let o = generate(&["--one-sided", "--points", "3"], &os);
    assert!(
        out(&o).contains("MD5 346dae6139ccb4b227c534373e5c52e4"),
        "{}",
        out(&o)
    );
    let o = generate(&["--two-sided", "--points", "6", "--checkers", "3"], &ts);
    assert!(
        out(&o).contains("MD5 9d67da3db32ad4720cc38eecf9a67967"),
        "{}",
        out(&o)
    );

    // one side: the distribution sums to 1 and its mean is the expected rolls
    let o = common::run(&[
        "bearoff",
        "query",
        "--db",
        os.to_str().unwrap(),
        "1 3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["position"], "1 3");
    let d: Vec<f64> = v["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let mean: f64 = d.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
    assert!((mean - v["expected_rolls"].as_f64().unwrap()).abs() < 1e-9);
    // 1 3 with 21: every play leaves one chequer on the 1-point; gnubg
    // reaches it first by 3/1 1/off, and writes one chequer's path from
    // the 3-point off
    let best = |pos: &str| -> serde_json::Value {
        let o = common::run(&[
            "bearoff",
            "best",
            "--db",
            os.to_str().unwrap(),
            pos,
            "--roll",
            "21",
            "--json",
        ]);
        serde_json::from_str(&out(&o)).unwrap()
    };
    let v = best("1 3");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{v}");
    assert_eq!(moves[0]["move"], "3/off", "{v}");
    // 1 2 3 with 21 has several plays: best first, each play's rolls left
    // those of the position it leads to, asked of the file
    let v = best("1 2 3");
    let moves = v["moves"].as_array().unwrap();
    assert!(moves.len() >= 3, "{v}");
    let mut rolls = vec![];
    for m in moves {
        let left = m["expected_rolls"].as_f64().unwrap();
        let after = m["position"].as_str().unwrap();
        let q = common::run(&[
            "bearoff",
            "query",
            "--db",
            os.to_str().unwrap(),
            after,
            "--json",
        ]);
        let q: serde_json::Value = serde_json::from_str(&out(&q)).unwrap();
        assert_eq!(q["expected_rolls"].as_f64().unwrap(), left, "{m}");
        rolls.push(left);
    }
    assert!(rolls.windows(2).all(|w| w[0] <= w[1]), "best first: {v}");
    assert!(rolls.first() < rolls.last(), "the plays differ: {v}");

    // two sides: the same answer for the written position and its ID
    let id = millbase::bearoff::position::position_id(
        &Side::parse("2 5", 6).unwrap(),
        &Side::parse("2 3", 6).unwrap(),
    );
    let a = out(&common::run(&[
        "bearoff",
        "query",
        "--db",
        ts.to_str().unwrap(),
        "2 5 / 2 3",
        "--json",
    ]));
    let b = out(&common::run(&[
        "bearoff",
        "query",
        "--db",
        ts.to_str().unwrap(),
        &id,
        "--json",
    ]));
    assert_eq!(a, b);
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    let win = v["win"].as_f64().unwrap();
    assert!((win - (v["cubeless"].as_f64().unwrap() + 1.0) / 2.0).abs() < 1e-12);
    for k in ["owned", "centred", "opponent"] {
        assert!(v["cubeful"][k].as_f64().unwrap().abs() <= 1.0, "{v}");
    }
    // the best play of each roll, averaged over the 21 rolls, is the
    // position's chance of winning (up to the file's rounding)
    let mut total = 0.0;
    for roll in Roll::all() {
        let o = common::run(&[
            "bearoff",
            "best",
            "--db",
            ts.to_str().unwrap(),
            "2 5 / 2 3",
            "--roll",
            &roll.to_string(),
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
        total += f64::from(roll.weight()) / 36.0 * v["moves"][0]["win"].as_f64().unwrap();
    }
    assert!((total - win).abs() < 1e-3, "{total} against {win}");

    // bad input: exit 2 with the reason; a bad file: exit 1 naming it
    for (db, pos, says) in [
        (&ts, "2 7 / 1", "outside the home board"),
        (&ts, "1 1 1 1 / 2", "up to 3"),
        (&ts, "2 5", "slash"),
        (&os, "1 2 / 1", "without a slash"),
        (&os, "x", "not a point"),
    ] {
        let o = common::run(&["bearoff", "query", "--db", db.to_str().unwrap(), pos]);
        assert_eq!(o.status.code(), Some(2), "{pos}: {}", err(&o));
        assert!(err(&o).contains(says), "{pos}: {}", err(&o));
    }
    let bad = dir.path().join("bad.bd");
    let bytes = std::fs::read(&ts).unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() - 2]).unwrap();
    let o = common::run(&["bearoff", "query", "--db", bad.to_str().unwrap(), "1 / 1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("bad.bd"), "{}", err(&o));
    std::fs::write(
        &bad,
        b"MILLBASE and other bytes that are not a bear-off file at all",
    )
    .unwrap();
    let o = common::run(&["bearoff", "query", "--db", bad.to_str().unwrap(), "1 / 1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("not a bear-off database"), "{}", err(&o));
}

#[test]
fn damaged_gnubg_files_give_errors_or_values_never_a_panic() {
    use millbase::bearoff::database::BearoffFile;
    use millbase::bearoff::position::Written;
    use millbase::bearoff::query;
    let dir = tempfile::tempdir().unwrap();
    let os = one_sided::gnubg_bytes(3, 15, &one_sided::generate(3, 15, &mut |_, _| {}));
    let ts = two_sided::gnubg_bytes(6, 2, true, &two_sided::generate(6, 2, true, &mut |_, _| {}));
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (name, good) in [("os.bd", &os), ("ts.bd", &ts)] {
        let path = dir.path().join(name);
        // what the damaged files gave: refused at opening, and of the
        // queries of those opened, answers and errors
        let (mut refused, mut answered, mut errors) = (0, 0, 0);
        for round in 0..300 {
            let mut bytes = good.clone();
            match round % 3 {
                0 => {
                    let at = (next() % bytes.len() as u64) as usize;
                    bytes[at] = next() as u8;
                }
                1 => bytes.truncate((next() % bytes.len() as u64) as usize),
                _ => {
                    let at = (next() % 40) as usize;
                    bytes[at] = next() as u8;
                }
            }
            std::fs::write(&path, &bytes).unwrap();
            let Ok(file) = BearoffFile::open(&path) else {
                refused += 1;
                continue;
            };
            let (points, chequers) = file.size();
            let n = positions(points, chequers).min(200);
            for i in 0..n {
                let side = Side::from_index(i, points).unwrap();
                let written = match file {
                    BearoffFile::One(_) => Written::One(side),
                    _ => Written::Two(side, side),
                };
                for ok in [
                    query::value(&file, written).is_ok(),
                    query::best(&file, written, Roll { high: 2, low: 1 }).is_ok(),
                ] {
                    if ok {
                        answered += 1;
                    } else {
                        errors += 1;
                    }
                }
            }
        }
        // the damage reached both paths: files refused at opening, and
        // damaged bodies read by queries (which answer or give an error,
        // never panic)
        eprintln!("{name}: {refused} refused, {answered} answers, {errors} errors");
        assert!(
            refused > 0 && refused < 300,
            "{name}: {refused} of 300 refused"
        );
        assert!(
            answered > 0,
            "{name}: no query of a damaged file was answered"
        );
    }
}

/// The cube as a gnubg user reads it: the stored cubeful equities are the
/// equities before the cube decision, and `query` gives the decision and
/// the proper equity after it (checked against the rule written out here
/// in f64, and against the two positions a gnubg user knows); `best` ranks
/// by the cubeful equity after each play, which `query` of the position
/// after it gives; a side written `-` and a finished game; a missing file.
#[test]
fn the_cube_action_as_a_gnubg_user_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let ts = dir.path().join("ts6.bd");
    let db = ts.to_str().unwrap();
    generate(&["--two-sided", "--points", "6", "--checkers", "6"], &ts);
    let query = |pos: &str| -> serde_json::Value {
        let o = common::run(&["bearoff", "query", "--db", db, pos, "--json"]);
        assert!(o.status.success(), "{pos}: {}", err(&o));
        serde_json::from_str(&out(&o)).unwrap()
    };
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    // the decision from the stored equities: double where twice the
    // opponent-owned equity is at least the undoubled one (and +1 is);
    // pass where it exceeds +1; half a unit of gnubg's 16 bits allowed
    let decide = |no_double: f64, opponent: f64| -> (&str, f64) {
        let tol = 1.0 / 32767.5;
        if 2.0 * opponent + tol >= no_double && 1.0 >= no_double {
            if 2.0 * opponent + tol >= 1.0 {
                ("double-pass", 1.0)
            } else {
                ("double-take", 2.0 * opponent)
            }
        } else {
            ("no-double", no_double)
        }
    };
    let mut seen = std::collections::BTreeSet::new();
    for pos in [
        "2 5 / 2 3",
        "1 1 2 4 / 3 3 6",
        "6 6 / 1 1",
        "1 / 6 6 6",
        "3 4 5 / 2 4 6",
        "1 2 / 1 2",
        "5 6 / 6 6",
    ] {
        let v = query(pos);
        let c = &v["cubeful"];
        for (cube, stored) in [("centred", "centred"), ("owned", "owned")] {
            let (action, equity) = decide(f(&c[stored]), f(&c["opponent"]));
            let got = &v["cube"][cube];
            assert_eq!(got["action"], action, "{pos} {cube}: {v}");
            assert!(
                (f(&got["equity"]) - equity).abs() < 1e-4,
                "{pos} {cube}: {v}"
            );
            seen.insert(action);
        }
    }
    assert_eq!(seen.len(), 3, "every decision met: {seen:?}");
    // the two positions of the issue, as gnubg users know them
    let v = query("2 5 / 2 3");
    assert_eq!(v["cube"]["centred"]["action"], "double-take", "{v}");
    assert!(
        (f(&v["cube"]["centred"]["equity"]) - 0.321).abs() < 5e-4,
        "{v}"
    );
    let v = query("1 1 2 4 / 3 3 6");
    assert_eq!(v["cube"]["owned"]["action"], "double-pass", "{v}");
    // the text labels the stored values for what they are
    let text = out(&common::run(&["bearoff", "query", "--db", db, "2 5 / 2 3"]));
    assert!(text.contains("before the cube decision"), "{text}");
    assert!(text.contains("Double, take    +0.3210"), "{text}");

    // best: ranked by the centred-cube equity after the play, which is
    // the opponent's own cube equity there, negated
    let o = common::run(&[
        "bearoff",
        "best",
        "--db",
        db,
        "3 4 5 / 2 4 6",
        "--roll",
        "21",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert!(moves.len() >= 3, "{v}");
    let mut equities = vec![];
    for m in moves {
        let after = query(m["position"].as_str().unwrap());
        let theirs = f(&after["cube"]["centred"]["equity"]);
        assert!(
            (f(&m["centred_cube"]) + theirs).abs() < 1e-9,
            "{m}: {after}"
        );
        equities.push(f(&m["centred_cube"]));
    }
    assert!(equities.windows(2).all(|w| w[0] >= w[1]), "best first: {v}");

    // a side written "-" is a side, and a finished game says so
    let o = common::run(&["bearoff", "best", "--db", db, "- / 2 3", "--roll", "21"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("the game is over: the side on roll has borne off"),
        "{}",
        out(&o)
    );
    let o = common::run(&[
        "bearoff", "best", "--db", db, "2 5 / -", "--roll", "21", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["moves"], serde_json::json!([]), "{v}");
    assert!(v["over"].as_str().unwrap().contains("opponent"), "{v}");
    let v = query("- / 2 3");
    assert!(v["cube"].is_null() && v["over"].is_string(), "{v}");

    // a missing file: the user's to fix, named
    let missing = dir.path().join("nothere.bd");
    let o = common::run(&[
        "bearoff",
        "query",
        "--db",
        missing.to_str().unwrap(),
        "2 5 / 2 3",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("nothere.bd"), "{}", err(&o));
}

/// gnubg files are checked as far as they can be: a file larger than its
/// header allows is refused before it is read (a sparse 2 GB forgery
/// included), and a one-sided file whose distribution is zero (a valid
/// header over a zeroed body) is an error with exit 1, not "0 rolls".
#[test]
fn impossible_gnubg_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("os.bd");
    generate(&["--one-sided", "--points", "6"], &good);
    let bytes = std::fs::read(&good).unwrap();
    // a zeroed body under a valid header
    let zero = dir.path().join("zero.bd");
    let mut z = bytes[..40].to_vec();
    z.resize(bytes.len(), 0);
    std::fs::write(&zero, &z).unwrap();
    let o = common::run(&["bearoff", "query", "--db", zero.to_str().unwrap(), "1 6"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        err(&o).contains("zero.bd") && err(&o).contains("not 1"),
        "{}",
        err(&o)
    );
    // a forged size: refused before it is read
    let forged = dir.path().join("forged.bd");
    let f = std::fs::File::create(&forged).unwrap();
    use std::io::Write;
    (&f).write_all(&bytes[..40]).unwrap();
    f.set_len(2 << 30).unwrap();
    let o = common::run(&["bearoff", "query", "--db", forged.to_str().unwrap(), "1 6"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(err(&o).contains("more than a 6-point file"), "{}", err(&o));
    // the good file answers
    let o = common::run(&["bearoff", "query", "--db", good.to_str().unwrap(), "1 6"]);
    assert!(o.status.success(), "{}", err(&o));
    // two-sided, cubeful: a zeroed body, and one entry changed by one unit,
    // are errors naming the file; the good file answers
    let ts = dir.path().join("ts.bd");
    generate(&["--two-sided", "--points", "6", "--checkers", "3"], &ts);
    let bytes = std::fs::read(&ts).unwrap();
    let ask = |file: &std::path::Path| {
        common::run(&[
            "bearoff",
            "query",
            "--db",
            file.to_str().unwrap(),
            "2 5 / 2 3",
        ])
    };
    let o = ask(&ts);
    assert!(o.status.success(), "{}", err(&o));
    let mut z = bytes[..40].to_vec();
    z.resize(bytes.len(), 0);
    std::fs::write(&zero, &z).unwrap();
    let o = ask(&zero);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(
        err(&o).contains("zero.bd") && err(&o).contains("damaged"),
        "{}",
        err(&o)
    );
    // every entry of the query's pair, one at a time, one unit off
    use millbase::bearoff::position::{Side, positions};
    let us = Side::parse("2 5", 6).unwrap().index(6);
    let them = Side::parse("2 3", 6).unwrap().index(6);
    let n = positions(6, 3) as usize;
    let at = 40 + (us as usize * n + them as usize) * 8;
    for k in 0..4 {
        let mut b = bytes.clone();
        b[at + 2 * k] ^= 1;
        std::fs::write(&zero, &b).unwrap();
        let o = ask(&zero);
        assert_eq!(o.status.code(), Some(1), "entry {k}: {}", out(&o));
        assert!(err(&o).contains("damaged"), "{}", err(&o));
    }
}
