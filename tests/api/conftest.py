from tests.games.conftest import act, alice, bob, clock, make_person  # noqa: F401 (fixtures)
