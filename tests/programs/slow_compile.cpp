// Takes seconds to compile (constant evaluation of a long loop) and then sleeps: the
// interruption tests stop `judge` while g++ works on it.
#include <chrono>
#include <thread>

constexpr long spin(long n) {
    long s = 0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < 100; j++) s += i ^ j;
    return s;
}
static_assert(spin(8000) != 1, "never");

int main() { std::this_thread::sleep_for(std::chrono::seconds(10)); }
