"""One small per-process cache for the frames' hot paths (docs/benchmarks.md):
values by key, at most ``size`` of them, shared by threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class Kept:
    """At most ``size`` values by key, the least recently put dropped first.
    A read does not refresh a value (the frames' caches are read on every
    move and put whenever a match moves on). Safe to share between threads."""

    __slots__ = ("size", "_items", "_lock")

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key``; None when there is none."""
        with self._lock:
            return self._items.get(key)

    def put(self, key: Hashable, value: Any, replaces: Callable[[Any, Any], bool] | None = None) -> None:
        """Keep ``value`` for ``key``, as the most recent, and drop the oldest
        beyond ``size``. ``replaces(kept, value)``: whether ``value`` may take
        the place of a value already kept for ``key`` (another thread may have
        put a newer one meanwhile); None: it always may."""
        with self._lock:
            kept = self._items.get(key)
            if kept is not None and replaces is not None and not replaces(kept, value):
                return
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every value (tests and benchmarks start afresh)."""
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
