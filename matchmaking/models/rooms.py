"""Private rooms, their members and invites."""

__all__: list[str] = []
