"""A benchmark's own PostgreSQL database: made afresh and migrated before a run, dropped after."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgresql://root@127.0.0.1:5432"


def drop(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def fresh(name: str) -> None:
    """``name`` empty and migrated, by ``manage.py migrate`` run with this process's
    environment (whose ``DATABASE_URL`` names it)."""
    import psycopg

    drop(name)
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, check=True, env=os.environ
    )
