from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from .models import PushDevice, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Django's user admin, with the chat bar beside the account's permissions, and whether the
    account is a bot account (shown, not changed here: it is set once, by its owner)."""

    list_filter = [*UserAdmin.list_filter, "chat_barred", "bot_account"]
    fieldsets = [*UserAdmin.fieldsets, (None, {"fields": ["chat_barred", "bot_account"]})]
    readonly_fields = ["bot_account"]


@admin.register(PushDevice)
class PushDeviceAdmin(admin.ModelAdmin):
    """The browsers that take push notifications, read-only: only a browser subscribes. Staff
    may delete one (the player then gets nothing there until that browser subscribes again).
    The endpoint and the keys are not shown: with them anyone could send to the browser."""

    list_display = ["user", "browser", "service", "created_at", "last_used_at"]
    fields = list_display
    readonly_fields = list_display
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user"]
    ordering = ["-created_at"]

    @admin.display(description=_("push service"))
    def service(self, device: PushDevice) -> str:
        return device.service

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
