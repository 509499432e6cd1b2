"""The API tests' fixtures: the clock, and a program calling as alice."""

import pytest

from tests.api.helpers import Caller
from tests.games.conftest import clock  # noqa: F401 (a fixture)


@pytest.fixture
def caller(alice):
    return Caller(alice)
