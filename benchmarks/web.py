"""The production web process for a benchmark: the Procfile's ``web`` line (gunicorn with two
uvicorn workers) on a free port, started and waited for."""

from __future__ import annotations

import re
import socket
import subprocess
import time
from pathlib import Path

from benchmarks.ports import free_port

ROOT = Path(__file__).resolve().parent.parent


def start_web(env: dict, folder: Path) -> tuple[subprocess.Popen, int]:
    """The web process (its own session: stop it with ``os.killpg``) and its port; its output in
    ``folder / "web.log"``."""
    port = free_port()
    line = next(x for x in (ROOT / "Procfile").read_text().splitlines() if x.startswith("web:"))
    command = line.split(": ", 1)[1].replace("${WEB_CONCURRENCY:-2}", "2")
    command = command.replace("${PORT:-8000}", str(port))
    # a worker replaced mid-run would take its CPU time with it
    command = re.sub(r" --max-requests(-jitter)? \d+", "", command)
    site = subprocess.Popen(
        command,
        shell=True,
        cwd=ROOT,
        env={**env, "PORT": str(port)},
        stdout=(folder / "web.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return listening(site, port, folder), port


def listening(site: subprocess.Popen, port: int, folder: Path) -> subprocess.Popen:
    """``site`` once it accepts connections on ``port`` (within a minute; its log otherwise)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return site
        except OSError:
            alive = time.monotonic() < deadline and site.poll() is None
            assert alive, (folder / "web.log").read_text()
            time.sleep(0.2)
