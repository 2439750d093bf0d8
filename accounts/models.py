"""Users and their public profiles. This app's models know no other app."""

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    """A Parlour account. Usernames and emails are unique regardless of case."""

    email = models.EmailField("email address")
    bio = models.CharField(max_length=280, blank=True)

    objects = UserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="user_username_ci_unique"),
            models.UniqueConstraint(Lower("email"), name="user_email_ci_unique"),
        ]

    def __str__(self):
        return self.username
