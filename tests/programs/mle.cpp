#include <vector>
#include <cstdio>
int main() {
    std::vector<long long> v;
    for (long long i = 0; i < (1LL << 27); i++) v.push_back(i);
    std::printf("%lld\n", v.back());
}
