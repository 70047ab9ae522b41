"""The Python package's speed (issue 15), against its goals and the CLI.

Run from the repository root, with the package built in release mode into .venv:
    .venv/bin/maturin develop --release && cargo build --release -p grundy-cli
    .venv/bin/python bench/python.py
"""

import subprocess
import time
from pathlib import Path

import grundy

ROOT = Path(__file__).resolve().parents[1]


def best_of(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def calls_per_second():
    g = grundy.Game("nim")
    position = [3, 4, 5]
    calls = 200_000

    def work():
        value = g.value
        for _ in range(calls):
            value(position)

    seconds = best_of(5, work)
    print(f"Game('nim').value([3,4,5]): {calls / seconds:,.0f} calls/s (goal >= 500,000)")


def sequence_against_cli(game="octal:0.137", n=10**6):
    g = grundy.Game(game)
    python_seconds = best_of(3, lambda: g.sequence(n))
    cli = ROOT / "target" / "release" / "grundy"
    cli_seconds = best_of(
        3, lambda: subprocess.run([cli, "sequence", game, "--to", str(n)], check=True, stdout=subprocess.DEVNULL)
    )
    print(
        f"{game} sequence({n}): Python {python_seconds * 1000:.1f} ms, CLI `grundy sequence {game} --to {n}` "
        f"{cli_seconds * 1000:.1f} ms: ratio {python_seconds / cli_seconds:.2f} (goal <= 1.2)"
    )


def python_moves(n=10**5):
    def moves(heap):
        return [heap - take for take in (1, 3, 4) if take <= heap]

    def work():
        g = grundy.Game.from_moves(moves, name="sub 1,3,4")
        g.sequence(n)

    seconds = best_of(3, work)
    print(f"from_moves sub {{1,3,4}} heaps 0..{n}: {seconds:.3f} s (goal < 2 s)")


if __name__ == "__main__":
    calls_per_second()
    for game in ("kayles", "octal:0.137", "dawson"):
        sequence_against_cli(game)
    python_moves()
