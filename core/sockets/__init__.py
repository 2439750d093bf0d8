"""The platform's WebSockets, whatever page they serve: the consumer base
(consumer.py: the limits every received frame meets and its one reading, the
socket's slot, its database calls, group frames handed over as they arrive),
the per-frame limits (limits.py), the cap on sockets per person (caps.py),
the per-person gate and retry of database calls (db_calls.py), the close
codes they use (close_codes.py) and one task per event loop (loop_tasks.py).
Sign-in, sessions and bans build on it in accounts/sockets.py.
"""
