from django.urls import path

from . import views

urlpatterns = [
    path("players/", views.leaderboard, name="leaderboard"),
    path("settings/", views.settings, name="settings"),
    path("settings/delete/", views.delete, name="account_delete"),
    path("settings/devices/", views.push_device_add, name="push_device_add"),
    path("settings/devices/<int:pk>/remove/", views.push_device_remove, name="push_device_remove"),
]
