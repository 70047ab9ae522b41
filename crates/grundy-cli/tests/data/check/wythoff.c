/* POJ 1067 (Wythoff): pairs `a b` to the end of input; 1 when the first player wins. */
#include <math.h>
#include <stdio.h>
/* floor(k * phi) exactly: floor((k + floor(sqrt(5 k^2))) / 2). */
static unsigned long long lower_of(unsigned long long k) {
    unsigned long long t = 5 * k * k, r = (unsigned long long)sqrtl((long double)t);
    while (r * r > t) r--;
    while ((r + 1) * (r + 1) <= t) r++;
    return (k + r) / 2;
}
int main(void) {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        long long k = b - a;
#if MUTANT == 1
        long long p = (long long)(k * 1.618); /* 1.618 for the golden ratio */
#elif MUTANT == 2
        long long p = (long long)(k * ((1.0f + sqrtf(5.0f)) / 2.0f)); /* float for double */
#else
        long long p = (long long)lower_of((unsigned long long)k);
#endif
        puts(p == a ? "0" : "1");
    }
    return 0;
}
