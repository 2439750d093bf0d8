"""A PostgreSQL server of a test's own: ``initdb`` in a temporary folder,
started on a free port of 127.0.0.1 (trust authentication, role
``parlour``, fsync off), stopped and deleted after. As root (CI) it runs as
the ``postgres`` user, as .ci/run's does."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests import services


def _bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if not found:
        raise AssertionError("PostgreSQL's server programs are not installed (/usr/lib/postgresql/*/bin; "
                             "Debian: apt-get install postgresql)")
    return found[-1].parent


class Server:
    def __init__(self):
        self.bin = _bin()
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
        self.port = services.free_port()
        self.url = f"postgres://parlour@127.0.0.1:{self.port}/parlour"
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        data = str(self.dir / "data")
        self._as_owner(["initdb", "-D", data, "-U", "parlour", "--auth=trust", "-E", "UTF8"])
        self._as_owner(["pg_ctl", "-D", data, "-l", str(self.dir / "server.log"), "-w", "-o",
                        f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"])
        self._as_owner(["createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "parlour", "parlour"])

    def _as_owner(self, argv: list[str]) -> None:
        argv = [str(self.bin / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd="/")
        if result.returncode:
            raise AssertionError(f"{' '.join(argv)} failed:\n{result.stdout}{result.stderr}")

    def stop(self) -> None:
        try:
            self._as_owner(["pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop"])
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
