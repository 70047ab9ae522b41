/* HDU 1846 Brave Game (Bash): C tests of `n m`; first when the first player wins. */
#include <stdio.h>
int main(void) {
    int c;
    scanf("%d", &c);
    while (c--) {
        int n, m;
        scanf("%d %d", &n, &m);
#if MUTANT == 1
        puts(n % m ? "first" : "second"); /* n mod m for n mod (m + 1) */
#elif MUTANT == 2
        puts(m % (n + 1) ? "first" : "second"); /* the fields swapped */
#else
        puts(n % (m + 1) ? "first" : "second");
#endif
    }
    return 0;
}
