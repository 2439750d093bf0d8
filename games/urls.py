from django.urls import path

import core.converters  # noqa: F401  (registers <pid:...> and <username:...>)
from games import views, views_history, views_profile

urlpatterns = [
    path("play/", views.play, name="play"),
    path("m/<pid:public_id>/", views.match_page, name="match"),
    path("m/<pid:public_id>/move/", views.match_move, name="match_move"),
    path("m/<pid:public_id>/leave/", views.match_leave, name="match_leave"),
    path("m/<pid:public_id>/pause/", views.match_pause, name="match_pause"),
    path("m/<pid:public_id>/resume/", views.match_resume, name="match_resume"),
    path("boards/<str:name>.svg", views.board_backdrop, name="board_backdrop"),
    path("m/<pid:public_id>/replay/", views_history.replay, name="replay"),
    path("m/<pid:public_id>/export.json", views_history.export, name="match_export"),
    path("matches/", views_history.my_history, name="my_history"),
    path("u/<username:username>/", views_profile.profile, name="profile"),
    path("u/<username:username>/matches/", views_history.history_page, name="history"),
    path("leaderboard/", views_profile.leaderboard, name="leaderboard"),
    path("leaderboard/<str:kind>/", views_profile.leaderboard, name="leaderboard_kind"),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<str:kind>/", views.rules_page, name="rules"),
]
