// problemtools' grader protocol: one `VERDICT SCORE` line per child on standard input, the
// group's `VERDICT SCORE` on standard output. `min`: the least score, and the first verdict
// that is not AC (else AC). `weighted W1 W2 ...`: the sum of Wi times the i-th child's
// score; AC when it is positive, else the first verdict that is not AC.
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 2) return 3;
    std::vector<std::string> verdicts;
    std::vector<double> scores;
    char verdict[16];
    double score;
    while (std::scanf("%15s %lf", verdict, &score) == 2) {
        verdicts.push_back(verdict);
        scores.push_back(score);
    }
    std::string first = "AC";
    for (const std::string &v : verdicts)
        if (v != "AC") { first = v; break; }
    if (std::strcmp(argv[1], "min") == 0) {
        double least = scores.empty() ? 0 : scores[0];
        for (double s : scores) least = s < least ? s : least;
        std::printf("%s %g\n", first.c_str(), least);
    } else if (std::strcmp(argv[1], "weighted") == 0) {
        if ((size_t)(argc - 2) != scores.size()) return 4;
        double sum = 0;
        for (size_t i = 0; i < scores.size(); i++) sum += std::atof(argv[i + 2]) * scores[i];
        std::printf("%s %g\n", sum > 0 ? "AC" : first.c_str(), sum);
    } else {
        return 5;
    }
    return 0;
}
