"""The census three ways (issue 17): the CLI, Python's default process pool, a Dask cluster of
two local worker processes; the same census each time, into a fresh database, wall-clock time.
The Python driver's cost is the difference from the CLI (spawning workers, shipping rows).

Run from the repository root, with the package built in release mode into .venv:
    .venv/bin/maturin develop --release && cargo build --release -p grundy-cli
    .venv/bin/python bench/census_python.py [DIGITS] [TO]      # default: 1..2 20000
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grundy

ROOT = Path(__file__).resolve().parents[1]


def cli_binary():
    built = [ROOT / "target" / profile / "grundy" for profile in ("release", "debug")]
    built = [path for path in built if path.exists()]
    return max(built, key=lambda path: path.stat().st_mtime)


def timed(label, work):
    start = time.perf_counter()
    rows = work()
    seconds = time.perf_counter() - start
    print(f"{label:<44} {seconds:7.2f} s")
    return rows


def main():
    digits = sys.argv[1] if len(sys.argv) > 1 else "1..2"
    to = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    from dask.distributed import Client, LocalCluster

    print(f"census octal --digits {digits} --to {to}")
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        binary = cli_binary()
        timed(f"CLI ({binary.parent.name}), --jobs 2", lambda: subprocess.run(
            [str(binary), "census", "octal", "--digits", digits, "--to", str(to), "--db", str(scratch / "cli.sqlite"),
             "--jobs", "2"], check=True, capture_output=True))
        pool_rows = timed("grundy.census, default pool, jobs=2", lambda: grundy.census(
            "octal", digits=digits, to=to, db=scratch / "pool.sqlite", jobs=2))
        start = time.perf_counter()
        with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            print(f"{'(LocalCluster of 2 workers starts)':<44} {time.perf_counter() - start:7.2f} s")
            dask_rows = timed("grundy.census, Dask LocalCluster, 2 workers", lambda: grundy.census(
                "octal", digits=digits, to=to, db=scratch / "dask.sqlite", executor=client.get_executor()))
        strip = lambda rows: [{k: v for k, v in row.items() if k != "seconds"} for row in rows]  # noqa: E731
        assert strip(pool_rows) == strip(dask_rows)
        print(f"{len(pool_rows)} games; the pool's and the cluster's rows agree")


if __name__ == "__main__":
    main()
