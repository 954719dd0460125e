long long plus(long long a, long long b);
