#include "mini_testlib.h"

int main(int argc, char** argv) {
    registerTestlibCmd(argc, argv);
    long long n, jury, d;
    if (std::fscanf(inf, "%lld", &n) != 1 || std::fscanf(ans, "%lld", &jury) != 1)
        quitf(_fail, "cannot read the input or the answer");
    if (std::fscanf(ouf, "%lld", &d) != 1) quitf(_pe, "expected an integer");
    char extra[2];
    if (std::fscanf(ouf, "%1s", extra) == 1) quitf(_pe, "extra output after the number");
    if (d == -1) {
        if (jury != -1) quitf(_wa, "%lld is not prime: it has the divisor %lld", n, jury);
        quitf(_ok, "prime");
    }
    if (d <= 1 || d >= n || n % d != 0) quitf(_wa, "%lld is not a proper divisor of %lld", d, n);
    if (jury == -1) quitf(_fail, "the jury says %lld is prime, but %lld divides it", n, d);
    quitf(_ok, "%lld divides %lld", d, n);
}
