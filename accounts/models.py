"""Users and their public profiles. This app's models know no other app."""

from datetime import UTC, datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import elo

#: ``banned_until`` of a permanent ban: far enough never to pass.
BAN_FOREVER = datetime(9999, 1, 1, tzinfo=UTC)

#: A closed account's username starts with this (``accounts.closing``), and
#: sign-up refuses names that do: the name alone tells a closed account, so
#: every page that has a seat's user shows "deleted player" with no query more.
TOMBSTONE_PREFIX = "deleted-"
#: What every page shows for a closed account's name.
DELETED_NAME = "deleted player"


class ParlourUserManager(UserManager):
    def get_by_natural_key(self, username):
        """Log-in finds the account whatever the case of the name typed
        (usernames are unique regardless of case). Raises
        ``User.DoesNotExist`` for no account, and also for a name longer than
        a username may be (150 characters: SQLite refuses such a pattern) or
        one that matches several accounts only by the database's case rules
        and none by lower case (PostgreSQL's UPPER turns a dotless ı into I:
        "ıris" and "iris" are two accounts)."""
        field = self.model.USERNAME_FIELD
        if not isinstance(username, str) or len(username) > self.model._meta.get_field(field).max_length:
            raise self.model.DoesNotExist(f"no account is named {username!r:.60}")
        found = list(self.filter(**{f"{field}__iexact": username})[:3])
        if len(found) > 1:
            found = [user for user in found if getattr(user, field).lower() == username.lower()]
        if len(found) != 1:
            raise self.model.DoesNotExist(f"no account is named {username!r:.60}")
        return found[0]


class User(AbstractUser):
    """A Parlour account. Usernames are unique regardless of case; so are
    confirmed e-mail addresses (``accounts.confirmation``): an unconfirmed
    address is held against no one, and the first account to confirm it
    keeps it."""

    email = models.EmailField(_("email address"))
    # docs/features.md "Confirming your e-mail": True for accounts made by
    # createsuperuser, the admin and tests; a sign-up starts False. Set only by
    # accounts.confirmation (and the admin).
    email_confirmed = models.BooleanField(
        _("e-mail confirmed"), default=True,
        help_text=_("The owner of the address clicked its confirmation link "
                    "(or a moderator made the account)."),
    )
    # A new address asked for by a confirmed account, kept here until its link
    # is clicked (the confirmed one still gets the mail until then).
    pending_email = models.EmailField(_("new e-mail address, waiting for its confirmation"), blank=True,
                                      editable=False)
    bio = models.CharField(max_length=280, blank=True)
    # Moderation (README "Moderation"): set only by moderation.actions.ban_user / unban_user.
    banned_until = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text=_("Banned until this moment (9999-01-01: a permanent ban); empty: not banned."),
    )
    ban_reason = models.CharField(max_length=500, blank=True, editable=False)
    # README "Times": set from the browser (accounts.views.set_time_zone).
    time_zone = models.CharField(
        max_length=64, blank=True, editable=False,
        help_text=_("The IANA time zone this person's times are shown in (from their browser); empty: UTC."),
    )

    # docs/i18n.md: the language this person reads the site and their mail in,
    # one of settings.LANGUAGES; empty: not chosen yet (their browser's, and
    # for mail the site's default). Set by the language menu (accounts.languages).
    language = models.CharField(
        _("language"), max_length=16, blank=True, editable=False,
        help_text=_("The language this person chose for the site and their e-mail; empty: their browser's."),
    )

    # docs/api.md "Bot accounts": set only by accounts.tokens.make_bot (an
    # account with no rated match may become a bot, for good). A bot is marked
    # BOT wherever its name appears, never enters a ranked queue, and has its
    # own leaderboard.
    is_bot = models.BooleanField(_("bot account"), default=False, editable=False,
                                 help_text=_("Plays through the API with a play-scoped token; "
                                             "never a person."))

    objects = ParlourUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="user_username_ci_unique"),
            models.UniqueConstraint(Lower("email"), name="user_confirmed_email_ci_unique",
                                    condition=models.Q(email_confirmed=True) & ~models.Q(email=""),
                                    violation_error_message=_("Another account has this e-mail address, "
                                                              "confirmed.")),
        ]

    def __str__(self):
        return self.username

    @property
    def is_closed(self) -> bool:
        """The account was closed by its owner (``accounts.closing``)."""
        return self.username.startswith(TOMBSTONE_PREFIX)

    @property
    def display_name(self) -> str:
        """The name pages show: the username, "deleted player" once closed."""
        return DELETED_NAME if self.is_closed else self.username

    @property
    def is_banned(self) -> bool:
        """True while ``banned_until`` is in the future (a suspension ends by itself)."""
        return self.banned_until is not None and self.banned_until > timezone.now()

    @property
    def is_banned_forever(self) -> bool:
        return self.banned_until is not None and self.banned_until >= BAN_FOREVER


class Rating(models.Model):
    """A user's current Elo rating in one game kind (README "Ranked play").

    ``kind`` is the game kind string ("ludo", "roundabout", "rondo"); this app
    knows no other app, so it is a plain string here. ``rating`` and ``peak``
    are rating points, unrounded (round only for display). Only
    ``accounts.ratings`` writes these rows: a match's results applied, in the
    match's finishing transaction, or taken back when a moderator voids it.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=16)
    rating = models.FloatField(default=elo.INITIAL_RATING)
    games = models.PositiveIntegerField(_("rated games played"), default=0)
    peak = models.FloatField(default=elo.INITIAL_RATING)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_user_kind")]
        indexes = [models.Index(fields=["kind", "-rating"], name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user} {self.kind} {self.display}"

    @property
    def provisional(self) -> bool:
        """Fewer than 20 rated games (K = 40, shown with a "?")."""
        return elo.is_provisional(self.games)

    @property
    def display(self) -> str:
        """The rating rounded, "1500?" while provisional."""
        return elo.display(self.rating, self.games)


class Holiday(models.Model):
    """A player's holiday (``accounts.holidays``, docs/features.md "Turn-based
    play"): the days ``starts_on`` to ``ends_on``, both included, in the time
    zone the player had when booking; ``starts_at``..``ends_at`` is the same
    span as moments (from that zone's midnight, or from the booking when it
    starts the same day, to the midnight after ``ends_on``), which the
    turn-based clocks stop for."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="holidays")
    starts_on = models.DateField()
    ends_on = models.DateField()
    starts_at = models.DateTimeField(editable=False)
    ends_at = models.DateTimeField(editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="holiday_user_ends")]
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_on__gte=models.F("starts_on")),
                                   name="holiday_ends_on_or_after_start"),
        ]

    def __str__(self):
        return f"{self.user} on holiday {self.starts_on} to {self.ends_on}"

    @property
    def days(self) -> int:
        return (self.ends_on - self.starts_on).days + 1


class Block(models.Model):
    """``blocker`` blocked ``blocked`` (``accounts.blocks``, docs/features.md
    "Blocking a player"). Only ``accounts.blocks`` writes these rows."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["blocker", "-created_at"]
        # The unique pair is also the index of "whom did X block"; "who blocked Y" has its own.
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_blocked")]

    def __str__(self):
        return f"{self.blocker} blocked {self.blocked}"


class ReleasedName(models.Model):
    """The username of a closed account, held back from sign-up for
    ``accounts.closing.RESERVED_DAYS`` so nobody takes it up to pass for its
    owner (docs/features.md "Closing your account"). Lower case."""

    name = models.CharField(max_length=150, unique=True)
    released_at = models.DateTimeField(db_index=True)

    def __str__(self):
        return f"{self.name} (released {self.released_at:%Y-%m-%d})"


class DataExport(models.Model):
    """A copy of one account's data, made by ``accounts.tasks.export_data``
    for an account too large to get it at once (``accounts.data``), kept
    until its download link expires (``accounts.data.LINK_DAYS``)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="data_exports")
    created_at = models.DateTimeField(db_index=True)
    content = models.TextField(help_text=_("The JSON file."))

    def __str__(self):
        return f"data of {self.user_id} at {self.created_at:%Y-%m-%d %H:%M}"


class ApiToken(models.Model):
    """A personal API token (docs/api.md "Tokens"): made and revoked by its
    owner in the account settings, shown once, stored as the SHA-256 of its
    text (a token is 256 random bits, so no slow hash is needed). Only
    ``accounts.tokens`` writes these rows.

    ``scopes``: space-separated, each in ``accounts.tokens.SCOPES`` ("play":
    play as this account, bot accounts only; "read": read this account's
    matches and watch public ones)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=40,
                            help_text=_("The owner's name for it (e.g. the program that uses it)."))
    digest = models.CharField(max_length=64, unique=True, editable=False,
                              help_text=_("SHA-256 of the token's text, hex."))
    # The token's first characters, shown in the settings so its owner can tell tokens apart.
    prefix = models.CharField(max_length=12, editable=False)
    scopes = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # Written at most once a minute per token (accounts.tokens.LAST_USED_EVERY).
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["user", "revoked_at"], name="apitoken_user_live")]

    def __str__(self):
        return f"{self.prefix}… ({self.name}) of {self.user_id}"

    @property
    def scope_set(self) -> frozenset[str]:
        return frozenset(self.scopes.split())

    @property
    def live(self) -> bool:
        return self.revoked_at is None
