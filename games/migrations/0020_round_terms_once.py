"""The round's first player, teams and bonus card's holder were stored twice: on the Round and
in its RoundSeat rows (``first``, ``team``, ``bonus``). They stay on the RoundSeat only; while a
round is in play they are in the game's state (``manage.py rebuild_records`` writes every record
again from the log)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_invitation_answer"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="round", name="round_first_0_to_4"),
        migrations.RemoveConstraint(model_name="round", name="round_bonus_0_to_4"),
        migrations.RemoveField(model_name="round", name="bonus"),
        migrations.RemoveField(model_name="round", name="first"),
        migrations.RemoveField(model_name="round", name="teams"),
    ]
