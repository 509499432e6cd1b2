"""The admin shows games and their records read-only: every change to a game goes through
games.actions (a management command or the site), never through an admin form."""

import json

from django.contrib import admin, messages
from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from games import actions
from games.actions import notify
from games.models import (
    BoardToken,
    ChatMessage,
    ChatReport,
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


for model in (Round, BoardToken, Trick, Play, Vacation, Invitation):
    admin.site.register(model, ReadOnly)


@admin.register(SentEmail)
class SentEmailAdmin(ReadOnly):
    """Every email handed to the mail server, and whether it arrived there. One of unknown fate
    (the server took it and never answered) is not sent again by itself, since it may have
    arrived: staff filter them by fate and send one again when a duplicate is the lesser harm
    (games.actions.notify.resend)."""

    list_display = ["sent_at", "user", "kind", "key", "device", "fate"]  # device: a push message
    list_filter = ["fate", "kind"]
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user", "device__user"]
    ordering = ["-sent_at"]
    actions = ["resend"]

    def has_resend_permission(self, request) -> bool:
        """Sending again replaces the record: staff who may delete records, not only read."""
        return request.user.has_perm("games.delete_sentemail")

    @admin.action(
        description=_("Send the selected emails of unknown fate again"), permissions=["resend"]
    )
    def resend(self, request, queryset):
        selected = queryset.count()  # before: the emails sent again leave the selection
        queued = notify.resend(queryset)
        self.message_user(
            request,
            ngettext(
                "%(count)d email of unknown fate will be sent again, if it still makes sense.",
                "%(count)d emails of unknown fate will be sent again, if they still make sense.",
                queued,
            )
            % {"count": queued},
        )
        left = selected - queued
        if left > 0:
            self.message_user(
                request,
                ngettext(
                    "%(count)d selected email was not of unknown fate: not sent again.",
                    "%(count)d selected emails were not of unknown fate: not sent again.",
                    left,
                )
                % {"count": left},
                messages.WARNING,
            )


class ChatReportInline(admin.TabularInline):
    model = ChatReport
    fields = ["reporter", "created_at"]
    readonly_fields = fields
    can_delete = False
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly):
    """Table chat, for moderation: reported messages first; staff hide a message and bar its
    writer from chat (actions.hide_chat, actions.bar_from_chat), and delete nothing."""

    list_display = ["pk", "game", "user", "text", "created_at", "hidden", "reported"]
    list_filter = ["hidden", ("reports", admin.EmptyFieldListFilter)]
    search_fields = ["text", "user__username"]
    inlines = [ChatReportInline]
    actions = ["hide", "hide_and_bar"]

    def get_queryset(self, request):
        # Not super()'s: it orders by get_ordering before the count it orders by is made.
        return ChatMessage.objects.select_related("user", "game").annotate(
            report_count=Count("reports")
        )

    def get_ordering(self, request):
        # Not ``ordering`` (its check knows only the model's fields), nor the queryset's order
        # (the list puts the model's own order, by id, before it).
        return ["-report_count", "-pk"]

    @admin.display(description=_("reports"), ordering="report_count")
    def reported(self, message: ChatMessage) -> int:
        return message.report_count

    @admin.action(description=_("Hide the selected messages"))
    def hide(self, request, queryset):
        hidden = actions.hide_chat(queryset.order_by())  # an update refuses the count's order
        self.message_user(request, _("%(count)d messages hidden.") % {"count": hidden})

    @admin.action(description=_("Hide the selected messages and bar their writers from chat"))
    def hide_and_bar(self, request, queryset):
        queryset = queryset.order_by()  # an update refuses the order by a count of reports
        writers = User.objects.filter(pk__in=queryset.values("user_id"))
        barred = actions.bar_from_chat(writers)
        hidden = actions.hide_chat(queryset)
        self.message_user(
            request,
            _("%(hidden)d messages hidden, %(barred)d players barred from chat.")
            % {"hidden": hidden, "barred": barred},
        )
