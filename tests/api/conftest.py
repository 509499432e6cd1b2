from tests.games.conftest import clock  # noqa: F401 (a fixture)
