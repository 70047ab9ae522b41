#!/bin/sh
# Three-way splits (hexadecimal digits 8 to F): the engine's three-way kernel (pair-set words,
# 64 candidates a part, early stop per word) against the plain search of every triple
# (`naive`, the textbook loop, O(n^3)), on a few hexadecimal codes; then the hexadecimal census
# of the README.
#
#   sh bench/three-way.sh [LEN [VALUE_HEAP [CENSUS_TO]]]
#
# LEN heaps each for the engine-against-plain-search rows (default 3000); then
# `grundy value hex:0.8F VALUE_HEAP` alone, timed (default 20000; issue 44 asks for 100000 well
# under a minute), and the census of every 1-2 digit hexadecimal code to heap CENSUS_TO (default
# 2000, the README's example; issue 44 asks for 100000 under 10 minutes).
#
# Each game line is printed by `crates/grundy/examples/nim_sequence.rs` (seconds, cpu_seconds,
# largest value, checksum of the whole sequence: equal checksums, equal sequences). The last
# lines compare the two; bench/three-way-sparse.py looks for a sparse space of each code
# (bench/RESULTS.md: none of these codes has one).
set -eu
cd "$(dirname "$0")/.."
len=${1:-3000}
value_heap=${2:-20000}
census_to=${3:-2000}
cargo build --release -p grundy --example nim_sequence >/dev/null 2>&1
cargo build --release -p grundy-cli >/dev/null 2>&1
bin=target/release/examples/nim_sequence
grep -m1 'model name' /proc/cpuinfo
date -u
for code in 0.8F 0.9 0.C 0.E 0.48; do
    fast=$($bin "hex:$code" "$len" auto)
    slow=$($bin "hex:$code" "$len" naive)
    echo "$fast"
    echo "$slow"
    sum() { echo "$1" | sed 's/.*checksum=\([0-9a-f]*\).*/\1/'; }
    secs() { echo "$1" | sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p'; }
    [ "$(sum "$fast")" = "$(sum "$slow")" ] || { echo "VALUES DIFFER for $code"; exit 1; }
    awk -v a="$(secs "$fast")" -v b="$(secs "$slow")" -v c="$code" -v n="$len" \
        'BEGIN { printf "hex:%s to %d: engine %.3f s, plain search %.3f s, %.1fx, same values\n", c, n, a, b, b / a }'
done
echo "value: grundy value hex:0.8F $value_heap"
/usr/bin/time -f "value: %e s wall, %U s user, %S s sys, %M KB" target/release/grundy value hex:0.8F "$value_heap"
db=$(mktemp -u /tmp/grundy-three-way-census-XXXXXX.sqlite)
echo "census: grundy census hex --digits 1..2 --to $census_to --db $db"
/usr/bin/time -f "census: %e s wall, %U s user, %S s sys, %M KB" target/release/grundy census hex --digits 1..2 --to "$census_to" --db "$db" >/dev/null
rm -f "$db" "$db-wal" "$db-shm"
