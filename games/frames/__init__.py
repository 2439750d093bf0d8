"""The match page's frames: every piece of its HTML that a page, a snapshot or
an update carries, made in one place.

- ``contexts``: what the public partials need (``public_context``), and the
  form targets and profile links it reverses once;
- ``ratings``: the seats' ratings as the page shows them (``seat_ratings``);
- ``moves``: the move list (its last lines, kept per match and extended a
  move at a time; a replay's whole record);
- ``render``: the public frame, its updates, a seat's controls, the pages;
- ``wire``: what travels: part markers (``part``), updates of only the parts
  that changed (``update``), messages (``pack``), the heartbeat;
- ``cache``: the one small keep-the-last-N helper their per-process caches share.
"""
