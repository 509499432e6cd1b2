"""Reading a game's event stream in the tests: in this process (``read_stream``), or from a
server over HTTP as a browser's EventSource reads it (``Events``); and the versions it said."""

import asyncio
import http.client
import re

from asgiref.sync import sync_to_async
from django.db import connections

from games import live, stream

EVENT = re.compile(r"^id: (\d+)\nevent: version\ndata: (\d+)\n\n$")


def versions_in(chunks: list[str]) -> list[int]:
    """The versions the stream said, checking that it said nothing else."""
    said = []
    for chunk in chunks:
        chunk = chunk.removeprefix("retry: 1000\n")
        if chunk == ": keep-alive\n\n" or chunk.startswith("event: here\n"):
            continue  # a page's stream also says whose pages are open (games/presence.py)
        match = EVENT.match(chunk)
        assert match and match[1] == match[2], f"not a version event: {chunk!r}"
        said.append(int(match[2]))
    return said


async def read_stream(
    game_id: int, until_version: int, lifetime: float = 30.0, opened: asyncio.Event | None = None
) -> list[str]:
    """The stream's chunks up to ``until_version``; ``opened`` is set once it said the first."""
    chunks = []
    async for chunk in stream.game_events(game_id, lifetime=lifetime):
        chunks.append(chunk)
        if opened is not None:
            opened.set()
        if versions_in([chunk]) and versions_in([chunk])[-1] >= until_version:
            break
    await sync_to_async(connections.close_all)()  # the thread that read the database
    return chunks


def told_only_from_elsewhere(monkeypatch):
    """As if every move were made by another process (a worker, another web process): this
    process's streams are not told of it directly."""
    monkeypatch.setattr(live.hub, "tell_here", lambda *told: None)


class Events:
    """An open event stream, read line by line as a browser's EventSource reads it."""

    def __init__(self, port: int, game_id: int, cookie: str = ""):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Cookie": cookie} if cookie else {}
        self.connection.request("GET", f"/games/{game_id}/events/", headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type") == "text/event-stream"

    def next_version(self) -> int:
        chunk = ""
        while True:
            line = self.response.readline().decode()
            chunk += line
            if line == "\n":
                said = versions_in([chunk])
                if said:
                    return said[0]
                chunk = ""

    def close(self):
        self.connection.close()
