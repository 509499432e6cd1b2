"""Migration 0014 works the name keys out again by the pure-Python skeleton: a player saved under
the old keys is compared with new names by today's rule."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.names import name_key

BEFORE = [("accounts", "0013_play_forced_cards")]
AFTER = [("accounts", "0014_recompute_name_keys")]


@pytest.mark.django_db(transaction=True)
def test_existing_players_keys_are_recomputed():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    # As PyICU's key left it: without i and l as one letter.
    old.objects.create(
        username="alice", username_key="alice", display_name="Ivan", display_name_key="ivan"
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("accounts", "User")
    user = new.objects.get(username="alice")
    assert user.username_key == name_key("alice") == name_key("aIice")
    assert user.display_name_key == name_key("Ivan") != "ivan"
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
