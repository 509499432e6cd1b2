"""Rematches become offers (``RematchOffer``): the new game is made only once every person of
the finished game accepted. The open rematch tables of before (their seats kept for the old
game's players) are closed as expired tables are, since nothing keeps their seats any more."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def close_open_rematch_tables(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(status="open", rematch_of__isnull=False).update(
        status="aborted", aborted_by=None, finished_at=django.utils.timezone.now()
    )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0016_email_fate_sending'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='RematchOffer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('asked_at', models.DateTimeField()),
                ('expires_at', models.DateTimeField()),
                ('accepted', models.JSONField(default=list)),
                ('outcome', models.CharField(choices=[('open', 'waiting for answers'), ('accepted', 'accepted: the rematch started'), ('declined', 'declined'), ('cancelled', 'cancelled'), ('expired', 'expired')], default='open', max_length=9)),
                ('ended_at', models.DateTimeField(blank=True, null=True)),
                ('asked_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('ended_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rematch_offers', to='games.game')),
                ('new_game', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.game')),
            ],
            options={
                'ordering': ['-pk'],
                'indexes': [models.Index(condition=models.Q(('outcome', 'open')), fields=['expires_at'], name='rematch_offer_due')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('outcome', 'open')), fields=('game',), name='rematch_offer_open_once')],
            },
        ),
        migrations.RunPython(close_open_rematch_tables, migrations.RunPython.noop),
    ]
