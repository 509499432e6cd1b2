from tests.games.conftest import act, alice, bob, carol, clock, make_person  # noqa: F401 (fixtures)
