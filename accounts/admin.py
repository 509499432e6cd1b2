from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Django's user admin, with the chat bar beside the account's permissions."""

    list_filter = [*UserAdmin.list_filter, "chat_barred"]
    fieldsets = [*UserAdmin.fieldsets, (None, {"fields": ["chat_barred"]})]
