"""A bot that plays through the bot and board API over HTTP (bot.py: the
standard library only, nothing of the project), and its tests against a
real daphne, Celery worker and Redis."""
