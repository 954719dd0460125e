// repeat N X: N copies of X.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    int n = std::atoi(argv[1]);
    int x = std::atoi(argv[2]);
    std::printf("%d\n", n);
    for (int i = 0; i < n; i++) std::printf(i ? " %d" : "%d", x);
    std::printf("\n");
}
