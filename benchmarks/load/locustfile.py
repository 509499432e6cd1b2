"""The people of the load test (``benchmarks/load/run.py`` starts everything and reads the
results): each one sits at a live 4-player table, hears of each move as an open page does (the
game's event stream, then its own seat's table), and moves the moment it is their turn, with a
look at the lobby, a profile or the whole game page now and then. Who sits where, with which
session, comes from ``NYET_LOAD_SEATS`` (a JSON file).

To choose a legal move without parsing pages, a person reads the game's state from the
database and asks the engine for ``view(state, seat)["legal"]`` (their own seat's moves, as the
page would show them); everything it does to the site goes over HTTP, like a browser behind
the proxy (``X-Forwarded-Proto``, and ``X-Forwarded-For`` with an address of its own).
"""

from __future__ import annotations

import json
import os
import random
import re
import threading

import gevent
import gevent.event
import psycopg
from locust import HttpUser, between, events, task

from benchmarks.move_form import form_of
from games import engine

SEATS = json.loads(open(os.environ["NYET_LOAD_SEATS"]).read())
THINK = tuple(float(s) for s in os.environ.get("NYET_LOAD_THINK", "0,0").split(","))
VERSION = re.compile(r'data-version="(\d+)"')
SEEN = "nyet_seen"  # games.last_seen.COOKIE
_lock = threading.Lock()
_next = 0
_database = None
accepted = {"moves": 0, "refused": 0, "streamed": 0, "fetched": 0}


def database():
    global _database
    if _database is None:
        _database = psycopg.connect(os.environ["NYET_LOAD_DATABASE"], autocommit=True)
    return _database


def state_of(game: int):
    with _lock:
        row = database().execute("SELECT state FROM games_game WHERE id = %s", [game]).fetchone()
    return engine.state_from_json(row[0] if isinstance(row[0], dict) else json.loads(row[0]))


class Person(HttpUser):
    # What an open game page does: it listens to the game's event stream and fetches its own
    # seat's table when the stream announces a new version (the 3-second poll is only for
    # browsers whose stream cannot connect). A person moves the moment it is their turn.
    wait_time = between(0, 0)

    def on_start(self):
        global _next
        with _lock:
            self.seat = SEATS[_next % len(SEATS)]
            _next += 1
        self.version = 0
        self.announced = 0
        self.streamed = 0  # the newest table the stream brought
        self.again = False  # look again without waiting for news
        self.news = gevent.event.Event()
        host = self.host.split("://", 1)[1]
        self.client.headers.update(
            {
                "Cookie": f"sessionid={self.seat['session']}; csrftoken={self.seat['csrf']}",
                "X-CSRFToken": self.seat["csrf"],
                "X-Forwarded-Proto": "https",
                "X-Forwarded-For": self.seat["address"],
                "Origin": f"https://{host}",
                "HX-Request": "true",
            }
        )
        self.client.hooks["response"].append(self.keep_seen)
        self.listener = gevent.spawn(self.listen)

    def keep_seen(self, answer, *args, **kwargs):
        """Send back the cookie that says when this browser last recorded presence, as a
        browser does (the fixed Cookie header above keeps requests' jar out: without this,
        every request would load the player and write their last visit)."""
        seen = answer.cookies.get(SEEN)
        if seen:
            base = f"sessionid={self.seat['session']}; csrftoken={self.seat['csrf']}"
            self.client.headers["Cookie"] = f"{base}; {SEEN}={seen}"

    def on_stop(self):
        self.listener.kill()

    def listen(self):
        """The page's EventSource: reconnects when the stream ends, as a browser does."""
        url = f"/games/{self.seat['game']}/events/"
        while True:
            try:
                with self.client.get(
                    url, name="events", stream=True, timeout=60, catch_response=True
                ) as stream:
                    # Only the versions and the tables: the stream also says its chat's latest
                    # message and whose pages are open (``here``), which a page does not fetch
                    # its table for.
                    name, data = "", []
                    for line in stream.iter_lines(decode_unicode=True):
                        if line.startswith("event: "):
                            name = line[7:]
                        elif line.startswith("data: "):
                            data.append(line[6:])
                        elif not line:
                            if name == "version":
                                self.announced = max(self.announced, int(data[0]))
                                self.news.set()
                            elif name == "table":  # the seat's table itself: nothing to fetch
                                found = VERSION.search("\n".join(data))
                                self.streamed = max(self.streamed, int(found[1]))
                                accepted["streamed"] += 1
                                self.announced = max(self.announced, self.streamed)
                                self.news.set()
                            name, data = "", []
            except Exception:  # a dropped stream: the browser waits its retry time
                gevent.sleep(1)

    @task(20)
    def play(self):
        game = self.seat["game"]
        if self.again:  # the answer to my move is my table already: am I to act again?
            self.again = False
        else:
            if self.announced <= self.version:
                self.news.clear()
                # the event, or after 3 s what the page's fallback poll would do
                self.news.wait(timeout=3)
            if self.streamed > self.version and self.streamed >= self.announced:
                self.version = self.streamed  # the stream brought the table: shown as it is
            else:
                if not self.fetch_table(game):
                    return
        state = state_of(game)
        if self.seat["position"] not in engine.to_act(state):
            return
        seen = engine.view(state, self.seat["position"])
        legal = seen["legal"]
        if not legal:
            return
        if THINK[1]:
            gevent.sleep(random.uniform(*THINK))  # a person deciding (``--think``)
        move = random.choice(legal)
        version = self.version
        data = form_of(move, version, seen["round"])
        with self.client.post(
            f"/games/{game}/move/", data=data, name="move", catch_response=True
        ) as answer:
            if answer.status_code != 200:
                answer.failure(f"move answered {answer.status_code} {answer.error or ''}")
            elif 'class="error' in answer.text:
                # Someone else moved in the same instant (a simultaneous discard): asked again.
                accepted["refused"] += 1
                answer.success()
                found = VERSION.search(answer.text)  # the table as it is now
                self.version = int(found[1]) if found else version
                self.again = True
            else:
                accepted["moves"] += 1
                answer.success()
                self.again = True  # the same seat may decide again at once (a trick's winner)
                found = VERSION.search(answer.text)
                self.version = int(found[1]) if found else version

    def fetch_table(self, game: int) -> bool:
        """What the page does when the stream said a version without its table (a spectator's
        page, or the site before tables came on the stream): fetch it."""
        with self.client.get(
            f"/games/{game}/poll/?version={self.version}", name="table", catch_response=True
        ) as answer:
            if answer.status_code == 204:
                answer.success()
            elif answer.status_code != 200 or not VERSION.search(answer.text):
                answer.failure(f"poll answered {answer.status_code} {answer.error or ''}")
                return False
            else:
                self.version = int(VERSION.search(answer.text)[1])
                accepted["fetched"] += 1
        return True

    @task(1)
    def lobby(self):
        self.client.get("/", name="lobby", headers={"HX-Request": ""})

    @task(1)
    def profile(self):
        self.client.get(f"/players/{self.seat['username']}/", name="profile")

    @task(1)
    def game_page(self):
        self.client.get(
            f"/games/{self.seat['game']}/", name="game page", headers={"HX-Request": ""}
        )


@events.quitting.add_listener
def _write_counts(environment, **kwargs):
    path = os.environ.get("NYET_LOAD_COUNTS")
    if path:
        with open(path, "w") as out:
            json.dump(accepted, out)
