"""The search by name (docs/features.md "Finding and following players"):
active accounts whose name starts with what was typed, case-insensitively,
in name order, a page at a time.

The name is compared lowered, as a range: ``lower(username)`` from the
query up to the query with its last character's successor (every name that
starts with it and no other, in code-point order). No LIKE, so ``%``, ``_``
and ``\\`` are letters like any other. Each page starts after the last name
of the one before (``after``), never at an offset: any page costs one short
index range (docs/decisions.md "Finding and following players").

The index: on PostgreSQL ``people_user_username_prefix`` (migration 0001),
``lower(username) COLLATE "C"`` over active accounts, which serves the
range and the order in code-point order whatever the database's own
collation; on SQLite the accounts' own unique index on ``lower(username)``
(BINARY, code-point order already).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.db import connection
from django.db.models import Func
from django.db.models.functions import Collate, Lower
from django.utils.translation import gettext_lazy

from accounts.models import User

#: Names per page.
PAGE = 20
#: The longest query: a name is at most this long, so a longer one matches nothing.
MAX_QUERY = User._meta.get_field("username").max_length


class SearchForm(forms.Form):
    q = forms.CharField(max_length=MAX_QUERY, required=True, strip=True, error_messages={
        "required": gettext_lazy("Type the start of a player's name."),
        # Django's MaxLengthValidator fills in limit_value (MAX_QUERY).
        "max_length": gettext_lazy("A name is at most %(limit_value)d characters: type its start."),
    })
    after = forms.CharField(max_length=MAX_QUERY, required=False, strip=False)


@dataclass
class Results:
    names: list[str]
    next_after: str | None  # where the next page starts; None on the last page
    bots: frozenset[str] = frozenset()  # the names of bot accounts among ``names`` (marked BOT)


def name_key() -> Func:
    """The lowered name as the index holds it (see the module)."""
    lowered = Lower("username")
    return Collate(lowered, "C") if connection.vendor == "postgresql" else lowered


def successor(text: str) -> str | None:
    """The smallest string greater than every string that starts with ``text``
    (None: there is none, ``text`` ends with the last code point)."""
    while text and ord(text[-1]) == 0x10FFFF:
        text = text[:-1]
    if not text:
        return None
    following = ord(text[-1]) + 1
    if 0xD800 <= following <= 0xDFFF:  # surrogates are no characters: past them
        following = 0xE000
    return text[:-1] + chr(following)


def search(query: str, after: str = "") -> Results:
    """A page of the active accounts whose name starts with ``query`` (not
    empty, at most MAX_QUERY characters: the form checks), case-insensitively,
    after the lowered name ``after`` (the previous page's ``next_after``)."""
    prefix = query.lower()
    rows = User.objects.filter(is_active=True).annotate(key=name_key()).filter(key__gte=prefix)
    end = successor(prefix)
    if end is not None:
        rows = rows.filter(key__lt=end)
    if after:
        rows = rows.filter(key__gt=after)
    found = list(rows.order_by("key").values_list("username", "key", "is_bot")[:PAGE + 1])
    page = found[:PAGE]
    return Results([name for name, _key, _bot in page], page[-1][1] if len(found) > PAGE else None,
                   frozenset(name for name, _key, bot in page if bot))
