"""The layout across machines (docs/operations.md, "More than one machine"):
the proxy host's nginx, from the environment.

``python -m config.hosts proxy`` (deploy/hosts/proxy.Procfile) writes
nginx's configuration from deploy/nginx.conf.template
(config.cluster.nginx_config) and replaces itself with nginx in the
foreground, one process, as ``make cluster`` runs it. It reads:

- ``WEB_UPSTREAMS``: every web process, ``host:port`` comma-separated
  (``10.0.0.3:8101,10.0.0.3:8102,10.0.0.4:8101,10.0.0.4:8102``);
- ``PROXY_LISTEN``: nginx's ``listen``, a port or ``address:port``
  (default ``80``);
- ``TRUSTED_PROXY_SECRET``: the web hosts' own (16 characters or more),
  sent to them in X-Parlour-Proxy (core/proxy.py);
- ``PROXY_STATE_DIR``: where the configuration, pid and error log go
  (default ``var/run/proxy`` in the checkout).

A missing or malformed value stops it with a message naming the variable,
before anything is written.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from config.cluster import find_nginx, nginx_config

ROOT = Path(__file__).resolve().parent.parent
_HOST_PORT = re.compile(r"^(?P<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>[0-9]{1,5})$")
_LISTEN = re.compile(r"^(?:(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):)?(?P<port>[0-9]{1,5})$")


class HostSettingError(ValueError):
    """A setting of the layout across machines is missing or malformed; the
    message names it."""


def _port_ok(port: str) -> bool:
    return 0 < int(port) < 65536


def web_upstreams(value: str) -> list[str]:
    """The web processes of ``WEB_UPSTREAMS``: ``host:port`` entries,
    comma-separated, spaces around them ignored. Raises HostSettingError
    for an empty list or an entry that is not ``host:port``."""
    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    if not entries:
        raise HostSettingError("WEB_UPSTREAMS is empty: list every web process as host:port, "
                               "comma-separated (e.g. 10.0.0.3:8101,10.0.0.4:8101)")
    for entry in entries:
        m = _HOST_PORT.match(entry)
        if m is None or not _port_ok(m["port"]):
            raise HostSettingError(f"WEB_UPSTREAMS entry {entry!r} is not host:port (e.g. 10.0.0.3:8101)")
    return entries


def proxy_listen(value: str) -> str:
    """nginx's ``listen`` from ``PROXY_LISTEN``: a port or ``address:port``.
    Raises HostSettingError otherwise."""
    m = _LISTEN.match(value.strip())
    if m is None or not _port_ok(m["port"]):
        raise HostSettingError(f"PROXY_LISTEN={value!r} is not a port or address:port (e.g. 10.0.0.2:80)")
    return value.strip()


def proxy_argv(environ: dict[str, str]) -> list[str]:
    """Write the proxy host's nginx configuration from ``environ`` (module
    docstring) and return nginx's command line. Raises HostSettingError
    naming a missing or malformed setting, or a missing nginx."""
    upstreams = web_upstreams(environ.get("WEB_UPSTREAMS", ""))
    listen = proxy_listen(environ.get("PROXY_LISTEN", "") or "80")
    secret = environ.get("TRUSTED_PROXY_SECRET", "")
    if len(secret) < 16:
        raise HostSettingError("TRUSTED_PROXY_SECRET must be set, 16 characters or more: the web hosts' own "
                               "(docs/operations.md, \"Configuration\")")
    nginx = find_nginx()
    if nginx is None:
        raise HostSettingError("nginx is not installed (apt-get install nginx)")
    var = Path(environ.get("PROXY_STATE_DIR", "") or ROOT / "var" / "run" / "proxy")
    var.mkdir(parents=True, exist_ok=True)
    conf = nginx_config(var, listen, upstreams, secret)
    # One process (no master), as make cluster: supervisord can restart it
    # after a kill -9 (a killed master's workers kept the port).
    return [nginx, "-e", str(var / "nginx-error.log"), "-c", str(conf),
            "-g", "daemon off; master_process off;"]


def main(argv: list[str]) -> None:
    if argv[1:] != ["proxy"]:
        sys.exit("usage: python -m config.hosts proxy")
    try:
        command = proxy_argv(dict(os.environ))
    except HostSettingError as e:
        sys.exit(f"config.hosts proxy: {e}")
    sys.stdout.flush()
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv)
