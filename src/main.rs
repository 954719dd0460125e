fn main() {
    std::process::exit(judge::commands::run(std::env::args_os()));
}
