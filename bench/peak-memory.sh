#!/usr/bin/env bash
# Peak resident memory of a long `grundy sequence` run (issue 16), three kinds of run:
#   plain        grundy sequence GAME --to N-1
#   checkpointed the same with --checkpoint FILE (a fresh file: saves every 60 s and at the end)
#   resumed      a checkpointed run stopped with SIGINT after STOP seconds, then the same command
#                again: the second run (reading the checkpoint back, computing on, saving) is
#                the one measured
# Each line: the kind, the peak resident set (`/usr/bin/time`'s Maximum resident set size), the
# bytes a heap that makes, the wall time, and the md5 of stdout (the same in all three kinds and
# before and after a change).
#
# Usage: bench/peak-memory.sh BINARY LOG2_N [STOP_SECONDS] [GAME]
#   e.g. RAYON_NUM_THREADS=1 bench/peak-memory.sh target/release/grundy 24 30
# One core (RAYON_NUM_THREADS=1) so that a shared machine keeps the other; one run at a time.
set -euo pipefail
binary=$1
log2=$2
stop=${3:-30}
game=${4:-grundys-game}
n=$((1 << log2))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RAYON_NUM_THREADS=${RAYON_NUM_THREADS:-1}

measure() { # kind, then the command's arguments
    local kind=$1
    shift
    /usr/bin/time -f '%M %e' -o "$work/time" "$binary" "$@" > "$work/out" 2> "$work/err" || true
    local kb seconds digest
    read -r kb seconds < <(tail -n 1 "$work/time")
    digest=$(md5sum < "$work/out" | cut -c1-12)
    awk -v kind="$kind" -v kb="$kb" -v s="$seconds" -v n="$n" -v d="$digest" 'BEGIN {
        printf "%-13s %9.1f MB %6.2f bytes/heap %8.1f s  stdout %s\n", kind, kb / 1024, kb * 1024 / n, s, d }'
}

echo "# $game, N = 2^$log2 = $n heaps, $("$binary" --version 2>/dev/null || echo "$binary")"
measure plain sequence "$game" --to $((n - 1))
measure checkpointed sequence "$game" --to $((n - 1)) --checkpoint "$work/fresh.ck"
timeout -s INT "$stop" "$binary" sequence "$game" --to $((n - 1)) --checkpoint "$work/resume.ck" \
    > /dev/null 2> "$work/stop-err" || true
echo "# stopped after ${stop} s: $(tail -n 1 "$work/stop-err")"
measure resumed sequence "$game" --to $((n - 1)) --checkpoint "$work/resume.ck"
cmp -s "$work/fresh.ck" "$work/resume.ck" && echo "# the two checkpoints are equal byte for byte" ||
    echo "# THE TWO CHECKPOINTS DIFFER"
