#include "plus.h"

long long plus(long long a, long long b) { return a + b; }
