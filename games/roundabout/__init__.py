"""Roundabout: the game's one folder (docs/adding-a-game.md): engine/ (the
rules, pure Python), bot.py (its computer players), svg.py (the board's
drawing), record.py (its notation in words), templates/ and room options.
Registered in ``games.engine.GAMES``; installed as a Django app for its
templates and static files."""
