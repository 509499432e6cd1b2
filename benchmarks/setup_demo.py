"""``manage.py setup_demo`` on a fresh database, as ``make run`` runs it the first time: its wall
time and how many lines it prints (stdout and stderr, the log included).

Goal (issue 32): under 10 s, at most 10 lines. Each repeat copies one freshly migrated SQLite
database (migrated once, before the clock starts) and runs the command in a new process, as
``make run`` does: Python's and Django's start included. Then once more on the same database,
as the next ``make run`` does (nothing to make).

    .venv/bin/python benchmarks/setup_demo.py [--repeat 5]

It works in a temporary directory (database and broker); nothing else is touched.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The variables of the site's own settings that would point the command elsewhere.
THEIRS = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "NYET_ENV")


def cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def run(env: dict, *args: str) -> tuple[float, float, list[str]]:
    """Wall time, CPU time (user + system: what a busy machine does not inflate so much) and
    the lines printed."""
    started, cpu_before = time.perf_counter(), cpu()
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    took = time.perf_counter() - started
    return took, cpu() - cpu_before, (done.stdout + done.stderr).splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k not in THEIRS}
        env["CELERY_BROKER_URL"] = f"sqla+sqlite:///{tmp / 'broker.sqlite3'}"
        migrated = tmp / "migrated.sqlite3"
        run({**env, "DATABASE_URL": f"sqlite:///{migrated}"}, "migrate", "-v", "0")
        first, first_cpu, again, lines = [], [], [], []
        for i in range(repeat):
            db = tmp / f"demo{i}.sqlite3"
            shutil.copy(migrated, db)
            demo_env = {**env, "DATABASE_URL": f"sqlite:///{db}"}
            took, used, output = run(demo_env, "setup_demo")
            first.append(took)
            first_cpu.append(used)
            lines.append(len(output))
            took, used, _ = run(demo_env, "setup_demo")
            again.append(took)
            print(
                f"repeat {i + 1}: fresh {first[-1]:.1f} s (CPU {first_cpu[-1]:.1f} s), "
                f"{len(output)} lines; again {took:.1f} s (CPU {used:.1f} s)",
                flush=True,
            )
        print("\n".join(output))
        print(
            f"fresh database: median {statistics.median(first):.1f} s "
            f"(min {min(first):.1f}, max {max(first):.1f}; CPU median "
            f"{statistics.median(first_cpu):.1f} s), {max(lines)} lines at most; "
            f"run again: median {statistics.median(again):.1f} s"
        )
        print(f"load average: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
