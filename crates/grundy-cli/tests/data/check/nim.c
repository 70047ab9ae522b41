/* AcWing 891 Nim: n, then n heaps; Yes when the first player wins. MUTANT picks the bug. */
#include <stdio.h>
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long r = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        scanf("%lld", &a);
#if MUTANT == 1
        r += a; /* the sum for the nim-sum */
#else
        r ^= a;
#endif
    }
    puts(r ? "Yes" : "No");
    return 0;
}
