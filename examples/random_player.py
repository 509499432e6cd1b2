"""A reference client for the Nyet! online API: it listens to its account's stream, plays a
game it is in, accepts an invitation, or else makes a table against two of the site's bots; then
it follows the game's stream and plays a random legal move whenever its seat may move.

    python examples/random_player.py --site http://127.0.0.1:8000 --token nyet_…
    python examples/random_player.py --token nyet_… --wait 600   # wait for an invitation

Standard library only. Make the token at /settings/tokens/ with the "read" and "play" scopes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request


class Site:
    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/") + "/api/v1"
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data, self.headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            return {"status": error.code, **json.load(error)}

    def lines(self, path: str):
        """The stream's JSON lines, as they come."""
        request = urllib.request.Request(self.url + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            for line in response:
                if line.strip():
                    yield json.loads(line)


def play(site: Site, game_id: int, rng: random.Random) -> dict:
    """Until the game is over: each time the stream says my seat may move, a random move."""
    while True:  # the stream ends now and then (its lifetime): open it again
        for event in site.lines(f"/games/{game_id}/stream"):
            if event["type"] != "game":
                continue
            if event["status"] != "active":
                return event
            if event["legal"]:
                answer = site.call(
                    "POST",
                    f"/games/{game_id}/move",
                    {"version": event["version"], "move": rng.choice(event["legal"])},
                )
                if "code" in answer and answer["code"] != "stale":
                    print("refused:", answer, file=sys.stderr)


def find_game(site: Site, wait: float) -> int | None:
    """A game to play from the account's stream: one in play, or one that starts after an
    invitation is accepted; None when nothing came within ``wait`` seconds."""
    until = time.monotonic() + wait
    joined = False
    me = site.call("GET", "/account")["username"]
    while True:  # the stream ends now and then (its lifetime): open it again
        for event in site.lines("/stream"):
            if event["type"] == "gameStart":
                return event["game"]
            # The stream tells of invitations both ways: answer only those to me.
            if event["type"] == "invitation" and event["to"] == me and not joined:
                answer = site.call("POST", f"/invitations/{event['id']}/accept", {})
                joined = "code" not in answer
                outcome = answer.get("message", "joined")
                print(f"invited by {event['from']} to game {event['game']}: {outcome}", flush=True)
            # A keep-alive line ends the first lines and comes every 15 s: time to check.
            if event["type"] == "keep-alive" and not joined and time.monotonic() >= until:
                return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--wait", type=float, default=0, help="seconds to wait for an invitation")
    parser.add_argument("--level", default="easy", help="the bots' level")
    parser.add_argument("--target", type=int, default=None, help="points to win (default: rounds)")
    parser.add_argument("--seed", type=int, default=None, help="for the random moves")
    options = parser.parse_args()
    site = Site(options.site, options.token)
    me = site.call("GET", "/account")
    if "code" in me:
        print("cannot log in:", me["message"], file=sys.stderr)
        return 1
    game_id = find_game(site, options.wait)
    if game_id is None:
        table = site.call(
            "POST",
            "/games",
            {"players": 3, "bots": [options.level, options.level], "target": options.target},
        )
        if "code" in table:
            print("cannot make a table:", table["message"], file=sys.stderr)
            return 1
        game_id = table["id"]
    print(f"{me['username']} plays game {game_id}", flush=True)
    over = play(site, game_id, random.Random(options.seed))
    print(f"game {game_id} is over: totals {over['view']['totals']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
