/* AcWing 893 set-Nim: k, the set S, n, the heaps; Yes when the first player wins. */
#include <stdio.h>
#include <string.h>
int k, s[105], f[10005];
int sg(int x) {
    if (f[x] != -1) return f[x];
    int seen[105];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < k; i++) {
#if MUTANT == 2
        if (s[i] > x) break; /* assumes S sorted */
#endif
#if MUTANT == 3
        if (x - s[i] > 0) { /* forbids taking the whole heap */
#else
        if (x - s[i] >= 0) {
#endif
            int v = sg(x - s[i]);
            if (v < 105) seen[v] = 1;
        }
    }
    int m = 0;
    while (seen[m]) m++;
    return f[x] = m;
}
int main(void) {
    memset(f, -1, sizeof f);
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf("%d", &s[i]);
    int n, r = 0;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) {
        int x;
        scanf("%d", &x);
#if MUTANT == 1
        r += sg(x); /* the sum for the nim-sum */
#else
        r ^= sg(x);
#endif
    }
    puts(r ? "Yes" : "No");
    return 0;
}
