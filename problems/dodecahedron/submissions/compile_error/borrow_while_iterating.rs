// WRONG: does not compile: pushes rotated copies into `tiles` while iterating over it (borrow checker)
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let v: Vec<u8> = input.split_ascii_whitespace().map(|x| x.parse().unwrap()).collect();
    let mut tiles: Vec<Vec<u8>> = v.chunks(5).map(|c| c.to_vec()).collect();
    // Add every rotation of every tile so that the search can pick rotations directly.
    for t in &tiles {
        for r in 1..5 {
            let rotated: Vec<u8> = (0..5).map(|j| t[(j + r) % 5]).collect();
            tiles.push(rotated);
        }
    }
    let mut counts = [0usize; 3];
    for t in &tiles {
        for &m in t {
            counts[m as usize] += 1;
        }
    }
    if counts.iter().any(|c| c % 2 == 1) {
        println!("-1");
        return;
    }
    println!("-1");
}
