use judge::problems::magic_square::{flawed, solver};
use rand::seq::SliceRandom;
use rand::SeedableRng;
fn main() {
    let rng = &mut rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let shapes: Vec<Vec<i64>> = vec![
        [vec![9; 12], vec![5, 5, 13, 13]].concat(),
        [vec![9; 10], vec![5, 5, 5, 13, 13, 13]].concat(),
        [vec![9; 8], vec![5, 5, 5, 5, 13, 13, 13, 13]].concat(),
        [vec![9; 12], vec![5, 13, 7, 11]].concat(),
        [vec![9; 12], vec![1, 17, 5, 13]].concat(),
        [vec![9; 11], vec![5, 13, 7, 11, 9]].concat(),
        [vec![0; 12], vec![-1, 1, -1, 1]].concat(),
        [vec![0; 10], vec![-1, 1, -1, 1, -2, 2]].concat(),
        [vec![0; 8], vec![-1, 1, -1, 1, -2, 2, -2, 2]].concat(),
    ];
    for v0 in shapes {
        if solver::solve(&v0).is_none() {
            println!("{v0:?}: unsolvable");
            continue;
        }
        let mut best = (0, v0.clone());
        for _ in 0..60 {
            let mut v = v0.clone();
            v.shuffle(rng);
            let n = flawed::unmerged_nodes(&v, 300_000_000);
            if n > best.0 {
                best = (n, v);
            }
        }
        println!("{:>10} {:?}", best.0, best.1);
    }
}
