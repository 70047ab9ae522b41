#!/usr/bin/env bash
# Graph games at scale (dag:FILE, geography:FILE), each against the obvious alternative in the
# same run. Optional arguments filter the sections: load, classify, baseline, loopy.
# Example: bash bench/graphs.sh classify
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench -p grundy --bench graphs -- "$@"
