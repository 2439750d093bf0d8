"""What the release reads before it does anything: the programs of the
supervisord file (which are web processes and on which port, which are
Celery's, which is beat), and its refusals when the file is wrong or the
site is not running (config/release.py)."""

import os
import subprocess
import sys
from pathlib import Path

from config.release import Program, read_programs

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_release_reads_the_web_ports_the_workers_and_beat_from_deploy_supervisord_conf():
    programs = read_programs(ROOT / "deploy" / "supervisord.conf")
    assert programs == [
        Program("web1", 8101, celery=False, beat=False),
        Program("web2", 8102, celery=False, beat=False),
        Program("deadlines", None, celery=True, beat=False),
        Program("live", None, celery=True, beat=False),
        Program("default", None, celery=True, beat=False),
        Program("beat", None, celery=True, beat=True),
    ]


def test_a_daphne_line_is_a_web_process_too(tmp_path):
    conf = tmp_path / "supervisord.conf"
    conf.write_text("[program:web1]\ncommand=python -m daphne -b 127.0.0.1 -p 8201 config.asgi:application\n"
                    "[program:proxy]\ncommand=nginx -c /etc/nginx.conf\n")
    assert read_programs(conf) == [Program("web1", 8201, False, False), Program("proxy", None, False, False)]


def release(*args: str) -> subprocess.CompletedProcess:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"
    return subprocess.run([sys.executable, "-m", "config.release", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PATH": path})


def test_the_release_refuses_a_missing_file_or_a_site_that_is_not_running_before_doing_anything(tmp_path):
    refused = release("--conf", str(tmp_path / "nowhere.conf"))
    assert refused.returncode == 1 and "Release stopped: no supervisord file at" in refused.stderr
    conf = tmp_path / "supervisord.conf"
    conf.write_text(f"[supervisorctl]\nserverurl=unix://{tmp_path}/supervisor.sock\n"
                    "[program:web1]\ncommand=python -m uvicorn --port 8201 config.asgi:application\n")
    refused = release("--conf", str(conf))
    assert refused.returncode == 1 and "is the site running?" in refused.stderr, refused.stderr
    assert "== Back up" not in refused.stdout
