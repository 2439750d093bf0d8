"""The supervisord configurations: deploy/supervisord.conf agrees with
deploy/Procfile, and what config/supervisor.py writes is what supervisord
reads (README, "Production layout")."""

import os
import shutil

import pytest
from supervisor.options import ServerOptions

from config import supervisor
from config.supervisor import Program


def read_as_supervisord(path):
    """The program configurations supervisord makes of the ini at ``path``, by name."""
    options = ServerOptions()
    options.realize(["-c", str(path)], doc="")
    return options, {p.name: p for g in options.process_group_configs for p in g.process_configs}


def test_deploy_supervisord_conf_is_generated_from_the_procfile():
    assert supervisor.DEPLOY_CONF.read_text() == supervisor.deploy_configuration(), (
        "deploy/supervisord.conf is out of date: run "
        "`.venv/bin/python -m config.supervisor > deploy/supervisord.conf`"
    )


def test_deploy_supervisord_conf_runs_every_procfile_line_and_restarts_it(tmp_path):
    (tmp_path / "deploy").mkdir()
    (tmp_path / "var" / "run").mkdir(parents=True)
    (tmp_path / "var" / "log").mkdir()
    conf = tmp_path / "deploy" / "supervisord.conf"
    shutil.copy(supervisor.DEPLOY_CONF, conf)
    options, programs = read_as_supervisord(conf)
    procfile = supervisor.read_procfile()
    assert sorted(programs) == sorted(p.name for p in procfile)
    for p in procfile:
        got = programs[p.name]
        assert got.command == p.command  # Celery's "-n live@%h" survives supervisord's expansion
        assert got.directory == str(tmp_path / "deploy" / "..")
        assert got.stdout_logfile == str(tmp_path / "deploy" / ".." / "var" / "log" / f"{p.name}.log")
        assert got.autorestart is not False and got.startsecs == supervisor.START_SECONDS
        assert got.stopasgroup and got.killasgroup and got.redirect_stderr
    assert options.nodaemon
    run = tmp_path / "var" / "run"
    assert os.path.normpath(options.server_configs[0]["file"]) == str(run / "supervisor.sock")
    assert os.path.normpath(options.pidfile) == str(run / "supervisord.pid")


def test_a_layout_configuration_sends_output_to_the_terminal_and_orders_by_priority(tmp_path):
    text = supervisor.configuration(
        [Program("redis", "redis-server --port 0", priority=100), Program("web", "python -m daphne x"),
         Program("proxy", "nginx -g 'daemon off;'", priority=900)],
        directory=str(tmp_path), state=str(tmp_path))
    conf = tmp_path / "supervisord.conf"
    conf.write_text(text)
    _, programs = read_as_supervisord(conf)
    assert [programs[n].priority for n in ("redis", "web", "proxy")] == [100, 500, 900]
    assert all(p.stdout_logfile == "/dev/stdout" and p.stdout_logfile_maxbytes == 0
               for p in programs.values())


def test_read_procfile_names_a_bad_line_and_a_repeated_name(tmp_path):
    bad = tmp_path / "Procfile"
    bad.write_text("# comment\n\nweb: python -m daphne\nnot a process line\n")
    with pytest.raises(ValueError, match=r"Procfile:4: not a 'name: command' line"):
        supervisor.read_procfile(bad)
    bad.write_text("web: a\nweb: b\n")
    with pytest.raises(ValueError, match=r"Procfile:2: process name 'web' used twice"):
        supervisor.read_procfile(bad)


@pytest.mark.parametrize("command", ["nginx -g 'daemon off ;'", "celery worker # note", "a\nb"])
def test_a_command_supervisord_would_cut_short_is_refused(command):
    with pytest.raises(ValueError, match="would read part of its command"):
        supervisor.configuration([Program("x", command)], directory="/srv", state="/srv")
