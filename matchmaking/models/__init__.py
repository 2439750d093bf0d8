"""Matchmaking models: ranked queues (queues.py), private rooms (rooms.py),
rematch offers and challenges (together.py).

They point at ``accounts`` and ``games``, never the other way (STYLE.md).
"""

from .queues import *  # noqa: F401,F403
from .rooms import *  # noqa: F401,F403
from .together import *  # noqa: F401,F403
