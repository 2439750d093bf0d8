"""Private rooms: actions (the only writers of rooms, seats, members; the
invites in invites.py, what both share in common.py), what a lobby shows
(fragments.py, for its page and its pushes alike), pushes, the lobby socket,
the room form, views and URLs."""
