"""Redis away for the live push (games/live, games/presence.py): one breaker for all that is
live in a process. The first failure, whoever meets it, pauses announcing, the watchers' count
and presence for ``PUBLISH_RETRY_AFTER`` seconds, and is logged once; after the cool-down one try
again; once Redis answers, everything uses it again."""

import logging

import pytest
from redis.exceptions import ConnectionError as RedisDown

from games import live, presence


class FlakyRedis:
    """A Redis client that fails while ``down``, and counts the calls that reach it."""

    def __init__(self) -> None:
        self.down = True
        self.calls: list[str] = []

    def _call(self, name: str):
        self.calls.append(name)
        if self.down:
            raise RedisDown("Connection refused")

    def publish(self, channel, message):
        self._call("publish")

    def pipeline(self, transaction=True):
        redis = self

        class Pipe:
            def __getattr__(self, name):
                return lambda *args, **kwargs: None

            def execute(self):
                redis._call("pipeline")

        return Pipe()

    def zrem(self, *args):
        self._call("zrem")

    def zrangebyscore(self, *args):
        self._call("zrangebyscore")
        return []


@pytest.fixture
def flaky(settings, monkeypatch):
    settings.REDIS_URL = "redis://127.0.0.1:6379/8"  # set, never dialled: the client is flaky
    redis = FlakyRedis()
    live.process.redis = redis  # live.reset (the autouse fixture) drops it after the test
    now = [1000.0]
    monkeypatch.setattr(live.process.breaker, "clock", lambda: now[0])
    return redis, now


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_one_failure_pauses_all_that_is_live_logs_once_then_one_try_after_the_cool_down(
    flaky, caplog
):
    redis, now = flaky
    with caplog.at_level(logging.INFO):
        presence.seen(7)  # presence meets the outage first
        assert redis.calls == ["pipeline"]
        live.announce(5, 1)
        live.watchers.came(5, "7:abc")
        assert live.watchers.count(5) == 1, "this process's count meanwhile"
        assert redis.calls == ["pipeline"], "nothing else tried Redis during the cool-down"

        now[0] += live.PUBLISH_RETRY_AFTER
        live.announce(5, 2)  # one try: it fails again
        live.announce(5, 3)
        assert redis.calls == ["pipeline", "publish"]
        assert warnings(caplog) == ["could not note who is online in Redis"], "one outage"

        now[0] += live.PUBLISH_RETRY_AFTER
        redis.down = False
        live.announce(5, 4)
        live.announce(5, 5)
        assert redis.calls == ["pipeline", "publish", "publish", "publish"], "back in use"
        assert "Redis (live) answers again after 20 s" in caplog.text

        redis.down = True
        live.watchers.left(5, "7:abc")  # a new outage: logged
    assert warnings(caplog) == [
        "could not note who is online in Redis",
        "could not count the watchers in Redis",
    ]


def test_reset_gives_a_new_client_from_the_redis_url_of_the_moment(settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/8"
    before = live.process.client()
    assert live.process.client() is before, "one client per process"
    settings.REDIS_URL = "redis://127.0.0.1:6379/9"
    live.reset()
    after = live.process.client()
    assert after is not before and after.connection_pool.connection_kwargs["db"] == 9
    assert live.hub is live.process.hub and live.watchers is live.process.watchers
