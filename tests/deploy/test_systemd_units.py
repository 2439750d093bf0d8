"""deploy/'s systemd units (the service that keeps supervisord up, the
backup's service and its timer) pass ``systemd-analyze verify``, run for
real, with the checkout in place of /srv/parlour so that every program they
name exists; and a broken unit fails it, so the check can fail."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
UNITS = ("parlour.service", "parlour-backup.service", "parlour-backup.timer")


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.fail("systemd-analyze is not installed: it checks deploy/'s systemd units "
                    "(Debian: apt-get install systemd; .ci/run installs it)")
    return found


def render(folder: Path, edit=lambda name, text: text) -> list[Path]:
    """The units, with /srv/parlour (the checkout the units expect) made this
    checkout, written into ``folder``; ``edit`` may change a unit's text."""
    paths = []
    for name in UNITS:
        text = (ROOT / "deploy" / name).read_text().replace("/srv/parlour", str(ROOT))
        path = folder / name
        path.write_text(edit(name, text))
        paths.append(path)
    return paths


def verify(paths: list[Path]) -> tuple[int, str]:
    """``systemd-analyze verify`` of ``paths``: (exit status, what it said
    about them). Lines about other units (the host's own) are left out."""
    result = subprocess.run([systemd_analyze(), "verify", *map(str, paths)], capture_output=True, text=True,
                            timeout=60)
    said = [line for line in (result.stdout + result.stderr).splitlines()
            if any(p.name in line or str(p) in line for p in paths) or "parlour" in line]
    return result.returncode, "\n".join(said)


def test_the_service_the_backup_service_and_its_timer_pass_systemd_analyze_verify(tmp_path):
    status, said = verify(render(tmp_path))
    assert (status, said) == (0, ""), said


def test_the_service_runs_supervisord_in_the_foreground_as_parlour_and_restarts_it():
    unit = (ROOT / "deploy" / "parlour.service").read_text()
    for line in ("User=parlour", "WorkingDirectory=/srv/parlour", "EnvironmentFile=/etc/parlour/parlour.env",
                 "Environment=PATH=/srv/parlour/.venv/bin:", "Restart=always", "KillMode=mixed",
                 "ExecStart=/usr/bin/env supervisord -c /srv/parlour/deploy/supervisord.conf",
                 "After=network-online.target postgresql.service redis-server.service",
                 "WantedBy=multi-user.target"):
        assert line in unit, line
    assert "nodaemon=true" in (ROOT / "deploy" / "supervisord.conf").read_text()


@pytest.mark.parametrize("name, before, after", [
    ("parlour.service", "ExecStart=/usr/bin/env", "ExecStart=/usr/bin/no-such-program"),
    ("parlour.service", "Restart=always", "Restart=sometimes"),
    ("parlour.service", "KillMode=mixed", "KilMode=mixed"),
    ("parlour-backup.service", "ExecStart=", "ExecStart=/nowhere/backup\n#"),
    ("parlour-backup.timer", "OnCalendar=*-*-* 03:15:00", "OnCalendar=every night"),
])
def test_a_broken_unit_fails_the_check(tmp_path, name, before, after):
    def broken(unit, text):
        if unit != name:
            return text
        assert before in text
        return text.replace(before, after, 1)

    status, said = verify(render(tmp_path, broken))
    assert (status, said) != (0, ""), f"systemd-analyze verify passed a broken {name}"
