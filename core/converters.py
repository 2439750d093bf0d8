"""URL converters that refuse what can never name an object, before any query
runs (PostgreSQL rejects NUL bytes in text, for one).

Registered on import; every urls.py that uses them imports this module.
"""

from django.urls import register_converter


class PublicIdConverter:
    """A match's public id: 1-16 lowercase letters and digits."""

    regex = "[a-z0-9]{1,16}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class UsernameConverter(PublicIdConverter):
    """A username as Django's username validator allows it (letters, digits, @.+-_)."""

    regex = r"[\w.@+-]{1,150}"


class RoomCodeConverter(PublicIdConverter):
    """A room code (matchmaking.rooms: 6 letters and digits; any case accepted)."""

    regex = "[A-Za-z0-9]{1,12}"


class TokenConverter(PublicIdConverter):
    """An invite token: URL-safe base64."""

    regex = "[A-Za-z0-9_-]{1,64}"


class RowIdConverter:
    """A row id that fits a 64-bit column (at most 18 digits)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(PublicIdConverter, "pid")
register_converter(UsernameConverter, "username")
register_converter(RoomCodeConverter, "roomcode")
register_converter(TokenConverter, "token")
register_converter(RowIdConverter, "rowid")
