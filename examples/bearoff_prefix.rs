//! Checks a millbase two-sided bear-off file against gnubg's cubeless
//! equities for up to C chequers a side: the first C(6 + C, 6)² pairs of the
//! file must equal gnubg's two-sided file of C chequers, value for value.
//!
//! `cargo run --release --example bearoff_prefix -- FILE C`

use millbase::bearoff::full::FullFile;
use millbase::bearoff::position::positions;
use millbase::bearoff::two_sided;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(c)) = (
        args.get(1),
        args.get(2).and_then(|c| c.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: bearoff_prefix FILE C");
        std::process::exit(2);
    };
    let file = FullFile::open(std::path::Path::new(path)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    let start = std::time::Instant::now();
    let gnubg = two_sided::generate(6, c, false, &mut |_, _| {});
    let m = positions(6, c) as usize;
    let mut differ = 0u64;
    for us in 0..m {
        let row = file.row(us as u32, 0, m).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1);
        });
        differ += (0..m).filter(|&t| row[t] != gnubg[us * m + t][0]).count() as u64;
    }
    println!(
        "{} pairs of up to {c} chequers compared, {differ} differ, {:.1} s",
        m * m,
        start.elapsed().as_secs_f64()
    );
    if differ > 0 {
        std::process::exit(1);
    }
}
