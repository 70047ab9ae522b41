#!/usr/bin/env python3
"""Print criterion results as ratios against the naive baseline measured in the same run.

Usage: python3 bench/ratios.py [target/criterion]
Within each criterion group, a benchmark whose id contains one of BASELINE_WORDS is the naive
baseline; every other benchmark of the group (with the same input id, if any) is shown with
its speed-up over it.
"""
import json
import pathlib
import sys

BASELINE_WORDS = ("plain_recursion", "generic_solver", "naive", "plain_triple_loop", "per_vertex")


def mean_ns(directory):
    estimates = directory / "new" / "estimates.json"
    return json.loads(estimates.read_text())["mean"]["point_estimate"]


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
    if not root.is_dir():
        sys.exit(f"no criterion results under {root}: run `cargo bench` first")
    for group in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "report"):
        results = {}
        for estimates in group.rglob("new/estimates.json"):
            bench = estimates.parent.parent.relative_to(group)
            results[str(bench)] = mean_ns(estimates.parent.parent)
        baselines = {name: ns for name, ns in results.items() if any(w in name for w in BASELINE_WORDS)}
        print(f"{group.name}:")
        for name, ns in sorted(results.items()):
            line = f"  {name:50} {ns / 1e6:12.3f} ms"
            parts = name.split("/")
            for base_name, base_ns in baselines.items():
                base_parts = base_name.split("/")
                if base_name != name and parts[1:] == base_parts[1:] and len(parts) == len(base_parts):
                    line += f"   {base_ns / ns:8.1f}x faster than {base_parts[0]}"
            print(line)


if __name__ == "__main__":
    main()
