from django.urls import path

from . import views

urlpatterns = [
    path("players/", views.leaderboard, name="leaderboard"),
    path("settings/", views.settings, name="settings"),
    path("settings/delete/", views.delete, name="account_delete"),
]
