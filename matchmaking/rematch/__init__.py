"""Rematches: actions (the only writers of rematch offers), the match page's
panel (fragments.py) and its pushes, views and URLs."""
