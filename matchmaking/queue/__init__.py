"""The ranked queues: actions (the only writers of queue entries), the pure
pairing (pairing.py), the queue panel's pushes, its socket, views and URLs."""
