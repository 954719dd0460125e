// Interactive validator: validate input answer feedback_dir < submission's output > its input.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

static std::string feedback;

[[noreturn]] static void verdict(int code, const std::string& message) {
    FILE* f = std::fopen((feedback + "judgemessage.txt").c_str(), "a");
    if (f) { std::fprintf(f, "%s\n", message.c_str()); std::fclose(f); }
    std::exit(code);
}

int main(int argc, char** argv) {
    if (argc < 4) return 1;
    feedback = argv[3];
    FILE* in = std::fopen(argv[1], "r");
    int secret;
    if (!in || std::fscanf(in, "%d", &secret) != 1) return 1;
    for (int guesses = 1; guesses <= 10; guesses++) {
        long long g;
        if (!(std::cin >> g)) verdict(43, "guess " + std::to_string(guesses) + ": no number");
        if (g == secret) {
            std::cout << "correct" << std::endl;
            std::string extra;
            if (std::cin >> extra) verdict(43, "output after the correct guess: " + extra);
            verdict(42, "found in " + std::to_string(guesses) + " guesses");
        }
        std::cout << (g > secret ? "lower" : "higher") << std::endl;
    }
    verdict(43, "not found in 10 guesses");
}
