# The constraints apart from 0009's deletions: on PostgreSQL a table cannot be altered in the
# transaction that deleted rows with deferred foreign-key checks pending.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_records_from_the_engine"),
    ]

    operations = [
        migrations.AlterField(
            model_name="trick",
            name="winner",
            field=models.PositiveSmallIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="boardtoken",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat__lte", 4)), name="token_seat_0_to_4"
            ),
        ),
        migrations.AddConstraint(
            model_name="boardtoken",
            constraint=models.CheckConstraint(
                condition=models.Q(("line__in", ("first", "discard", "trump", "super", "points"))),
                name="token_line_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="moverecord",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="move_number_from_1"
            ),
        ),
        migrations.AddConstraint(
            model_name="moverecord",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat__lte", 4)), name="move_seat_0_to_4"
            ),
        ),
        migrations.AddConstraint(
            model_name="play",
            constraint=models.UniqueConstraint(fields=("trick", "seat"), name="play_seat_once"),
        ),
        migrations.AddConstraint(
            model_name="play",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat__lte", 4)), name="play_seat_0_to_4"
            ),
        ),
        migrations.AddConstraint(
            model_name="play",
            constraint=models.CheckConstraint(
                condition=models.Q(("order__lte", 4)), name="play_order_0_to_4"
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="round_number_from_1"
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("dealer__lte", 4)), name="round_dealer_0_to_4"
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("first__isnull", True), ("first__lte", 4), _connector="OR"),
                name="round_first_0_to_4",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("bonus__isnull", True), ("bonus__lte", 4), _connector="OR"),
                name="round_bonus_0_to_4",
            ),
        ),
        migrations.AddConstraint(
            model_name="trick",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="trick_number_from_1"
            ),
        ),
        migrations.AddConstraint(
            model_name="trick",
            constraint=models.CheckConstraint(
                condition=models.Q(("leader__lte", 4)), name="trick_leader_0_to_4"
            ),
        ),
        migrations.AddConstraint(
            model_name="trick",
            constraint=models.CheckConstraint(
                condition=models.Q(("winner__lte", 4)), name="trick_winner_0_to_4"
            ),
        ),
    ]
