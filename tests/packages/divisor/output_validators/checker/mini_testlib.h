// A few lines in the style of testlib's checker API (not testlib itself): argv is
// `checker input output answer`; quitf exits 0 (ok), 1 (wrong answer), 2 (presentation
// error) or 3 (fail: the jury is wrong).
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

enum Result { _ok = 0, _wa = 1, _pe = 2, _fail = 3 };
static FILE *inf, *ouf, *ans;

static void registerTestlibCmd(int argc, char** argv) {
    if (argc < 4) { std::fprintf(stderr, "usage: checker input output answer\n"); std::exit(_fail); }
    inf = std::fopen(argv[1], "r");
    ouf = std::fopen(argv[2], "r");
    ans = std::fopen(argv[3], "r");
    if (!inf || !ouf || !ans) { std::fprintf(stderr, "cannot open the files\n"); std::exit(_fail); }
}

[[noreturn]] static void quitf(Result r, const char* fmt, ...) {
    std::va_list args;
    va_start(args, fmt);
    std::vfprintf(stderr, fmt, args);
    va_end(args);
    std::fprintf(stderr, "\n");
    std::exit(r);
}
