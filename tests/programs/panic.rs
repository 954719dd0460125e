fn main() {
    let v: Vec<u32> = Vec::new();
    println!("{}", v[std::env::args().count() + 2]);
}
