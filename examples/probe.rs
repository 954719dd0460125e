use judge::problems::dodecahedron::{generator, parse_tiles, solver};
use judge::problems::GenParams;
fn main() {
    let dir = std::path::Path::new("/tmp/cls/fam-sm-few");
    std::fs::create_dir_all(dir).unwrap();
    let mut n = 0;
    for seed in 0..3000 {
        let input = generator::generate("same-marks", &GenParams::default(), seed).unwrap();
        let t = parse_tiles(&input).unwrap();
        if solver::count_tilings(&t, 2) <= 2 {
            std::fs::write(dir.join(format!("{seed}.in")), &input).unwrap();
            n += 1;
            if n == 30 {
                break;
            }
        }
    }
    println!("{n}");
}
