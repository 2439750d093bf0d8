from django.urls import path

from notifications import views

urlpatterns = [
    path("account/mail/", views.mail_settings, name="mail_settings"),
    path("mail/unsubscribe/<str:token>/", views.unsubscribe, name="mail_unsubscribe"),
]
