"""Database connections stay bounded whatever the server does with threads. Issue 12 found a
development server (a thread per request) holding 86 connections in a burst, then PostgreSQL's
"too many clients" errors for everyone. With the pool (nyet_site/settings.py) a burst waits for a
few connections: here the database lets the site's role have only a handful, and fifty requests
arriving at once all get their page."""

import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games.actions import create_game, join_game

pytestmark = pytest.mark.postgres
BURST = 50
ROLE_LIMIT = 4  # connections PostgreSQL allows the site's role, all processes together
POOL = 3  # the pool's size in this test: within the limit, and far below the burst


@pytest.fixture
def few_connections(on_postgres, transactional_db):
    """The site connects as a role limited to ROLE_LIMIT connections, through a pool of POOL."""
    settings = connection.settings_dict
    role = f"{settings['NAME']}_few"[:63]
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{role}"' if _role_exists(cursor, role) else "SELECT 1")
        cursor.execute(f'DROP ROLE IF EXISTS "{role}"')
        cursor.execute(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT {ROLE_LIMIT}')
        cursor.execute(f'GRANT USAGE ON SCHEMA public TO "{role}"')
        cursor.execute(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO "{role}"')
        cursor.execute(f'GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
    saved_user, saved_pool = settings["USER"], dict(settings["OPTIONS"]["pool"])
    settings["USER"] = role
    settings["OPTIONS"]["pool"].update(min_size=1, max_size=POOL)
    connection.close()
    connection.close_pool()
    yield
    connection.close()
    connection.close_pool()
    settings["USER"] = saved_user
    settings["OPTIONS"]["pool"].clear()
    settings["OPTIONS"]["pool"].update(saved_pool)
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{role}"')
        cursor.execute(f'DROP ROLE "{role}"')


def _role_exists(cursor, role: str) -> bool:
    cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
    return cursor.fetchone() is not None


def test_fifty_requests_at_once_share_a_few_connections_and_none_fails(
    few_connections, live_server, django_user_model
):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", "pw")
    bob = django_user_model.objects.create_user("bob", "bob@example.com", "pw")
    game = create_game(alice, players=2)
    join_game(bob, game.pk)
    urls = [
        f"{live_server.url}/games/{game.pk}/",
        f"{live_server.url}/games/{game.pk}/poll/?version=0",
        f"{live_server.url}/",
        f"{live_server.url}/players/alice/",
    ]
    barrier = threading.Barrier(BURST)

    def fetch(k):
        barrier.wait()
        try:
            with urllib.request.urlopen(urls[k % len(urls)], timeout=120) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    with ThreadPoolExecutor(max_workers=BURST) as threads:
        statuses = list(threads.map(fetch, range(BURST)))
    assert statuses == [200] * BURST


@pytest.mark.django_db(transaction=True)
def test_open_game_pages_do_not_hold_the_pool_s_connections(
    on_postgres, tmp_path, client, django_user_model
):
    """Each open page holds an event stream for minutes; a stream that kept the connection it
    read with emptied a pool of ten with ten pages, and every page after waited, then failed."""
    import urllib.request

    from games.actions import create_game
    from tests.games.streams import Events
    from tests.servers import serve, stop

    alice = django_user_model.objects.create_user("alice", "alice@example.com", "pw")
    game = create_game(alice, players=3)
    client.force_login(alice)  # her pages load her, and record her presence, as pages do
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    pool = 2
    server, port = serve(
        connection.settings_dict["NAME"],
        "",
        tmp_path,
        DATABASE_POOL_SIZE=str(pool),
        DATABASE_POOL_TIMEOUT="3",
    )
    try:
        pages = [Events(port, game.pk, cookie) for _ in range(pool * 3)]
        assert [page.next_version() for page in pages] == [0] * len(pages)
        page = urllib.request.Request(
            f"http://127.0.0.1:{port}/games/{game.pk}/", headers={"Cookie": cookie}
        )
        with urllib.request.urlopen(page, timeout=30) as answer:
            assert answer.status == 200
        for page in pages:
            page.close()
    finally:
        stop(server, connection)
