"""The admin shows games and their records read-only: every change to a game goes through
games.actions (a management command or the site), never through an admin form."""

from django.contrib import admin

from games.models import BoardToken, Game, MoveRecord, Play, Round, Seat, SentEmail, Trick, Vacation


class ReadOnly(admin.ModelAdmin):
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
    inlines = [SeatInline]


@admin.register(MoveRecord)
class MoveRecordAdmin(ReadOnly):
    list_display = ["game", "number", "round", "seat", "by_bot", "timeout", "created_at"]
    list_filter = ["by_bot", "timeout"]


for model in (Round, BoardToken, Trick, Play, Vacation, SentEmail):
    admin.site.register(model, ReadOnly)
