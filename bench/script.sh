#!/usr/bin/env bash
# Script games (issue 12): a rule written as a Starlark script against the same rule as a Rust
# `Game`, through the same memoized solver, in one run (workloads A and B of the issue; line B'
# is B with the solver's direct tables off, and the Rust game given the script's keys); then
# the whole CLI path (`grundy sequence script:…`, worker process included) for workload A; then
# the same `moves` written in Python for the Python package (`Game.from_moves`), when the
# package is built into .venv (`.venv/bin/maturin develop --release`; skipped otherwise).
# The output is also written to bench/logs/script-speed.txt.
# Example: bash bench/script.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/logs
exec > >(tee bench/logs/script-speed.txt) 2>&1
echo "# bash bench/script.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg)"
cargo build --release -q -p grundy --features script --example script_speed
cargo build --release -q -p grundy-cli
./target/release/examples/script_speed
script=$(mktemp --suffix=.star)
trap 'rm -f "$script"' EXIT
printf 'def moves(n):\n    return [n - s for s in [1, 3, 4, 7, 11] if s <= n]\n' > "$script"
start=$(date +%s.%N)
./target/release/grundy sequence "script:$script" --to 200000 > /dev/null
end=$(date +%s.%N)
echo "CLI  grundy sequence script:sub-1-3-4-7-11.star --to 200000: $(echo "$end - $start" | bc) s (worker included)"
if .venv/bin/python -c 'import grundy' 2> /dev/null; then
  .venv/bin/python - <<'PY'
import time

import grundy


def subtraction(n):
    return [n - s for s in [1, 3, 4, 7, 11] if s <= n]


def wythoff(p):
    x, y = p
    return ([(a, y) for a in range(x)] +
            [(x, b) for b in range(y)] +
            [(x - k, y - k) for k in range(1, min(x, y) + 1)])


start = time.perf_counter()
grundy.Game.from_moves(subtraction).sequence(200000)
print(f"PY A  Game.from_moves(sub 1,3,4,7,11).sequence(200000): {time.perf_counter() - start:.3f} s")
start = time.perf_counter()
game = grundy.Game.from_moves(wythoff)
values = [game.value((x, y)) for x in range(300) for y in range(300)]
print(f"PY B  Game.from_moves(wythoff).value((x, y)), all pairs below 300: {time.perf_counter() - start:.3f} s")
PY
else
  echo "PY   skipped: the Python package is not built into .venv (.venv/bin/maturin develop --release)"
fi
