"""Ranked queues."""

__all__: list[str] = []
