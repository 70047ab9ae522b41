// set-nim.cpp: the seed's set-Nim solution (AcWing 893, memoized SG values), reading
// `grundy check --program` input: T, then T lines "k h1 ... hk"; the subtraction set S comes
// on the command line. Prints Yes when the player to move wins.
//
//   g++ -O2 -o set-nim examples/check/set-nim.cpp
//   grundy check sub:2,5,7 --program './set-nim 2 5 7' --components 1..4 --max 100 --samples 10000
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

static std::vector<int> takes;
static std::vector<int> memo;

int sg(int x) {
    if (memo[x] != -1) return memo[x];
    std::set<int> seen;
    for (int s : takes)
        if (s <= x) seen.insert(sg(x - s));
    int value = 0;
    while (seen.count(value)) value++;
    return memo[x] = value;
}

int main(int argc, char** argv) {
    for (int i = 1; i < argc; i++) takes.push_back(std::atoi(argv[i]));
    memo.assign(100001, -1);
    int t;
    if (std::scanf("%d", &t) != 1) return 1;
    while (t--) {
        int k;
        if (std::scanf("%d", &k) != 1) return 1;
        int sum = 0;
        for (int i = 0; i < k; i++) {
            int h;
            if (std::scanf("%d", &h) != 1) return 1;
            sum ^= sg(h);
        }
        std::puts(sum ? "Yes" : "No");
    }
    return 0;
}
