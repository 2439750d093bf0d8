"""Matchmaking models: ranked queues (queues.py) and private rooms (rooms.py).

They point at ``accounts`` and ``games``, never the other way (STYLE.md).
"""

from .queues import *  # noqa: F401,F403
from .rooms import *  # noqa: F401,F403
