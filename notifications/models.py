"""What the site's mail to a player needs to remember (docs/features.md,
"E-mail when it is your turn"). This app sits below ``games`` (``.importlinter``),
so a match is named here by its id, without a foreign key."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The kinds of mail a player can switch off, each a field of ``MailSettings``:
#: kind -> what the settings page, the unsubscribe page and the mail call it.
KINDS = {
    "your_turn": _("Your turn"),
    "reminders": _("Reminders"),
    "results": _("Results"),
}
#: What each kind is, as the settings page and the unsubscribe page say it.
KIND_HELP = {
    "your_turn": _("When a turn-based match waits for your move: at most one mail an hour, listing "
                   "every match that waits for you."),
    "reminders": _("When a decision of yours has less than a quarter of its time left, once per decision."),
    "results": _("When a turn-based match of yours ends."),
}


class MailSettings(models.Model):
    """One player's mail switches, when their last "your turn" digest went,
    and the address that bounced. A player without a row gets every kind."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="mail_settings")
    your_turn = models.BooleanField(_("your turn"), default=True)
    reminders = models.BooleanField(default=True)
    results = models.BooleanField(default=True)
    last_digest_at = models.DateTimeField(null=True, blank=True,
                                          help_text=_("When the last \"your turn\" digest was queued."))
    # An SMTP 5xx refused this address: nothing is mailed while the account's
    # address is still this one (a change of address mails again).
    bounced_address = models.EmailField(blank=True)
    bounced_at = models.DateTimeField(null=True, blank=True)
    bounce_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name_plural = _("mail settings")

    def __str__(self):
        return f"mail settings of {self.user_id}"

    def bounced(self, email: str) -> bool:
        """Whether ``email`` (the account's address now) is the one that bounced."""
        return bool(self.bounced_address) and self.bounced_address == email


class MatchMail(models.Model):
    """Which decision of a turn-based match its player was told about: the
    match's ``ply_count`` when the digest that listed it, and the reminder,
    went (a decision is the match at one ply: the seat to move is fixed there).
    Deleted when the match ends."""

    match_id = models.BigIntegerField(primary_key=True, help_text="games.Match id (no foreign key: "
                                                                    "this app sits below games).")
    digest_ply = models.PositiveIntegerField(null=True, blank=True)
    reminder_ply = models.PositiveIntegerField(null=True, blank=True)

    def __str__(self):
        return f"mail of match {self.match_id}"
