from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Django's user admin, with the chat bar beside the account's permissions, and whether the
    account is a bot account (shown, not changed here: it is set once, by its owner)."""

    list_filter = [*UserAdmin.list_filter, "chat_barred", "bot_account"]
    fieldsets = [*UserAdmin.fieldsets, (None, {"fields": ["chat_barred", "bot_account"]})]
    readonly_fields = ["bot_account"]
