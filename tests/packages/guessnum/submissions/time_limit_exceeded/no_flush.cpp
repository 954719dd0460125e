#include <cstdio>
#include <string>
// Never flushes: its guess sits in its buffer while both sides wait.
int main() {
    int lo = 1, hi = 1000;
    char reply[32];
    while (true) {
        int mid = (lo + hi) / 2;
        std::printf("%d\n", mid);
        if (std::scanf("%31s", reply) != 1 || std::string(reply) == "correct") return 0;
        if (std::string(reply) == "lower") hi = mid - 1; else lo = mid + 1;
    }
}
