"""The Celery app: turn deadlines and computer moves (see games/tasks.py)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("parlour")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
