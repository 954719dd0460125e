fn main() {
    println!("judge");
}
