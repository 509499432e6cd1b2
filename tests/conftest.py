"""Tests marked ``postgres`` need a real PostgreSQL server (row locks, concurrent connections).

On the default SQLite database they are deselected (reported as deselected, not skipped);
``.ci/run`` runs the suite again with DATABASE_URL pointing at PostgreSQL, where they run.
"""

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres: needs PostgreSQL (runs when DATABASE_URL is set)")


def pytest_collection_modifyitems(config, items):
    from django.conf import settings

    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    keep = [item for item in items if item.get_closest_marker("postgres") is None]
    if len(keep) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep


@pytest.fixture
def on_postgres(settings):
    assert "postgresql" in settings.DATABASES["default"]["ENGINE"]
