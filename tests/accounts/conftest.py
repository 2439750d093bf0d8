import pytest

from accounts import tasks


@pytest.fixture(autouse=True)
def reset_mail_sent_at_once(monkeypatch):
    """The password-reset mail's task runs in the test's process when the view
    queues it (a worker runs it in production: accounts.tasks.send_password_reset);
    the list holds what each run returned (how many accounts were mailed)."""
    outcomes = []
    monkeypatch.setattr(tasks.send_password_reset, "delay",
                        lambda *args: outcomes.append(tasks.send_password_reset.run(*args)))
    return outcomes
