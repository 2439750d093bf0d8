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


register_converter(PublicIdConverter, "pid")
register_converter(UsernameConverter, "username")
