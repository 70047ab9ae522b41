#!/usr/bin/env bash
# Contest workflows at their real sizes (issue 55), each against what it is compared with in
# the same run:
# 1. 对拍 of AcWing 894 (split-Nim, heaps <= 100) with the game written as a 2-line script
#    against the built-in `split-nim`, the same format, solution, seed and number of tests;
# 2. `check kayles --formula 'n > 0' --to N`: heaps a second;
# 3. Luogu P1247 (取火柴游戏) at its limit, 5*10^5 heaps up to 10^9, answered by grundy and by
#    the obvious Python solution, whose answers must agree.
# Usage: bash bench/contest.sh [TESTS] [HEAPS]   (defaults 300 tests, 10^7 heaps)
# Uses both cores only through the solution runs (grundy itself is one thread here).
set -euo pipefail
cd "$(dirname "$0")/.."
tests=${1:-300}
heaps=${2:-10000000}
mkdir -p bench/logs
exec > >(tee bench/logs/contest.txt) 2>&1
echo "# bash bench/contest.sh $tests $heaps, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg)"
cargo build --release -q -p grundy-cli
grundy=$PWD/target/release/grundy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'def moves(a):\n    return [Sum(b, c) for b in range(a) for c in range(b + 1)]\n' > split.star
printf 'line n:1..100\nline a[n]:1..100\nposition {a}\nanswer Yes No\n' > split.fmt
cat > split.py <<'PY'
import sys
d = list(map(int, sys.stdin.read().split()))
sg = [0] * 101
for x in range(1, 101):
    seen = {sg[b] ^ sg[c] for b in range(x) for c in range(b + 1)}
    sg[x] = next(m for m in range(len(seen) + 1) if m not in seen)
v = 0
for x in d[1:1 + d[0]]:
    v ^= sg[x]
print("Yes" if v else "No")
PY
seconds() { local start end; start=$(date +%s.%N); "$@" > /dev/null; end=$(date +%s.%N); echo "$end - $start" | bc; }
script=$(seconds "$grundy" check script:split.star --input-format split.fmt --program 'python3 split.py' --samples "$tests" --seed 1)
builtin=$(seconds "$grundy" check split-nim --input-format split.fmt --program 'python3 split.py' --samples "$tests" --seed 1)
echo "对拍 AcWing 894, $tests tests: script game $script s, built-in split-nim $builtin s, ratio $(echo "scale=2; $script / $builtin" | bc)"
formula=$(seconds "$grundy" check kayles --formula 'n > 0' --to "$heaps")
echo "check kayles --formula 'n > 0' --to $heaps: $formula s, $(echo "$heaps / $formula" | bc) heaps a second"
python3 -c "
import random
random.seed(1)
print(500000)
print(' '.join(str(random.randint(1, 10**9)) for _ in range(500000)))" > p1247.in
cat > p1247.py <<'PY'
import sys
d = sys.stdin.read().split()
h = list(map(int, d[1:1 + int(d[0])]))
x = 0
for v in h:
    x ^= v
if x == 0:
    print("lose")
else:
    for i, v in enumerate(h):
        if v ^ x < v:
            print(v - (v ^ x), i + 1)
            h[i] = v ^ x
            print(*h)
            break
PY
own=$(seconds "$grundy" outcome --input-format luogu-p1247 < p1247.in)
python=$(seconds python3 p1247.py < p1247.in)
"$grundy" outcome --input-format luogu-p1247 < p1247.in > grundy.out
python3 p1247.py < p1247.in > python.out
cmp -s grundy.out python.out && agree=agree || agree=DISAGREE
echo "Luogu P1247, 5*10^5 heaps: grundy $own s, Python solution $python s, ratio $(echo "scale=2; $own / $python" | bc); answers $agree"
[ "$agree" = agree ]
