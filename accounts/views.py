"""Sign-up (log in/out and passwords use Django's views; the public profile,
which shows matches, is ``games.views_profile.profile``)."""

from django.contrib.auth import login
from django.db import IntegrityError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import SignUpForm


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            user = form.save()
        except IntegrityError:
            # Two sign-ups with the same name at the same instant: the unique
            # constraint settles it, and the loser gets the form's error.
            form.add_error("username", "That username or email is taken.")
        else:
            login(request, user, backend="accounts.backends.ParlourBackend")
            return redirect("profile", username=user.username)
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)

