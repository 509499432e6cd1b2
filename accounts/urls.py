from django.urls import path

from . import views

urlpatterns = [
    path("players/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.profile, name="profile"),
    path("settings/", views.settings, name="settings"),
    path("settings/delete/", views.delete, name="account_delete"),
]
