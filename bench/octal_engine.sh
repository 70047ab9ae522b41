#!/bin/sh
# Octal games and Grundy's game: the nim-sequence engine (kernel chosen as it goes) against the
# textbook O(n^2) algorithm (`naive`) and the engine's plain kernel, in the same run.
#
#   sh bench/octal_engine.sh          # the figures of bench/RESULTS.md (a few minutes)
#   sh bench/octal_engine.sh --quick  # smaller sizes
#
# Each line is printed by `crates/grundy/examples/nim_sequence.rs`: seconds (wall clock) and
# cpu_seconds (user + system time of all threads), the largest value and where it first occurs,
# a checksum of the whole sequence (equal checksums: equal sequences), the method that ran.
# The ratio lines compare wall-clock times of runs to the same length.
set -eu
cd "$(dirname "$0")/.."
cargo build --release -p grundy --example nim_sequence >/dev/null 2>&1
bin=target/release/examples/nim_sequence

seconds() { sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p'; }
cpu() { sed -n 's/.* cpu_seconds=\([0-9.]*\) .*/\1/p'; }

compare() { # GAME LEN BASELINE: the engine against BASELINE (naive or plain) to LEN
    fast=$($bin "$1" "$2" auto)
    slow=$($bin "$1" "$2" "$3")
    echo "$fast"
    echo "$slow"
    a=$(echo "$fast" | seconds)
    b=$(echo "$slow" | seconds)
    ca=$(echo "$fast" | cpu)
    cb=$(echo "$slow" | cpu)
    same=$( [ "$(echo "$fast" | sed 's/.*checksum=\([0-9a-f]*\).*/\1/')" = "$(echo "$slow" | sed 's/.*checksum=\([0-9a-f]*\).*/\1/')" ] && echo "same values" || echo "VALUES DIFFER")
    awk -v a="$a" -v b="$b" -v ca="$ca" -v cb="$cb" -v g="$1" -v n="$2" -v base="$3" -v same="$same" \
        'BEGIN { printf "ratio %s to %s: %s %.3f s / engine %.3f s = %.1fx wall (cpu %.2f s / %.2f s) (%s)\n\n", g, n, base, b, a, (a > 0 ? b / a : 0), cb, ca, same }'
}

if [ "${1:-}" = "--quick" ]; then
    compare octal:0.16 50000 naive
    compare grundys-game 16384 naive
    exit 0
fi

echo "== 0.16: period proved needs about 5*10^5 values"
compare octal:0.16 100000 naive
compare octal:0.16 500000 plain
echo "== .354: preperiod 10 061 916, period 1180: about 2*10^7 values"
compare octal:0.354 100000 naive
compare octal:0.354 1000000 plain
$bin octal:0.354 20000000 auto
echo
echo "== 0.6 to 10^6"
compare octal:0.6 100000 naive
compare octal:0.6 1000000 plain
echo "== Grundy's game (rare under mask ...11110 counted)"
compare grundys-game 65536 naive
compare grundys-game 1048576 plain
$bin grundys-game 4194304 auto -2
