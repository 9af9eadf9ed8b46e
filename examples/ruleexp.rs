use millbase::Rules;
use millbase::index::Subspace;
use millbase::storage::Table;
use millbase::value::Value;
use std::path::Path;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let dir = Path::new(&a[1]);
    let nums: Vec<u8> = a[2].split('-').map(|x| x.parse().unwrap()).collect();
    let sub = Subspace {
        mover: nums[0],
        opponent: nums[1],
        mover_hand: nums[2],
        opponent_hand: nums[3],
    };
    let name = format!("{}.mdb", a[2]);
    let rules = Rules { flying: true };
    let game = Table::open(&dir.join(&name), rules, sub).unwrap();
    let rule = Table::open(&dir.join("no-removal-100").join(&name), rules, sub).unwrap();
    let g: Vec<_> = game.map_outcomes(|c| c.to_vec()).unwrap().concat();
    let r = rule.read_rule(&g).unwrap();
    let levels: Vec<i32> = a[3].split(',').map(|x| x.parse().unwrap()).collect();
    let mut sizes = vec![0usize; levels.len()];
    let mut times = vec![0f64; levels.len()];
    let (mut blocks_all, mut n) = (0usize, 0usize);
    for (gb, rb) in g
        .chunks(4096 * a[4].parse::<usize>().unwrap())
        .zip(r.chunks(4096 * a[4].parse::<usize>().unwrap()))
    {
        let mut bytes = vec![];
        let mut half = vec![];
        for (gc, rc) in gb.iter().zip(rb) {
            match gc.value() {
                _ if gc.wdl_code() >= 2 => {
                    let b = match rc.value() {
                        Some(Value::Win(d)) | Some(Value::Loss(d)) => d as u8,
                        _ => 255,
                    };
                    bytes.push(b);
                    half.push(if b == 255 { 255 } else { b / 2 });
                }
                _ => {}
            }
        }
        n += bytes.len();
        if bytes.is_empty() {
            continue;
        }
        blocks_all += 1;
        let _ = &half;
        for (k, &l) in levels.iter().enumerate() {
            let t = std::time::Instant::now();
            sizes[k] += zstd::bulk::compress(&bytes, l).unwrap().len();
            times[k] += t.elapsed().as_secs_f64();
        }
    }
    println!(
        "{} classes {} game file {} rule file {} decided {} blocks {}",
        a[2],
        game.header.counts.classes,
        game.file_len(),
        rule.file_len(),
        n,
        blocks_all
    );
    for (k, &l) in levels.iter().enumerate() {
        println!(
            "  level {l}: {} ({:.3} B/class) {:.1} s",
            sizes[k],
            sizes[k] as f64 / game.header.counts.classes as f64,
            times[k]
        );
    }
}
