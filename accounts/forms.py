from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core import validators
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import closing, languages
from accounts.middleware import ban_message
from accounts.models import User


class LoginForm(AuthenticationForm):
    """Django's log-in form; a banned user with the right password is told
    why they cannot log in (and until when) instead of "wrong password". A
    username longer than any account's (150 characters) is refused as too
    long (Django's form sets the field's max_length after its validators).
    Django's "both fields may be case-sensitive" is not true here: a username
    matches whatever its case (accounts.models)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": gettext_lazy("That username and password do not match an account. "
                                      "Capitals count in the password, not in the username."),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(validators.MaxLengthValidator(field.max_length))

    def clean(self):
        try:
            return super().clean()
        except forms.ValidationError:
            try:
                user = User.objects.get_by_natural_key(self.cleaned_data.get("username") or "")
            except User.DoesNotExist:
                user = None
            if user is not None and user.is_banned and user.check_password(
                self.cleaned_data.get("password") or ""
            ):
                raise forms.ValidationError(ban_message(user), code="banned") from None
            raise


class SignUpForm(UserCreationForm):
    """Username, email and password (twice), checked by Django's password validators.

    Usernames are unique regardless of case. The email is never checked
    against other accounts here (no oracle: docs/features.md "Confirming
    your e-mail"); the account starts unconfirmed, and the mail to the
    address tells its owner if another account confirmed it already.
    """

    email = forms.EmailField(label=gettext_lazy("Email"), max_length=254,
                             help_text=gettext_lazy("We mail you a link to confirm it."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That username is taken."), code="duplicate_username")
        if username and closing.name_reserved(username):
            raise forms.ValidationError(
                _("That username belonged to an account closed less than %(days)d days ago, "
                  "or is kept for closed accounts: please choose another.") % {"days": closing.RESERVED_DAYS},
                code="reserved_username")
        return username

    def clean_email(self):
        return User.objects.normalize_email(self.cleaned_data["email"])

    def save(self, commit=True):
        user = super().save(commit=False)
        user.email_confirmed = False
        # The language the form was read in becomes the account's
        # (docs/i18n.md "E-mail": its mail is written in it).
        user.language = languages.current() or ""
        if commit:
            user.save()
        return user


class EmailChangeForm(forms.Form):
    """A new e-mail address, with the account's password (a session left
    open somewhere must not move the account's mail, and so its password
    resets, elsewhere). Never says whether another account has the address."""

    email = forms.EmailField(label=gettext_lazy("New e-mail address"), max_length=254)
    password = forms.CharField(label=gettext_lazy("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="password_incorrect")
        return password


class ConfirmedPasswordResetForm(PasswordResetForm):
    """Django's reset form, mailing only accounts whose address is confirmed
    (an unconfirmed address may be anyone's)."""

    def __init__(self, *args, language: str | None = None, **kwargs):
        self.language = language
        super().__init__(*args, **kwargs)

    def get_users(self, email):
        return (user for user in super().get_users(email) if user.email_confirmed)

    def send_mail(self, *args, **kwargs):
        """Django's mail (subject and body rendered here) in the account's
        language, else the form's (``language``: the request's), else English."""
        context = args[2] if len(args) > 2 else kwargs["context"]
        with languages.speaking(context["user"], self.language):
            super().send_mail(*args, **kwargs)


class HolidayForm(forms.Form):
    """The first and last day of a holiday (``accounts.holidays.book_holiday``)."""

    starts_on = forms.DateField(label=gettext_lazy("First day"),
                                widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
