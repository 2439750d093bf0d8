from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import (
    views,
    views_blocks,
    views_closing,
    views_email,
    views_holidays,
    views_language,
    views_tokens,
)
from accounts.forms import LoginForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("account/time-zone/", views.set_time_zone, name="set_time_zone"),
    path("language/", views_language.set_language, name="set_language"),
    path("account/holidays/", views_holidays.holidays_page, name="holidays"),
    path("account/blocked/", views_blocks.blocked_page, name="blocked_players"),
    path("account/email/", views_email.email_change, name="email_change"),
    path("account/email/sent/", views_email.email_sent, name="email_sent"),
    path("account/email/confirm/<str:token>/", views_email.email_confirm, name="email_confirm"),
    path("account/tokens/", views_tokens.tokens_page, name="api_tokens"),
    path("account/tokens/revoke/", views_tokens.token_revoke, name="api_token_revoke"),
    path("account/tokens/bot/", views_tokens.become_bot, name="become_bot"),
    path("account/close/", views_closing.close_page, name="close_account"),
    path("account/data/", views_closing.data_page, name="data_page"),
    path("account/data/<str:token>/", views_closing.data_download, name="data_download"),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LoginForm),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
