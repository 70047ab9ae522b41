/* AcWing 894 split-Nim: n heaps; a move replaces a heap by two smaller ones. */
#include <stdio.h>
#include <string.h>
int f[105];
int sg(int x) {
    if (f[x] != -1) return f[x];
    static int seen[105][20000];
    for (int i = 0; i < x; i++)
#if MUTANT == 2
        for (int j = 0; j < i; j++) /* two equal heaps forgotten */
#else
        for (int j = 0; j <= i; j++)
#endif
            seen[x][sg(i) ^ sg(j)] = 1;
    int m = 0;
    while (seen[x][m]) m++;
    return f[x] = m;
}
int main(void) {
    memset(f, -1, sizeof f);
    int n, r = 0;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
#if MUTANT == 1
        r += sg(a);
#else
        r ^= sg(a);
#endif
    }
    puts(r ? "Yes" : "No");
    return 0;
}
