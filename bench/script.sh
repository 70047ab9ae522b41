#!/usr/bin/env bash
# Script games (issue 12): a rule written as a Starlark script against the same rule as a Rust
# `Game`, through the same memoized solver, in one run (workloads A and B of the issue), then
# the whole CLI path (`grundy sequence script:…`, worker process included) for workload A.
# Example: bash bench/script.sh
set -euo pipefail
cd "$(dirname "$0")/.."
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
