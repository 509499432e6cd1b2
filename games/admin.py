"""The admin shows games and their records read-only: every change to a game goes through
games.actions (a management command or the site), never through an admin form."""

import json

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import (
    BoardToken,
    Game,
    Invitation,
    MoveRecord,
    Play,
    Round,
    Seat,
    SentEmail,
    Trick,
    Vacation,
)


class ReadOnly(admin.ModelAdmin):
    # Fields whose content is secret: not shown, and not filtered on either (the admin takes a
    # lookup on any field of the model from the URL, e.g. ?state__hands__0__contains=Y7, and
    # the count of results would tell what it hides).
    secret_fields: tuple[str, ...] = ()

    def lookup_allowed(self, lookup, value, request=None):
        if lookup.split("__")[0] in self.secret_fields:
            return False
        return super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["position", "user", "score", "deadline", "autopilot", "timeouts_in_a_row"]
    readonly_fields = fields
    can_delete = False
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnly):
    list_display = ["pk", "players", "status", "time_control", "version", "created_at"]
    list_filter = ["status", "time_control", "players"]
    exclude = ["seed", "state"]  # secrets: every hand of every round
    secret_fields = ("seed", "state")
    inlines = [SeatInline]


SECRET_MOVES = ("discard", "pass")


@admin.register(MoveRecord)
class MoveRecordAdmin(ReadOnly):
    """The move log, with the discards and passes of games in play kept secret: those cards are
    in no player's view but their own, and staff may be players too."""

    list_display = ["game", "number", "round", "seat", "shown_move", "by_bot", "timeout"]
    list_filter = ["by_bot", "timeout"]
    fields = ["game", "number", "round", "seat", "shown_move", "by_bot", "timeout", "created_at"]
    readonly_fields = fields
    list_select_related = ["game"]
    secret_fields = ("move",)

    @admin.display(description=_("move"))
    def shown_move(self, record: MoveRecord):
        secret = next((kind for kind in SECRET_MOVES if kind in record.move), None)
        if secret and record.game.status != Game.Status.FINISHED:
            return _("%(kind)s (secret until the game is over)") % {"kind": secret}
        return json.dumps(record.move)


for model in (Round, BoardToken, Trick, Play, Vacation, SentEmail, Invitation):
    admin.site.register(model, ReadOnly)
