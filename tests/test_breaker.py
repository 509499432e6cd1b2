"""The circuit breaker of the live push, the shared cache and the broker (common/breaker.py):
a failure pauses the service for its cool-down, then one try; an outage is logged once."""

import logging

import pytest

from common.breaker import Breaker

log = logging.getLogger("tests.breaker")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def breaker(clock):
    return Breaker("the service", 10.0, log=log, clock=clock)


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def fail(breaker: Breaker, what: str = "x") -> None:
    try:
        raise ConnectionError("refused")
    except ConnectionError:
        breaker.failed("could not %s", what)


def test_a_failure_pauses_the_service_for_its_cool_down_then_allows_one_try(breaker, clock):
    assert breaker.allows() and not breaker.out
    fail(breaker)
    assert not breaker.allows() and breaker.out
    clock.now += 9.99
    assert not breaker.allows(), "still cooling down"
    clock.now += 0.01
    assert breaker.allows(), "the cool-down is over: one try"
    fail(breaker)  # that try failed: another cool-down, from now
    assert not breaker.allows()
    clock.now += 10.0
    assert breaker.allows()
    breaker.succeeded()
    assert breaker.allows() and not breaker.out


def test_an_outage_is_logged_once_with_its_traceback_and_its_end_once(breaker, clock, caplog):
    with caplog.at_level(logging.INFO, logger="tests.breaker"):
        fail(breaker, "publish")
        for _ in range(3):  # the outage goes on: each try after a cool-down fails again
            clock.now += 10.0
            fail(breaker, "publish")
        assert warnings(caplog) == ["could not publish"]
        (record,) = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert record.exc_info is not None and "refused" in caplog.text
        clock.now += 10.0
        breaker.succeeded()
        breaker.succeeded()
        back = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
        assert back == ["the service answers again after 40 s"]
        fail(breaker, "publish again")  # a new outage: logged
    assert warnings(caplog) == ["could not publish", "could not publish again"]


def test_the_level_and_the_traceback_are_the_breaker_s(clock, caplog):
    quiet = Breaker("the cache", 10.0, log=log, level=logging.ERROR, traceback=False, clock=clock)
    with caplog.at_level(logging.INFO, logger="tests.breaker"):
        fail(quiet)
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and not record.exc_info


def test_reset_forgets_the_failure_so_the_next_one_is_logged(breaker, caplog):
    with caplog.at_level(logging.INFO, logger="tests.breaker"):
        fail(breaker, "one")
        breaker.reset()
        assert breaker.allows() and not breaker.out
        fail(breaker, "two")
    assert warnings(caplog) == ["could not one", "could not two"]
    assert not [r for r in caplog.records if r.levelno == logging.INFO], "reset is not a return"


def test_without_a_clock_given_the_breaker_reads_time_monotonic(monkeypatch):
    now = [50.0]
    monkeypatch.setattr("time.monotonic", lambda: now[0])
    breaker = Breaker("the service", 3.0, log=log, traceback=False)
    breaker.failed("down")
    assert not breaker.allows()
    now[0] += 3.0
    assert breaker.allows()
