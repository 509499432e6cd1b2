"""Revocation to stream closed (issue 33): how soon a revoked token's open streams end.

    python benchmarks/revocation.py [--rounds 50] [--redis] [--from-process]

Each round makes a read token for a player of a game in play, opens both of its streams over
HTTP (``/api/v1/games/{id}/stream`` and ``/api/v1/stream``), waits for their first lines, then
revokes the token as a person does: a POST of the settings page (``/settings/tokens/``, the
form's "Revoke" button) to the same site, or with ``--from-process`` by ``api.tokens.revoke_token``
in this process (another process than the web's, as a shell or a worker would). Timed from the
moment the revocation is sent to each stream's last line (``{"type": "end"}``) and to its
connection closed by the server (``Connection: close``).

Without ``--redis``: the embedded default (one uvicorn process, SQLite, no Redis: the page's
POST tells the streams of its own process at once; from another process the hub's database check
finds it, every ``games.live.listening.DB_CHECK`` seconds). With it: the production web process (the
Procfile's ``web`` line: gunicorn with two uvicorn workers, so the POST and the streams are
often in different processes) on PostgreSQL (``nyet_revocation``) and Redis (database 15).
Also prints the cost of the hub's check of its streams' tokens (one query for all).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.live_push import environment, prepare  # noqa: E402
from benchmarks.ports import free_port  # noqa: E402
from benchmarks.timing import fmt  # noqa: E402
from benchmarks.web import listening, start_web  # noqa: E402

DATABASE = "postgresql://root@127.0.0.1:5432/nyet_revocation"
REDIS = "redis://127.0.0.1:6379/15"
CSRF = "b" * 32


def start_uvicorn(env: dict, folder: Path) -> tuple[subprocess.Popen, int]:
    """The embedded default's web process (``make run``'s, without its reloader)."""
    port = free_port()
    site = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "nyet_site.asgi:application", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=(folder / "web.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return listening(site, port, folder), port


class Stream:
    """An API stream read as a client reads it: HTTP/1.1, chunked, one JSON object a line."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.ended = self.closed = 0.0
        self.lines: list[dict] = []

    @classmethod
    async def open(cls, port: int, path: str, raw: str) -> Stream:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {raw}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        assert b" 200 " in status, status
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        return cls(reader, writer)

    async def chunk(self) -> bytes | None:
        size = int((await self.reader.readline()).strip() or b"0", 16)
        if size == 0:
            return None
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    async def first(self) -> list[dict]:
        chunk = await self.chunk()
        return [json.loads(line) for line in chunk.decode().splitlines()]

    async def until_closed(self) -> None:
        """Reads what is said until the server closes the connection."""
        while (chunk := await self.chunk()) is not None:
            self.lines += [json.loads(line) for line in chunk.decode().splitlines()]
            if self.lines and self.lines[-1]["type"] == "end":
                self.ended = time.perf_counter()
        while await self.reader.read(1024):  # the server closes: Connection: close
            pass
        self.closed = time.perf_counter()
        self.writer.close()


async def revoke_by_page(port: int, session: str, token_id: int) -> float:
    """The settings page's "Revoke" button, posted; its answer's time."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = f"token={token_id}&revoke=1"
    writer.write(
        f"POST /settings/tokens/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Cookie: sessionid={session}; csrftoken={CSRF}\r\nX-CSRFToken: {CSRF}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}".encode()
    )
    await writer.drain()
    status = await reader.readline()
    assert b" 302 " in status, status + await reader.read()
    await reader.read()
    writer.close()
    return time.perf_counter() - started


async def rounds(args, port: int, game_id: int, player) -> dict[str, list[float]]:
    from asgiref.sync import sync_to_async
    from django.test import Client

    from api.tokens import create_token, revoke_token

    client = Client()
    await sync_to_async(client.force_login)(player)
    session = client.cookies["sessionid"].value
    times: dict[str, list[float]] = {
        "game stream: end line": [],
        "game stream: closed": [],
        "account stream: end line": [],
        "account stream: closed": [],
        "the POST's own answer": [],
    }
    for number in range(args.rounds):
        token, raw = await sync_to_async(create_token)(player, f"round {number}", ["read"])
        game = await Stream.open(port, f"/api/v1/games/{game_id}/stream", raw)
        account = await Stream.open(port, "/api/v1/stream", raw)
        assert (await game.first())[0]["type"] == "game"
        assert (await account.first())[-1]["type"] == "keep-alive"
        reading = [asyncio.create_task(s.until_closed()) for s in (game, account)]
        sent = time.perf_counter()
        if args.from_process:
            await sync_to_async(revoke_token)(player, token.pk)
        else:
            times["the POST's own answer"].append(await revoke_by_page(port, session, token.pk))
        await asyncio.wait_for(asyncio.gather(*reading), 30)
        for name, stream in (("game", game), ("account", account)):
            assert stream.lines[-1] == {"type": "end", "reason": "revoked"}, stream.lines
            assert all(line["type"] != "game" for line in stream.lines), stream.lines
            times[f"{name} stream: end line"].append(stream.ended - sent)
            times[f"{name} stream: closed"].append(stream.closed - sent)
    return {name: values for name, values in times.items() if values}


def check_cost(count: int) -> str:
    """The hub's check of ``count`` open streams' tokens (one query), timed."""
    from accounts.models import User
    from api.tokens import create_token, lost_read

    owner = User.objects.create_user("owner", password="pw")
    ids = [create_token(owner, f"t{i % 20}", ["read"])[0].pk for i in range(20)]
    ids += list(range(10**6, 10**6 + count - len(ids)))  # the rest: tokens gone
    took = []
    for _ in range(20):
        started = time.perf_counter()
        lost_read(ids)
        took.append(time.perf_counter() - started)
    return f"the hub's check of {count} streams' tokens (one query): {fmt(took)}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--from-process", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        env = environment(args.redis, folder)
        if args.redis:
            env["DATABASE_URL"], env["REDIS_URL"] = DATABASE, REDIS
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # gunicorn
        prepare(args.redis, env)
        site, port = (start_web if args.redis else start_uvicorn)(env, folder)
        print(
            ("production web (2 workers), PostgreSQL and Redis" if args.redis else "embedded")
            + (", revoked by another process" if args.from_process else ", revoked by the page")
        )
        try:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            from accounts.models import User
            from games.actions import create_game, join_game

            player = User.objects.create_user("player", password="pw")
            other = User.objects.create_user("other", password="pw")
            game = create_game(player, players=2)
            join_game(other, game.pk)
            for name, values in asyncio.run(rounds(args, port, game.pk, player)).items():
                print(f"{name}: {fmt(values)} over {len(values)}", flush=True)
            print(check_cost(1000))
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(site.pid, signal.SIGTERM)
            site.wait(timeout=30)


if __name__ == "__main__":
    main()
