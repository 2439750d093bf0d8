"""What notifications do when an account closes (``accounts.closing``) and
what they add to an account's data file (``accounts.data``)."""

from __future__ import annotations

from notifications.models import KINDS, MailSettings


def on_account_closing(sender, user, **kwargs) -> None:
    """The account's mail settings go (switches, digest time, bounced address)."""
    MailSettings.objects.filter(user=user).delete()


def collect_data(sender, user, **kwargs) -> dict:
    """``mail_settings``: each kind of mail on or off (no row: all on)."""
    row = MailSettings.objects.filter(user=user).first()
    return {"mail_settings": {kind: (getattr(row, kind) if row else True) for kind in KINDS}}
