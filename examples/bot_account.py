"""A bot account's client for the Nyet! online API, driven by its account's stream alone: it
accepts every invitation to a table and every rematch offer, and plays every game it is in (a
random legal move each time its seat may move), as a lichess bot answers challenges.

    python examples/bot_account.py --site http://127.0.0.1:8000 --token nyet_…
    python examples/bot_account.py --token nyet_… --games 3   # stop after three games

Standard library only. Make the account a bot account and the token at /settings/tokens/ (the
"bot" scope): then a table's owner may invite it by its username (``POST /games/{id}/invite``)
or ask it for a rematch, and it sits down by itself. When the stream ends (its lifetime, a
dropped connection) it opens it again: the stream's first lines say what holds (games in play,
turns, invitations, offers), so nothing is missed.
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
        data = None if body is None and method == "GET" else json.dumps(body or {}).encode()
        request = urllib.request.Request(self.url + path, data, self.headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            return {"status": error.code, **json.load(error)}

    def lines(self, path: str):
        """The stream's JSON lines, as they come (keep-alive lines come every 15 s)."""
        request = urllib.request.Request(self.url + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            for line in response:
                if line.strip():
                    yield json.loads(line)


class Bot:
    def __init__(self, site: Site, rng: random.Random, games: int) -> None:
        self.site, self.rng, self.games_left = site, rng, games
        self.me = ""
        self.over: set[int] = set()

    def say(self, text: str) -> None:
        print(text, flush=True)

    def play(self, game_id: int) -> None:
        """Moves for my seat while it may move (a random legal one each time); a move refused as
        stale (the game moved on meanwhile) is chosen again from the game as it is now."""
        game = self.site.call("GET", f"/games/{game_id}")
        for _ in range(100):
            if game.get("status") != "active" or not game.get("legal"):
                return
            move = {
                "version": game["version"],
                "move": self.rng.choice(game["legal"]),
                "round": game["view"]["round"],
            }
            answer = self.site.call("POST", f"/games/{game_id}/move", move)
            if answer.get("code") == "stale":
                answer = self.site.call("GET", f"/games/{game_id}")
            elif "code" in answer:
                self.say(f"move refused in game {game_id}: {answer['message']}")
                return
            game = answer

    def handle(self, event: dict) -> None:
        kind = event["type"]
        if kind == "invitation" and event["to"] == self.me:
            answer = self.site.call("POST", f"/invitations/{event['id']}/accept")
            outcome = answer.get("message", "accepted")
            self.say(f"invited by {event['from']} to game {event['game']}: {outcome}")
        elif kind == "rematchOffer":
            answer = self.site.call("POST", f"/games/{event['game']}/rematch")
            outcome = answer.get("message", "accepted")
            self.say(f"rematch of game {event['game']} asked by {event['from']}: {outcome}")
        elif kind in ("gameStart", "yourTurn"):
            self.play(event["game"])
        elif kind == "gameOver" and event["game"] not in self.over:
            self.over.add(event["game"])
            self.games_left -= 1
            self.say(f"game {event['game']} is over: {event['status']}")

    def run(self) -> int:
        me = self.site.call("GET", "/account")
        if "code" in me:
            print("cannot log in:", me["message"], file=sys.stderr)
            return 1
        self.me = me["username"]
        if not me["is_bot"]:
            self.say(f"{self.me} is not a bot account (POST /account/bot makes a new one so)")
        self.say(f"{self.me} listens to its account's stream")
        while self.games_left != 0:  # the stream ends now and then: open it again
            try:
                for event in self.site.lines("/stream"):
                    if event["type"] == "end":  # the token was revoked or lost its scope
                        print("the stream ended:", event.get("reason"), file=sys.stderr)
                        return 1
                    self.handle(event)
                    if self.games_left == 0:
                        break
            except (OSError, ValueError) as error:  # a dropped connection, a cut line
                self.say(f"stream lost ({error}); opening it again")
                time.sleep(1)
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help='a token with the "bot" scope')
    parser.add_argument("--games", type=int, default=-1, help="stop after this many games")
    parser.add_argument("--seed", type=int, default=None, help="for the random moves")
    options = parser.parse_args()
    site = Site(options.site, options.token)
    return Bot(site, random.Random(options.seed), options.games).run()


if __name__ == "__main__":
    sys.exit(main())
