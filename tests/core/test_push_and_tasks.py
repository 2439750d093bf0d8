"""core.push.send_all (every app's pushes) and core.tasks.send_task (every
task sent by name); core imports no app of the project, nor config."""

import ast
import pathlib
from datetime import UTC, datetime

import pytest

from core import push, tasks

APPS = {"accounts", "notifications", "games", "matchmaking", "arenas", "moderation", "config"}


def test_core_imports_no_app_nor_config():
    for path in pathlib.Path(push.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not {n.split(".")[0] for n in names} & APPS, (path.name, names)


class OneByOne:
    def __init__(self):
        self.sent = []

    async def group_send(self, group, event):
        self.sent.append((group, event))


class Many(OneByOne):
    async def group_send_many(self, messages):
        self.sent.append(("many", list(messages)))


@pytest.mark.asyncio
async def test_send_all_sends_each_message_in_order_one_by_one_without_group_send_many(monkeypatch):
    layer = OneByOne()
    monkeypatch.setattr(push, "get_channel_layer", lambda: layer)
    await push.send_all([("a", {"type": "x", "n": 1}), ("b", {"type": "y", "n": 2})])
    assert layer.sent == [("a", {"type": "x", "n": 1}), ("b", {"type": "y", "n": 2})]


@pytest.mark.asyncio
async def test_send_all_sends_in_one_call_with_group_send_many_and_nothing_for_none(monkeypatch):
    layer = Many()
    monkeypatch.setattr(push, "get_channel_layer", lambda: layer)
    await push.send_all([])
    assert layer.sent == []
    await push.send_all([("a", {"type": "x"}), ("b", {"type": "y"})])
    assert layer.sent == [("many", [("a", {"type": "x"}), ("b", {"type": "y"})])]


class FakeTask:
    def __init__(self):
        self.calls = []

    def apply_async(self, args, **options):
        self.calls.append((args, options))


class FakeApp:
    def __init__(self, registered):
        self.tasks = registered
        self.by_name = []

    def send_task(self, name, args, **options):
        self.by_name.append((name, args, options))


def test_a_registered_task_goes_through_its_apply_async_with_only_the_options_given(monkeypatch):
    task = FakeTask()
    app = FakeApp({"x.tasks.t": task})
    monkeypatch.setattr(tasks, "current_app", app)
    at = datetime(2030, 1, 1, tzinfo=UTC)
    tasks.send_task("x.tasks.t", (1, 2), countdown=None)
    tasks.send_task("x.tasks.t", [3], at=at, expires=10, priority=5)
    assert task.calls == [((1, 2), {"countdown": None}), ([3], {"eta": at, "expires": 10, "priority": 5})]
    assert app.by_name == []


def test_a_task_this_process_did_not_register_is_sent_by_name(monkeypatch):
    app = FakeApp({})
    monkeypatch.setattr(tasks, "current_app", app)
    tasks.send_task("x.tasks.t", (1,), countdown=2.5)
    assert app.by_name == [("x.tasks.t", (1,), {"countdown": 2.5})]
