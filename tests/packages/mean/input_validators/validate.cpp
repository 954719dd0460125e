// Kattis input validator protocol: exit 42 if stdin is a valid input, 43 if not.
#include <cstdio>
#include <cstdlib>
#include <string>

static std::string in;
static size_t pos = 0;

[[noreturn]] static void reject(const char* why) {
    std::fprintf(stderr, "%s at byte %zu\n", why, pos);
    std::exit(43);
}

static long long integer(long long lo, long long hi) {
    size_t start = pos;
    bool neg = pos < in.size() && in[pos] == '-';
    if (neg) pos++;
    if (pos >= in.size() || in[pos] < '0' || in[pos] > '9') reject("expected an integer");
    if (in[pos] == '0' && pos + 1 < in.size() && in[pos + 1] >= '0' && in[pos + 1] <= '9') reject("leading zero");
    long long v = 0;
    while (pos < in.size() && in[pos] >= '0' && in[pos] <= '9') {
        v = v * 10 + (in[pos++] - '0');
        if (v > 2000000000LL) reject("number too large");
    }
    if (neg) v = -v;
    if (neg && v == 0) reject("-0");
    if (v < lo || v > hi) { pos = start; reject("number out of range"); }
    return v;
}

static void expect(char c) {
    if (pos >= in.size() || in[pos] != c) reject(c == '\n' ? "expected end of line" : "expected a space");
    pos++;
}

int main() {
    int c;
    while ((c = std::getchar()) != EOF) in.push_back((char)c);
    long long n = integer(1, 1000);
    expect('\n');
    for (long long i = 0; i < n; i++) {
        integer(-1000000000LL, 1000000000LL);
        expect(i + 1 < n ? ' ' : '\n');
    }
    if (pos != in.size()) reject("extra input after the numbers");
    return 42;
}
