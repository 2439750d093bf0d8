"""The frames' one cache helper (games.frames.cache.Kept): the last ``size``
values put, the oldest put dropped first; a read refreshes nothing; a put may
be refused by ``replaces``."""

from games.frames.cache import Kept


def test_the_oldest_put_goes_first_and_a_read_refreshes_nothing():
    kept = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # read: still the oldest
    kept.put("c", 3)
    assert kept.get("a") is None and kept.get("b") == 2 and kept.get("c") == 3 and len(kept) == 2


def test_putting_again_makes_a_value_the_newest():
    kept = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("a", 10)
    kept.put("c", 3)
    assert kept.get("b") is None and kept.get("a") == 10


def test_replaces_may_refuse_a_value_and_clear_forgets_all():
    kept = Kept(4)
    kept.put("a", 5)
    kept.put("a", 3, lambda old, new: old < new)
    assert kept.get("a") == 5
    kept.put("a", 7, lambda old, new: old < new)
    assert kept.get("a") == 7
    kept.clear()
    assert kept.get("a") is None and len(kept) == 0
