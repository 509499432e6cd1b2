"""A seated player's page gets its seat's new table on its event stream (issue 36): the same
fragment its poll would answer, for that player only, in their language; not the table of their
own move (its answer was), not to a spectator, and not to a session that has logged out."""

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from django.db import connections
from django.test import AsyncClient, Client
from django.urls import reverse

from games import engine, stream
from games.actions import create_game, join_game, submit_move
from games.models import Game

from .conftest import seat_of, state_of
from .leaks import check_page, truth_for

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def started(*people) -> Game:
    game = create_game(people[0], players=len(people))
    for person in people[1:]:
        join_game(person, game.pk)
    return Game.objects.get(pk=game.pk)


def move_of(game: Game, seat: int) -> dict | None:
    """A legal move of ``seat`` now (the first), or None when it has none."""
    legal = engine.view(state_of(game), seat)["legal"]
    if not legal:
        return None
    move = dict(legal[0])
    del move["seat"]
    return move


def move_by_someone_but(game: Game, people: list, left_out) -> None:
    """One move by the first of ``people`` other than ``left_out`` who has one."""
    game.refresh_from_db()
    for person in people:
        move = move_of(game, seat_of(game, person))
        if person != left_out and move is not None:
            submit_move(person, game.pk, game.version, move)
            return
    raise AssertionError("nobody else can move")


def ready_for(game: Game, people: list, person) -> None:
    """Moves, whoever's, until ``person`` is the one to act."""
    for _ in range(20):
        game.refresh_from_db()
        if tuple(engine.to_act(state_of(game))) == (seat_of(game, person),):
            return
        move_by_someone_but(game, people, None)
    raise AssertionError(f"{person} never came to act alone")


def move_by(game: Game, people: list, person) -> bool:
    game.refresh_from_db()
    move = move_of(game, seat_of(game, person))
    if move is None:
        return False
    submit_move(person, game.pk, game.version, move)
    return True


class Stream:
    """A game page's event stream, opened through the site's middleware as uvicorn would."""

    def __init__(self, user, game_id: int, **query):
        self.user = user
        self.game_id = game_id
        self.query = query
        self.client = AsyncClient()

    async def open(self, **headers) -> "Stream":
        if self.user is not None:
            await self.client.aforce_login(self.user)
        url = reverse("game_events", args=[self.game_id])
        response = await self.client.get(url, self.query, **headers)
        assert response.status_code == 200
        # the stream's own generator, which the test closes as a browser's leaving would
        self.chunks = response._iterator
        opened.append(self)
        self.session_key = self.client.cookies["sessionid"].value if self.user else ""
        return self

    async def next(self) -> tuple[str, int, str] | None:
        """The next version or table said: (event, version, the table's html); None when the
        stream ended."""
        while True:
            try:
                chunk = await asyncio.wait_for(anext(self.chunks), 20)
            except StopAsyncIteration:
                return None
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            for said in text.split("\n\n"):
                lines = said.removeprefix("retry: 1000\n").split("\n")
                names = [line[7:] for line in lines if line.startswith("event: ")]
                if names and names[0] in ("version", "table"):
                    data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
                    version = int(next(line[4:] for line in lines if line.startswith("id: ")))
                    return names[0], version, data if names[0] == "table" else ""


opened: list[Stream] = []


def read(*steps):
    """Run the coroutines' steps in one event loop (the streams live on it), then close the
    streams they opened and give the test thread's database connections back."""

    async def run():
        try:
            return [await step() for step in steps]
        finally:
            while opened:
                await opened.pop().chunks.aclose()
            await sync_to_async(connections.close_all)()

    return asyncio.run(run())


def poll_answer(user, game: Game, version: int, **headers) -> str:
    client = Client()
    client.force_login(user)
    url = reverse("game_poll", args=[game.pk])
    answer = client.get(url, {"version": version}, HTTP_HX_REQUEST="true", **headers)
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.parametrize("language", ["", "fr"])
def test_a_seated_player_s_stream_brings_the_table_their_poll_would_answer(
    alice, bob, carol, language
):
    alice.language = language
    alice.save(update_fields=["language"])
    people = [alice, bob, carol]
    game = started(*people)
    ready_for(game, people, bob)
    said = {}

    async def scenario():
        page = await Stream(alice, game.pk).open()
        said["first"] = await page.next()
        await sync_to_async(move_by)(game, people, bob)
        said["table"] = await page.next()

    read(scenario)
    assert said["first"] == ("version", game.version, ""), "a new page gets the version first"
    kind, version, html = said["table"]
    game.refresh_from_db()
    assert kind == "table" and version == game.version
    assert f'data-version="{game.version}"' in html
    check_page(html, truth_for(game, seat_of(game, alice)), "alice's table on her stream")
    polled = poll_answer(alice, game, said["first"][1])
    assert CSRF.sub("", html) == CSRF.sub("", polled.strip())
    if language == "fr":
        assert 'lang="fr"' in html or "Votre" in html or "Tour" in html, html[:400]


def test_the_mover_s_own_stream_says_the_version_and_the_others_get_their_tables(alice, bob, carol):
    people = [alice, bob, carol]
    game = started(*people)
    ready_for(game, people, bob)
    mover, other = bob, carol
    said = {}

    async def scenario():
        mine = await Stream(mover, game.pk).open()
        theirs = await Stream(other, game.pk).open()
        await mine.next(), await theirs.next()
        assert await sync_to_async(move_by)(game, people, mover)
        said["mine"], said["theirs"] = await mine.next(), await theirs.next()

    read(scenario)
    game.refresh_from_db()
    assert said["mine"] == ("version", game.version, ""), "the move's answer was their table"
    assert said["theirs"][:2] == ("table", game.version)
    check_page(said["theirs"][2], truth_for(game, seat_of(game, other)), "the other's table")


def test_a_spectator_s_stream_and_a_visitor_s_say_versions_only(alice, bob, carol, make_person):
    people = [alice, bob, carol]
    game = started(*people)
    dave = make_person("dave")
    said = {}

    async def scenario():
        spectator = await Stream(dave, game.pk).open()
        visitor = await Stream(None, game.pk).open()
        await spectator.next(), await visitor.next()
        await sync_to_async(move_by_someone_but)(game, people, None)
        said["spectator"], said["visitor"] = await spectator.next(), await visitor.next()

    read(scenario)
    game.refresh_from_db()
    assert said["spectator"] == said["visitor"] == ("version", game.version, "")


def test_a_stream_whose_session_logged_out_ends_without_a_table(alice, bob, carol):
    people = [alice, bob, carol]
    game = started(*people)
    ready_for(game, people, bob)
    said = {}

    async def scenario():
        page = await Stream(alice, game.pk).open()
        await page.next()
        await sync_to_async(Session.objects.filter(session_key=page.session_key).delete)()
        await sync_to_async(move_by)(game, people, bob)
        said["after"] = await page.next()

    read(scenario)
    assert said["after"] is None, "the stream ended: the browser's reconnection is a visitor's"


def test_moves_that_come_together_are_drawn_once_for_the_last(alice, bob, carol, monkeypatch):
    people = [alice, bob, carol]
    game = started(*people)
    ready_for(game, people, bob)
    drawn = []
    draw = stream.SeatTable.draw

    def counted(self):
        drawn.append(self.user_id)
        return draw(self)

    monkeypatch.setattr(stream.SeatTable, "draw", counted)
    said = {}

    async def scenario():
        page = await Stream(alice, game.pk).open()
        await page.next()
        # two moves while the page's stream is busy elsewhere (not reading): both are waiting
        # when it reads again
        for person in (bob, carol):
            assert await sync_to_async(move_by)(game, people, person)
        said["table"] = await page.next()
        assert await sync_to_async(move_by)(game, people, alice)  # her move: not drawn
        said["own"] = await page.next()
        assert await sync_to_async(move_by)(game, people, bob)
        said["next"] = await page.next()

    read(scenario)
    game.refresh_from_db()
    assert said["table"][:2] == ("table", game.version - 2), "drawn once, after both moves"
    assert said["own"] == ("version", game.version - 1, "")
    assert said["next"][:2] == ("table", game.version)
    assert drawn == [alice.pk, alice.pk], "one drawing for the two moves, one for bob's next"


def test_the_table_event_carries_any_html_line_by_line():
    html = 'a\nb\r\nc\rd <span data-version="3">'
    said = stream.table_event(3, html)
    assert said.startswith("id: 3\nevent: table\n") and said.endswith("\n\n")
    lines = [line[6:] for line in said.split("\n") if line.startswith("data: ")]
    assert "\n".join(lines) == 'a\nb\nc\nd <span data-version="3">'


def test_a_drawing_that_fails_sends_the_version_and_the_stream_goes_on(
    alice, bob, carol, monkeypatch
):
    people = [alice, bob, carol]
    game = started(*people)
    ready_for(game, people, bob)

    def broken(self):
        raise RuntimeError("the template's fault")

    monkeypatch.setattr(stream.SeatTable, "draw", broken)
    said = {}

    async def scenario():
        page = await Stream(alice, game.pk).open()
        await page.next()
        assert await sync_to_async(move_by)(game, people, bob)
        said["first"] = await page.next()
        assert await sync_to_async(move_by)(game, people, carol)
        said["second"] = await page.next()

    read(scenario)
    game.refresh_from_db()
    assert said["first"] == ("version", game.version - 1, ""), "the page fetches its table"
    assert said["second"] == ("version", game.version, ""), "and the stream went on"


def test_a_drawing_writes_nothing_back_from_the_cookies_the_stream_opened_with(alice, bob, carol):
    """The browser's zone, reported in a cookie, is stored by requests; a stream's cookies are
    as they were when it opened, and its drawings must not write them back over a newer one."""
    people = [alice, bob, carol]
    game = started(*people)
    ready_for(game, people, bob)
    said = {}

    async def scenario():
        page = Stream(alice, game.pk)
        page.client.cookies["nyet_zone"] = "Europe/Paris"
        await page.open()
        await page.next()
        # a later request of the browser reported another zone
        await sync_to_async(type(alice).objects.filter(pk=alice.pk).update)(
            browser_time_zone="America/New_York"
        )
        assert await sync_to_async(move_by)(game, people, bob)
        said["table"] = await page.next()

    read(scenario)
    assert said["table"][0] == "table"
    alice.refresh_from_db()
    assert alice.browser_time_zone == "America/New_York"


def test_a_player_who_came_by_the_invite_link_keeps_it_in_the_streamed_table(alice, bob, carol):
    game = create_game(alice, players=3, visibility=Game.Visibility.PRIVATE)
    join_game(bob, game.pk, game.invite_code)
    join_game(carol, game.pk, game.invite_code)
    game.refresh_from_db()
    people = [alice, bob, carol]
    ready_for(game, people, alice)
    said = {}

    async def scenario():
        page = await Stream(bob, game.pk, invite=game.invite_code).open()
        await page.next()
        assert await sync_to_async(move_by)(game, people, alice)
        said["table"] = await page.next()

    read(scenario)
    kind, _, html = said["table"]
    assert kind == "table"
    assert f"invite={game.invite_code}" in html, "its links keep the code, as the poll's do"


def test_a_language_given_up_since_the_stream_opened_no_longer_holds(alice, bob, carol):
    alice.language = "fr"
    alice.save(update_fields=["language"])
    people = [alice, bob, carol]
    game = started(*people)
    ready_for(game, people, bob)
    said = {}

    async def scenario():
        page = await Stream(alice, game.pk).open(HTTP_ACCEPT_LANGUAGE="en")
        await page.next()
        await sync_to_async(type(alice).objects.filter(pk=alice.pk).update)(language="")
        assert await sync_to_async(move_by)(game, people, bob)
        said["table"] = await page.next()

    read(scenario)
    html = said["table"][2]
    game.refresh_from_db()
    expected = Client(HTTP_ACCEPT_LANGUAGE="en")
    expected.force_login(alice)
    polled = expected.get(
        reverse("game_poll", args=[game.pk]), {"version": 0}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert CSRF.sub("", html) == CSRF.sub("", polled.strip()), "the browser's language, English"
