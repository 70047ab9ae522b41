#!/usr/bin/env bash
# The canon's families at their problems' real limits (issue 56): each input is generated here
# (Python's `random`, fixed seeds), answered by grundy, and timed (wall and user seconds, peak
# memory) with /usr/bin/time. The goal is every row within a second.
# Usage: bash bench/canon.sh [GRUNDY]   (default: the dev build, target/debug/grundy, which
#        is optimized; pass target/release/grundy to time a release build)
# One process at a time: grundy is one thread here.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
    grundy=$(realpath "$1")
else
    cargo build -q -p grundy-cli
    grundy=$(realpath "${CARGO_TARGET_DIR:-target}/debug/grundy")
fi
mkdir -p bench/logs
exec > >(tee bench/logs/canon.txt) 2>&1
echo "# bash bench/canon.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), $grundy, load average $(cut -d' ' -f1-3 /proc/loadavg)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# gen NAME PYTHON: writes NAME from the Python program's standard output.
gen() { python3 -c "$2" > "$1"; }

gen acwing-892.in "
import random; random.seed(1); n = 10**5
print(n); print(' '.join(str(random.randint(1, 10**9)) for _ in range(n)))"
gen poj-1704.in "
import random; random.seed(2); t = 20
print(t)
for _ in range(t):
    p = random.sample(range(1, 10001), 1000); print(1000); print(' '.join(map(str, p)))"
gen luogu-p3480.in "
import random; random.seed(3); u = 10
print(u)
for _ in range(u):
    # n = 1000 piles, 10000 pebbles in all (the translation's bound; the original says 1000).
    cuts = sorted(random.randint(0, 10000) for _ in range(999))
    piles = sorted([b - a for a, b in zip([0] + cuts, cuts + [10000])])
    print(1000); print(' '.join(map(str, piles)))"
gen hdu-3032.in "
import random; random.seed(4)
print(1); n = 10**6
print(n); print(' '.join(str(random.randint(1, 2**31 - 1)) for _ in range(n)))"
gen hdu-3032-many.in "
import random; random.seed(5)
print(100)
for _ in range(100):
    n = 10**4; print(n); print(' '.join(str(random.randint(1, 2**31 - 1)) for _ in range(n)))"
gen hdu-2516.in "
import random; random.seed(6)
for _ in range(10**5): print(random.randint(2, 2**31 - 1))
print(0)"
gen hdu-2486.in "
import random; random.seed(7)
print(20)
for i in range(20): print(random.randint(10**7, 10**8) if i else 10**8, random.randint(1, 10**5) if i else 10**5)"
gen hdu-1525.in "
import random; random.seed(8)
for _ in range(10**5): print(random.randint(1, 2**31 - 1), random.randint(1, 2**31 - 1))
print(0, 0)"
gen luogu-p1290.in "
print(6)
for m, n in [(2**31 - 1, 2**31 - 2), (1836311903, 1134903170), (10**6, 999999), (2**31 - 1, 1), (1, 1), (123456789, 987654321)]: print(m, n)"
gen luogu-p2148.in "
import random; random.seed(9)
print(20)
for _ in range(20):
    n = 20000; print(n); print(' '.join(str(random.randint(1, 2 * 10**9)) for _ in range(n)))"
gen hdu-2147.in "
import random; random.seed(10)
for _ in range(10**5): print(random.randint(1, 2000), random.randint(1, 2000))
print(0, 0)"
gen hdu-3094.in "
import random; random.seed(11)
print(2); n = 10**5
print(n)
for v in range(2, n + 1): print(random.randint(1, v - 1), v)
print(n)
for v in range(2, n + 1): print(v - 1, v)"
gen poj-3710.in "
import random; random.seed(12)
# 99 trees, each 99 vertices: a path with triangles and squares hung off it, about 140 edges.
print(99)
for _ in range(99):
    edges = []; v = 1
    while v < 99:
        if v + 3 <= 99 and random.random() < 0.4:
            a, b = v + 1, v + 2; edges += [(v, a), (a, b), (b, v)]; v = b
        else:
            edges.append((v, v + 1)); v += 1
    print(99, len(edges))
    for a, b in edges: print(a, b)"
gen hdu-3595.in "
import random; random.seed(13)
for _ in range(100):
    print(1000)
    for _ in range(1000): print(random.randint(1, 1000), random.randint(1, 1000))"
gen hackenbush-random.txt "
import random; random.seed(3); n = 500000
for v in range(1, n + 1): print(random.randint(0, v - 1), v)
for _ in range(n): print(random.randint(0, n), random.randint(0, n))"
gen hackenbush-path.txt "
for v in range(1, 10**6 + 1): print(v - 1, v)"
moore=$(python3 -c "
import random; random.seed(14); print(','.join(str(random.randint(1, 10**18)) for _ in range(1000)))")
moore_small=$(python3 -c "
import random; random.seed(15); print(','.join(str(random.randint(1, 6)) for _ in range(4)))")

printf '| what | command | wall | user | peak memory | answer |\n| --- | --- | --- | --- | --- | --- |\n'
# row WHAT INPUT COMMAND...: times COMMAND (stdin from INPUT, or nothing for -), one table row.
row() {
    local what=$1 input=$2; shift 2
    local stdin=/dev/null
    [ "$input" = - ] || stdin=$input
    /usr/bin/time -f '%e %U %M' -o time.txt "$grundy" "$@" < "$stdin" > out.txt 2> err.txt || true
    read -r wall user kb < <(tail -1 time.txt)
    local answer
    answer=$(head -c 60 out.txt | head -1)
    [ -s err.txt ] && [ ! -s out.txt ] && answer="error: $(head -c 80 err.txt)"
    local shown="grundy $*"
    [ "$input" = - ] || shown="$shown < $input"
    printf '| %s | `%s` | %s s | %s s | %s MB | %s (%s lines) |\n' "$what" "${shown:0:110}" "$wall" "$user" \
        "$((kb / 1024))" "$answer" "$(wc -l < out.txt)"
}
row "AcWing 892, staircase, n = 10^5 steps up to 10^9" acwing-892.in outcome --input-format acwing-892
row "POJ 1704, staircase on gaps, T = 20, N = 1000" poj-1704.in outcome --input-format poj-1704
row "Luogu P3480, staircase on differences, u = 10, n = 1000" luogu-p3480.in outcome --input-format luogu-p3480
row "HDU 3032, Lasker's Nim, one test of N = 10^6 heaps < 2^31" hdu-3032.in outcome --input-format hdu-3032
row "HDU 3032, T = 100 tests of N = 10^4" hdu-3032-many.in outcome --input-format hdu-3032
row "HDU 2516, Fibonacci Nim, 10^5 heaps < 2^31" hdu-2516.in outcome --input-format hdu-2516
row "HDU 2486, dynamic:K, T = 20, n <= 10^8, k <= 10^5" hdu-2486.in outcome --input-format hdu-2486
row "HDU 1525, Euclid, 10^5 pairs < 2^31" hdu-1525.in outcome --input-format hdu-1525
row "Luogu P1290, Euclid, C = 6 (the statement's bound)" luogu-p1290.in outcome --input-format luogu-p1290
row "Luogu P2148, E&D, T = 20, N = 2*10^4, S <= 2*10^9" luogu-p2148.in outcome --input-format luogu-p2148
row "HDU 2147, king, 10^5 boards up to 2000 x 2000" hdu-2147.in outcome --input-format hdu-2147
row "HDU 3094, Hackenbush trees, a random tree and a path of N = 10^5" hdu-3094.in outcome --input-format hdu-3094
row "POJ 3710, Hackenbush with polygons, 99 trees of 99 vertices" poj-3710.in outcome --input-format poj-3710
row "HDU 3595, Every-SG of Euclid pairs, 100 tests of N = 1000 pairs <= 1000" hdu-3595.in outcome --input-format hdu-3595
row "Green Hackenbush, 10^6 random edges (circuits, loops), value" - value hackenbush:hackenbush-random.txt all
row "Green Hackenbush, 10^6 random edges, winning moves" - moves hackenbush:hackenbush-random.txt all
row "Green Hackenbush, a path of 10^6 edges, value" - value hackenbush:hackenbush-path.txt all
row "Green Hackenbush, a path of 10^6 edges, winning moves" - moves hackenbush:hackenbush-path.txt all
row "Moore's Nim_3, 1000 heaps up to 10^18, winning moves" - moves moore:3 "$moore"
row "Moore's Nim_2, value by the definition, 4 heaps up to 6" - value moore:2 "$moore_small"
row "Lasker's Nim as octal:4.[3], heap 10^18, value" - value 'octal:4.[3]' 1000000000000000000
row "Lasker's Nim, 'guess' (arithmetic periodicity, proved)" - guess lasker
row "Fibonacci Nim, fresh heap 10^18, winning moves" - moves fibonacci-nim 1000000000000000000
row "dynamic:100, fresh heap 10^18, winning moves" - moves dynamic:100 1000000000000000000
row "dynamic:3, value by the definition, heap 2000" - value dynamic:3 2000
row "Euclid, (10^18 + 9, 10^18 - 1), winning moves" - moves euclid 1000000000000000009,999999999999999999
row "Euclid, Grundy value of (F(88), F(87)) (Nivasch)" - value euclid 1100087778366101931,679891637638612258
row "E&D, a pair near 2^64, winning moves" - moves e-and-d 18446744073709551615,18446744073709551614
row "king, 10^18 x 10^18 board, value" - value king 1000000000000000000,999999999999999999
row "Chomp, 10x10 rectangle (strategy stealing, then search)" - moves chomp 10x10
row "Chomp, value of 5,4,4,3,2,2,1 (search)" - value chomp 5,4,4,3,2,2,1
row "Every-SG, 1000 Euclid pairs up to 10^18" - outcome --compound every euclid $(python3 -c "
import random; random.seed(16); print(' '.join(f'{random.randint(1, 10**18)},{random.randint(1, 10**18)}' for _ in range(1000)))")
row "Every-SG, winning moves of 3 Euclid pairs" - moves --compound every euclid 1000,999 123,45 77,76
row "conjunctive compound, 3 Euclid pairs up to 1000" - outcome --compound conjunctive euclid 1000,999 123,45 77,76
row "selective compound, Nim heaps 3 4 5 and Lasker 10^6" - outcome --compound selective nim 3 4 5 + lasker 1000000
