"""supervisord for every layout: ``make run``, ``make cluster`` and production.

A layout is one list of ``Program`` values; ``configuration`` turns it into a
supervisord ini, so no process list is written twice. ``make run`` and
``make cluster`` write theirs into their folder under ``var/`` and ``serve``
it (supervisord in the foreground, in place of the launcher); production's
``deploy/supervisord.conf`` is generated from ``deploy/Procfile`` by
``python -m config.supervisor`` and a test keeps the two in sync.

supervisord restarts a program that exits, whatever its exit status
(``autorestart``), and nothing else: the other programs keep running. A
program that dies within ``START_SECONDS`` of starting counts as a failed
start and is retried ``START_RETRIES`` times, waiting one second longer each
time, before supervisord gives up on it (state ``FATAL``). README,
"Production layout".
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent
PROCFILE = ROOT / "deploy" / "Procfile"
DEPLOY_CONF = ROOT / "deploy" / "supervisord.conf"

#: Seconds a program must stay up after a (re)start to count as started:
#: longer than a web process takes to import Django and fail on a busy
#: machine (a port in use showed up after about 5 s).
START_SECONDS = 10
#: Failed starts in a row before supervisord gives up on a program (about a
#: minute of tries, backing off 1, 2, .. 5 s).
START_RETRIES = 5
#: Seconds between the stop signal (SIGTERM) and SIGKILL.
STOP_WAIT_SECONDS = 10

_PROCFILE_LINE = re.compile(r"^([A-Za-z0-9_-]+):\s*(.+)$")
#: ``${NAME}`` in a Procfile command: the environment variable NAME (honcho
#: and foreman run a line through the shell; supervisord expands
#: ``%(ENV_NAME)s``, and refuses to start when NAME is not set).
_PROCFILE_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_INI_COMMENT = re.compile(r"\s[;#]")


@dataclass(frozen=True)
class Program:
    """One supervised process: ``name`` (letters, digits, ``_``, ``-``), its
    ``command`` (one command line, no shell), and ``priority``: lower starts
    first and stops last (supervisord's default is 999)."""

    name: str
    command: str
    priority: int = 500


def read_procfile(path: Path = PROCFILE) -> list[Program]:
    """The programs of a Procfile (``name: command`` lines; ``#`` comments and
    blank lines skipped), in file order.

    Raises ValueError naming the line for a line that is neither, or a name
    used twice.
    """
    programs: list[Program] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = _PROCFILE_LINE.match(line)
        if m is None:
            raise ValueError(f"{path}:{number}: not a 'name: command' line: {line!r}")
        if any(p.name == m[1] for p in programs):
            raise ValueError(f"{path}:{number}: process name {m[1]!r} used twice")
        programs.append(Program(m[1], m[2].strip()))
    return programs


def _escape(value: str | Path) -> str:
    """``value`` for a supervisord option: supervisord expands ``%(name)s``
    in every value, so a literal ``%`` (Celery's ``-n live@%h``) is ``%%``."""
    return str(value).replace("%", "%%")


def _command(command: str) -> str:
    """A Procfile command for supervisord: ``%`` escaped, and each
    ``${NAME}`` the environment variable ``%(ENV_NAME)s``."""
    return _PROCFILE_VARIABLE.sub(r"%(ENV_\1)s", _escape(command))


def variables(programs: list[Program]) -> list[str]:
    """The environment variables (``${NAME}``) the programs' commands use,
    sorted."""
    return sorted({name for p in programs for name in _PROCFILE_VARIABLE.findall(p.command)})


def configuration(programs: list[Program], *, directory: str, state: str, logs: str | None = None,
                  header: str = "") -> str:
    """The supervisord ini running ``programs``, as text.

    ``directory``: the working directory of every program (the checkout).
    ``state``: the folder for supervisord's control socket, pid file and own
    log (it must exist). ``logs``: a folder for one log file per program
    (``<name>.log``, rotated at 50 MB, 10 kept); None sends every program's
    output, stderr included, to supervisord's standard output (the terminal).
    The three are written as given, unescaped, so they may use supervisord's
    ``%(here)s`` (the folder of the ini). ``header``: comment lines to put first.

    supervisord stays in the foreground (``nodaemon``): its parent, a
    terminal or the host's init, sees it end. Each program runs in its own
    process group, and stop and kill signals go to the whole group, so a
    Celery worker's pool processes end with it and no child outlives
    supervisord's shutdown.

    A command's ``${NAME}`` is the environment variable NAME (supervisord's
    ``%(ENV_NAME)s``: it refuses to start, naming it, when NAME is not set).

    Raises ValueError for a command supervisord would cut short: one with a
    line break, or a ``;`` or ``#`` after a space (an ini comment); and for
    one with a ``$`` other than ``${NAME}`` (the shell would expand it under
    honcho, supervisord would not).
    """
    for p in programs:
        if "\n" in p.command or _INI_COMMENT.search(p.command):
            raise ValueError(f"program {p.name!r}: supervisord would read part of its command as a "
                             f"comment or a new line: {p.command!r}")
        if "$" in _PROCFILE_VARIABLE.sub("", p.command):
            raise ValueError(f"program {p.name!r}: a '$' other than ${{NAME}} (an environment variable) "
                             f"in its command: {p.command!r}")
    lines = [header.rstrip("\n"), ""] if header else []
    lines += [
        "[supervisord]",
        "nodaemon=true",
        f"logfile={state}/supervisord.log",
        "logfile_maxbytes=5MB",
        "logfile_backups=2",
        f"pidfile={state}/supervisord.pid",
        f"childlogdir={state}",
        "",
        "[unix_http_server]",
        f"file={state}/supervisor.sock",
        "chmod=0700",
        "",
        "[supervisorctl]",
        f"serverurl=unix://{state}/supervisor.sock",
        "",
        "[rpcinterface:supervisor]",
        "supervisor.rpcinterface_factory=supervisor.rpcinterface:make_main_rpcinterface",
    ]
    for p in programs:
        lines += [
            "",
            f"[program:{p.name}]",
            f"command={_command(p.command)}",
            f"directory={directory}",
            f"priority={p.priority}",
            "autostart=true",
            "autorestart=true",
            f"startsecs={START_SECONDS}",
            f"startretries={START_RETRIES}",
            "stopsignal=TERM",
            f"stopwaitsecs={STOP_WAIT_SECONDS}",
            "stopasgroup=true",
            "killasgroup=true",
            "redirect_stderr=true",
        ]
        if logs is None:
            lines += ["stdout_logfile=/dev/stdout", "stdout_logfile_maxbytes=0"]
        else:
            lines += [f"stdout_logfile={logs}/%(program_name)s.log", "stdout_logfile_maxbytes=50MB",
                      "stdout_logfile_backups=10"]
    return "\n".join(lines) + "\n"


def serve(programs: list[Program], state: Path, env: dict[str, str]) -> NoReturn:
    """Write ``state``/supervisord.conf for ``programs`` (working directory:
    the checkout; output to this terminal) and replace this process with
    supervisord in the foreground, with environment ``env`` (which every
    program inherits). Ctrl-C (SIGINT) or SIGTERM stops every program, each
    with SIGTERM and after ``STOP_WAIT_SECONDS`` SIGKILL, highest priority
    first, then supervisord. Does not return.
    """
    state.mkdir(parents=True, exist_ok=True)
    conf = state / "supervisord.conf"
    conf.write_text(configuration(programs, directory=_escape(ROOT), state=_escape(state)))
    argv = [sys.executable, "-m", "supervisor.supervisord", "-c", str(conf)]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(argv[0], argv, env)


DEPLOY_HEADER = """\
# Parlour's production supervisord configuration, generated from deploy/Procfile
# by `python -m config.supervisor > deploy/supervisord.conf` (a test checks that
# they agree: edit the Procfile, then run that command).
# Start it from the checkout with the virtualenv's bin/ first on PATH and the
# production environment set (deploy/Procfile lists it; every program inherits
# supervisord's environment), after `mkdir -p var/run var/log`:
#     supervisord -c deploy/supervisord.conf
# It stays in the foreground; logs go to var/log/<program>.log, and
# `supervisorctl -c deploy/supervisord.conf status` shows each program.
# A program that exits is started again; see README "Production layout".
"""


#: The layout across machines (docs/operations.md, "More than one machine"):
#: one Procfile per kind of host, each with its supervisord configuration
#: beside it (``<role>.conf``), generated as deploy/supervisord.conf is.
HOSTS_DIR = ROOT / "deploy" / "hosts"
HOST_ROLES = ("proxy", "web", "worker", "data")

HOST_HEADER = """\
# Parlour's {role} host (docs/operations.md, "More than one machine"): its supervisord
# configuration, generated from deploy/hosts/{role}.Procfile by
# `python -m config.supervisor deploy/hosts/{role}.Procfile > deploy/hosts/{role}.conf`
# (a test checks that they agree: edit the Procfile, then run that command).
# ${{NAME}} in the Procfile is %(ENV_NAME)s here: supervisord will not start
# without it. Its command lines use: {variables}; the rest of the host's
# environment is in the Procfile's comments.
# Start it from the checkout as deploy/supervisord.conf says (its header), with
#     supervisord -c deploy/hosts/{role}.conf
"""


def host_procfile(role: str) -> Path:
    """deploy/hosts/<role>.Procfile (``role`` one of HOST_ROLES)."""
    return HOSTS_DIR / f"{role}.Procfile"


def deploy_configuration(procfile: Path = PROCFILE) -> str:
    """The supervisord configuration of ``procfile`` as it should be:
    deploy/supervisord.conf for deploy/Procfile, deploy/hosts/<role>.conf
    for deploy/hosts/<role>.Procfile; paths relative to the file
    (``%(here)s/..`` or ``%(here)s/../..`` is the checkout)."""
    checkout = "%(here)s/" + os.path.relpath(ROOT, procfile.parent)
    programs = read_procfile(procfile)
    if procfile == PROCFILE:
        header = DEPLOY_HEADER
    else:
        header = HOST_HEADER.format(role=procfile.stem, variables=", ".join(variables(programs)) or "nothing")
    return configuration(programs, directory=checkout, state=f"{checkout}/var/run",
                         logs=f"{checkout}/var/log", header=header)


if __name__ == "__main__":
    sys.stdout.write(deploy_configuration(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else PROCFILE))
