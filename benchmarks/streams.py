"""How many open game pages one web process keeps: event streams held open against one uvicorn
process, then one move, and the time until every stream has said the new version.

    python benchmarks/streams.py [--streams 1000 2000 4000] [--redis]

Without ``--redis``: the embedded default (SQLite; the hub reads the versions from the
database). With it: PostgreSQL (``nyet_bench``) and Redis pub/sub. Prints, for each count, the
time to open them all, the process's memory (RSS) with them open, and the median and slowest
time from the move's commit to each stream's event.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.live_push import environment, prepare, start_site, stop  # noqa: E402


async def watch(host: str, port: int, path: str, opened: asyncio.Event, said: dict, key: int):
    reader, writer = await asyncio.open_connection(host, port, limit=2**16)
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
    writer.write(request.encode())
    await writer.drain()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                version = int(line[6:])
                if version == 0:
                    opened.set()
                else:
                    said[key] = time.perf_counter()
                    return
    finally:
        writer.close()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def round_of(count: int, port: int, game_id: int, web_pid: int) -> str:
    from asgiref.sync import sync_to_async

    from accounts.models import User
    from games.actions import join_game

    path = f"/games/{game_id}/events/"
    said: dict[int, float] = {}
    events = [asyncio.Event() for _ in range(count)]
    started = time.perf_counter()
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(watch("127.0.0.1", port, path, events[i], said, i)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # a crowd arriving, not one burst
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 300)
    opening = time.perf_counter() - started
    memory = rss_mb(web_pid)
    guest = await sync_to_async(User.objects.create_user)(f"guest{count}", password="pw")
    moved = time.perf_counter()
    await sync_to_async(join_game)(guest, game_id)
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    delays = sorted((t - moved) * 1000 for t in said.values())
    return (
        f"{count} streams: opened in {opening:.1f} s, web process {memory:.0f} MB; "
        f"move to event: median {statistics.median(delays):.0f} ms, "
        f"slowest {delays[-1]:.0f} ms ({len(delays)} of {count} told)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--redis", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        env = environment(args.redis, folder)
        prepare(args.redis, env)
        processes, base = start_site(env, folder)
        port = int(base.rsplit(":", 1)[1])
        print("PostgreSQL and Redis" if args.redis else "embedded default")
        try:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            from accounts.models import User
            from games.actions import create_game

            host = User.objects.create_user("host", password="pw")
            for count in args.streams:
                game = create_game(host, players=5)  # open seats: each guest who joins moves it
                print(asyncio.run(round_of(count, port, game.pk, processes[0].pid)), flush=True)
        finally:
            stop(processes)


if __name__ == "__main__":
    main()
