/* HDU 1907 John (misère Nim): T tests of n heaps; John when the first player wins. */
#include <stdio.h>
int main(void) {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n, r = 0, big = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            r ^= a;
            if (a > 1) big = 1;
        }
#if MUTANT == 1
        puts(r ? "John" : "Brother"); /* normal play: misses the all-ones case */
#else
        if (big) puts(r ? "John" : "Brother");
        else puts(n % 2 == 0 ? "John" : "Brother");
#endif
    }
    return 0;
}
