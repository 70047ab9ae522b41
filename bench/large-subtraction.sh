#!/usr/bin/env bash
# Subtraction games with large elements and P-positions a game names itself (issue 55):
# 1. Codeforces 1194D (1-2-K Game: sub:1,2,k, T = 100, n and k up to 10^9) through a format
#    file: one judge input answered, then `check` of a correct and a wrong solution;
# 2. HDU 2516 (Fibonacci Nim, n < 2^31): a solution wrong only past 10^6 must be caught.
# Usage: bash bench/large-subtraction.sh   (GRUNDY=path/to/grundy to measure another build;
# by default the release build is made and measured). Peak memory and time by /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GRUNDY:-}" ]; then
    cargo build --release -q -p grundy-cli
    GRUNDY=$PWD/target/release/grundy
fi
grundy=$GRUNDY
mkdir -p bench/logs
exec > >(tee bench/logs/large-subtraction.txt) 2>&1
echo "# bash bench/large-subtraction.sh, $grundy, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'tests 1..100\nline n:0..1e9 k:3..1e9\ngame sub:1,2,{k}\nposition {n}\nanswer Alice Bob\n' > cf1194d.fmt
python3 - <<'PY'
import random
random.seed(1)
lines = ["100"]
for _ in range(100):
    k = random.choice([10**9, 999999999, random.randint(3, 10**9), 3 * random.randint(1, 333333333)])
    n = random.choice([10**9, random.randint(0, 10**9), k, k - 1])
    lines.append(f"{n} {k}")
open("cf.in", "w").write("\n".join(lines) + "\n")
solution = '''import sys
d = sys.stdin.read().split()
for i in range(int(d[0])):
    n, k = int(d[1 + 2 * i]), int(d[2 + 2 * i])
    if k % 3:
        bob = n % 3 == 0
    else:
        r = n % (k + 1)
        bob = r != k and r % 3 == 0
    print("Bob" if bob else "Alice")
'''
open("right.py", "w").write(solution)
open("wrong.py", "w").write(solution.replace("if k % 3:", "if True:"))
fibonacci = '''import sys
fib, a, b = set(), 1, 2
while a <= LIMIT:
    fib.add(a)
    a, b = b, a + b
for line in sys.stdin:
    n = int(line)
    if n == 0:
        break
    print("Second win" if n in fib else "First win")
'''
open("fib_right.py", "w").write(fibonacci.replace("LIMIT", "2**32"))
open("fib_wrong.py", "w").write(fibonacci.replace("LIMIT", "10**6"))
PY
measure() { echo "\$ grundy ${*:2}"; /usr/bin/time -f "  %M KB peak, %e s" "$@" > out.txt 2> err.txt || true; tail -n 1 err.txt; tail -n 2 out.txt | cut -c1-200; }
python3 right.py < cf.in > cf.expected
measure "$grundy" outcome --input-format cf1194d.fmt < cf.in
"$grundy" outcome --input-format cf1194d.fmt < cf.in | cmp - cf.expected && echo "  the same answers as the Python solution"
measure "$grundy" check --input-format cf1194d.fmt --program 'python3 right.py' --seed 1
measure "$grundy" check --input-format cf1194d.fmt --program 'python3 wrong.py' --seed 1
measure "$grundy" check --input-format hdu-2516 --program 'python3 fib_right.py' --seed 1
measure "$grundy" check --input-format hdu-2516 --program 'python3 fib_wrong.py' --seed 1
measure "$grundy" value sub:1,2,999999999 1000000000000000000
measure "$grundy" value sub:2,5,1000000000 1000000000000000000
measure "$grundy" period sub:2,5,10000000 --max 100000000
