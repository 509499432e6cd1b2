from django.urls import path

from games import stream, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
    path("stats/", views.site_stats, name="stats"),
    path("games/", views.games_in_play, name="games_in_play"),
    path("games/new/", views.create, name="game_create"),
    path("games/<int:pk>/", views.game, name="game"),
    path("games/<int:pk>/poll/", views.poll, name="game_poll"),
    path("games/<int:pk>/events/", stream.events, name="game_events"),
    path("games/<int:pk>/move/", views.move, name="game_move"),
    path("games/<int:pk>/join/", views.join, name="game_join"),
    path("games/<int:pk>/leave/", views.leave, name="game_leave"),
    path("games/<int:pk>/add-bot/", views.add_bot, name="game_add_bot"),
    path("games/<int:pk>/seat-bot/", views.seat_bot_account, name="game_seat_bot_account"),
    path("games/<int:pk>/remove-bot/", views.remove_bot, name="game_remove_bot"),
    path("games/<int:pk>/start/", views.start, name="game_start"),
    path("games/<int:pk>/invite/", views.invite_player, name="game_invite_player"),
    path("games/<int:pk>/back/", views.come_back, name="game_come_back"),
    path("games/<int:pk>/resign/", views.resign, name="game_resign"),
    path("games/<int:pk>/abort/", views.abort, name="game_abort"),
    path("games/<int:pk>/rematch/", views.rematch, name="game_rematch"),
    path("games/<int:pk>/chat/", views.chat, name="game_chat"),
    path("games/<int:pk>/chat/report/", views.report_chat, name="game_chat_report"),
    path("games/<int:pk>/replay/", views.replay, name="game_replay"),
    path("games/<int:pk>/log/", views.move_log, name="game_log"),
    path("invite/<str:code>/", views.invite, name="game_invite"),
    path("vacation/", views.vacation, name="vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
