"""Django's own texts that the sign-up, log-in and password pages show (field
labels, the password validators' rules, form errors), listed word for word so
that ``make messages`` puts them in our catalogue (docs/i18n.md, "Django's own
texts on the sign-in pages"). Our catalogue comes first (LOCALE_PATHS), so these read in
the site's register and terms (docs/glossary.md: *du*, everyday Hindi) beside
our own texts on the same page, and in Hindi at all: Django's Hindi catalogue
lacks most of them. Nothing imports this module; Django translates the texts
where it uses them. A Django upgrade that rewords one of them leaves its old
entry unused here, and the page shows Django's own translation again.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

# Translators: Django's own texts (django.contrib.auth, django.forms), shown on the
# sign-up, log-in and password pages beside the site's: use the site's words for them.
DJANGO_TEXTS = (
    gettext_noop("username"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("A user with that username already exists."),
    gettext_noop("Enter a valid username. This value may contain only letters, numbers, and "
                 "@/./+/-/_ characters."),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("This account is inactive."),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid email address."),
    ngettext_lazy("This password is too short. It must contain at least %d character.",
                  "This password is too short. It must contain at least %d characters."),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters."),
    ngettext_lazy("Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
                  "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d)."),
)
