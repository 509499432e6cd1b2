from django.urls import path

from . import views

urlpatterns = [
    path("players/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.profile, name="profile"),
    path("players/<str:username>/games/<str:which>/", views.player_games, name="player_games"),
    path("settings/", views.settings, name="settings"),
    path("settings/delete/", views.delete, name="account_delete"),
]
