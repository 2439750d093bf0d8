"""``python -m config.deploy nginx``: production's nginx configuration.

Fills deploy/nginx-production.conf.template from the environment and the
site's settings (docs/operations.md, "From a bare Debian machine to HTTPS"):

- ``SERVER_NAME``: the site's host names, comma-separated, the first the
  canonical one (HTTP redirects to it); each must be in ``ALLOWED_HOSTS``;
- ``TLS_CERTIFICATE``, ``TLS_CERTIFICATE_KEY``: PEM files (certbot's
  ``fullchain.pem`` and ``privkey.pem``);
- ``WEB_UPSTREAMS``: the web processes, ``host:port`` comma-separated
  (default: the web lines of deploy/Procfile);
- ``NGINX_LISTEN``: addresses nginx listens on (default ``*,[::]``),
  ``NGINX_HTTPS_PORT`` / ``NGINX_HTTP_PORT`` (443 / 80), ``ACME_WEBROOT``
  (``/var/www/html``: where certbot's ``--webroot`` writes its challenges),
  ``NGINX_ACCESS_LOG`` (``/var/log/nginx/parlour.access.log``: the HTTPS
  server's access log, each line ending in the request id the site logs too);
- from the settings: ``STATIC_ROOT`` (collectstatic's output, which must hold
  its manifest: ``STATIC_MANIFEST=1``), ``TRUSTED_PROXY_SECRET`` (sent in
  ``X-Parlour-Proxy``) and ``TRUSTED_PROXY_COUNT`` (1 behind this nginx).

Anything missing, unreadable or weak stops it with a one-line message and
exit status 2, before anything is written. The result is then checked with
``nginx -t`` (inside a throwaway nginx.conf that includes it) when nginx is
installed, and written to ``--output`` (mode 0640: it holds the secret) or
printed.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx-production.conf.template"
PROCFILE = ROOT / "deploy" / "Procfile"
MIME_TYPES = Path("/etc/nginx/mime.types")

_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
_HOST_NAME = re.compile(rf"^(\*\.)?{_LABEL}(\.{_LABEL})*$")
_UPSTREAM = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(?P<port>\d{1,5})$")
_LISTEN_ADDRESS = re.compile(r"^(\*|\[[0-9A-Fa-f:.]+\]|[0-9.]+)$")
#: Characters of a secret written inside a double-quoted nginx string: none of
#: them is special there (no $ variable, no quote, no backslash, no space).
_SECRET = re.compile(r"^[A-Za-z0-9._~+/=-]+$")
#: A path written bare into the configuration: no space, quote, ; { } $ or #.
_PLAIN_PATH = re.compile(r"^/[^\s'\";{}$#]*$")
MIN_SECRET_LENGTH = 16
MIN_SECRET_DISTINCT = 8


class Refusal(Exception):
    """A setting that stops the rendering; its message is one line."""


@dataclass(frozen=True)
class NginxSite:
    server_names: list[str]
    certificate: Path
    certificate_key: Path
    upstreams: list[str]
    static_root: Path
    proxy_secret: str
    listen: list[str] = field(default_factory=lambda: ["*", "[::]"])
    https_port: int = 443
    http_port: int = 80
    acme_root: Path = Path("/var/www/html")
    access_log: Path = Path("/var/log/nginx/parlour.access.log")


def procfile_upstreams(procfile: Path = PROCFILE) -> list[str]:
    """``host:port`` of every web line of deploy/Procfile (uvicorn's
    ``--host``/``--port`` or daphne's ``-b``/``-p``)."""
    found = []
    for line in procfile.read_text().splitlines():
        if not re.match(r"^web\w*:", line):
            continue
        argv = shlex.split(line.split(":", 1)[1])
        options = dict(zip(argv, argv[1:], strict=False))
        host = options.get("--host") or options.get("-b") or "127.0.0.1"
        port = options.get("--port") or options.get("-p")
        if port:
            found.append(f"{host}:{port}")
    return found


def _listed(environ: dict, name: str) -> list[str]:
    return [item.strip() for item in environ.get(name, "").split(",") if item.strip()]


def _port(environ: dict, name: str, default: int) -> int:
    value = environ.get(name, "").strip() or str(default)
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise Refusal(f"{name}={value!r} is not a port number (1-65535)")
    return int(value)


def _server_names(environ: dict, allowed_hosts: list[str]) -> list[str]:
    from django.http.request import validate_host

    names = _listed(environ, "SERVER_NAME")
    if not names:
        raise Refusal("SERVER_NAME is not set: the site's host name, e.g. SERVER_NAME=parlour.example")
    for name in names:
        if not _HOST_NAME.match(name):
            raise Refusal(f"SERVER_NAME {name!r} is not a host name")
        if not validate_host(name.lower(), allowed_hosts):
            listed = ",".join(allowed_hosts) or "empty"
            raise Refusal(f"SERVER_NAME {name} is not in ALLOWED_HOSTS ({listed}): "
                          "the site would answer 400 to every request")
    return names


def _pem_file(environ: dict, name: str, marker: str, what: str) -> Path:
    value = environ.get(name, "").strip()
    if not value:
        raise Refusal(f"{name} is not set: the path of the {what}")
    if not _PLAIN_PATH.match(value):
        raise Refusal(f"{name}={value!r}: use an absolute path without spaces, quotes or ; {{ }} $ #")
    path = Path(value)
    try:
        text = path.read_text(errors="replace")
    except OSError as e:
        raise Refusal(f"{name}: cannot read the {what} {path}: {e.strerror}") from None
    if marker not in text:
        raise Refusal(f"{name}: {path} is not a PEM {what} (no '{marker}' line)")
    return path


def _proxy_secret(settings) -> str:
    secret = settings.TRUSTED_PROXY_SECRET
    if settings.TRUSTED_PROXY_COUNT != 1:
        raise Refusal(f"TRUSTED_PROXY_COUNT is {settings.TRUSTED_PROXY_COUNT}: behind this nginx it "
                      "must be 1 (else the site ignores X-Forwarded-Proto and redirects every "
                      "request to https)")
    if not secret:
        raise Refusal("TRUSTED_PROXY_SECRET is not set: "
                      "python -c 'import secrets; print(secrets.token_hex(32))'")
    if (len(secret) < MIN_SECRET_LENGTH or len(set(secret)) < MIN_SECRET_DISTINCT
            or not _SECRET.match(secret)):
        raise Refusal(f"TRUSTED_PROXY_SECRET is weak: use {MIN_SECRET_LENGTH}+ random letters and digits "
                      "(python -c 'import secrets; print(secrets.token_hex(32))')")
    return secret


def _static_root(settings) -> Path:
    if not settings.STATIC_MANIFEST:
        raise Refusal("STATIC_MANIFEST is off: production serves collectstatic's hashed names "
                      "(set STATIC_MANIFEST=1, then run manage.py collectstatic)")
    root = Path(settings.STATIC_ROOT).resolve()
    if not _PLAIN_PATH.match(str(root)):
        raise Refusal(f"STATIC_ROOT={str(root)!r}: use a path without spaces, quotes or ; {{ }} $ #")
    if not (root / "staticfiles.json").is_file():
        raise Refusal(f"STATIC_ROOT {root} holds no staticfiles.json: "
                      "run manage.py collectstatic --noinput first")
    return root


def _upstreams(environ: dict) -> list[str]:
    upstreams = _listed(environ, "WEB_UPSTREAMS") or procfile_upstreams()
    for entry in upstreams:
        found = _UPSTREAM.match(entry)
        if not found or not 0 < int(found["port"]) < 65536:
            raise Refusal(f"WEB_UPSTREAMS entry {entry!r} is not host:port")
    if not upstreams:
        raise Refusal("WEB_UPSTREAMS is empty and deploy/Procfile has no web line")
    return upstreams


def _listen(environ: dict) -> list[str]:
    addresses = _listed(environ, "NGINX_LISTEN") or ["*", "[::]"]
    for address in addresses:
        if not _LISTEN_ADDRESS.match(address):
            raise Refusal(f"NGINX_LISTEN address {address!r} is not *, an IPv4 address or [IPv6]")
    return addresses


def site_from_environment(environ: dict, settings) -> NginxSite:
    """The site to render, from ``environ`` and Django's ``settings``; raises
    Refusal for the first thing that is missing or wrong."""
    acme = environ.get("ACME_WEBROOT", "").strip() or "/var/www/html"
    if not _PLAIN_PATH.match(acme):
        raise Refusal(f"ACME_WEBROOT={acme!r}: use an absolute path without spaces, quotes or ; {{ }} $ #")
    access_log = environ.get("NGINX_ACCESS_LOG", "").strip() or "/var/log/nginx/parlour.access.log"
    if not _PLAIN_PATH.match(access_log):
        raise Refusal(f"NGINX_ACCESS_LOG={access_log!r}: use an absolute path without spaces, quotes "
                      "or ; { } $ #")
    return NginxSite(
        server_names=_server_names(environ, list(settings.ALLOWED_HOSTS)),
        certificate=_pem_file(environ, "TLS_CERTIFICATE", "-----BEGIN CERTIFICATE-----", "certificate"),
        certificate_key=_pem_file(environ, "TLS_CERTIFICATE_KEY", "PRIVATE KEY-----", "certificate's key"),
        upstreams=_upstreams(environ),
        static_root=_static_root(settings),
        proxy_secret=_proxy_secret(settings),
        listen=_listen(environ),
        https_port=_port(environ, "NGINX_HTTPS_PORT", 443),
        http_port=_port(environ, "NGINX_HTTP_PORT", 80),
        acme_root=Path(acme),
        access_log=Path(access_log),
    )


def nginx_version(nginx: str | None) -> tuple[int, ...] | None:
    """The version of the nginx binary at ``nginx`` (``nginx -v``), or None."""
    if not nginx:
        return None
    out = subprocess.run([nginx, "-v"], capture_output=True, text=True, timeout=10).stderr
    found = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(part) for part in found.groups()) if found else None


def render(site: NginxSite, version: tuple[int, ...] | None = None) -> str:
    """deploy/nginx-production.conf.template filled in for ``site``. HTTP/2:
    ``listen ... ssl http2`` up to nginx 1.25.0 (Debian 12 ships 1.22),
    ``http2 on;`` from 1.25.1, which deprecates the other."""
    new_http2 = version is not None and version >= (1, 25, 1)

    def listens(port: int, tls: bool) -> str:
        suffix = " ssl" + ("" if new_http2 else " http2") if tls else ""
        lines = [f"    listen {port}{suffix};" if a == "*" else f"    listen {a}:{port}{suffix};"
                 for a in site.listen]
        return "\n".join(lines + (["    http2 on;"] if tls and new_http2 else []))

    return TEMPLATE.read_text().format(
        server_names=" ".join(site.server_names),
        canonical_name=site.server_names[0],
        https_port_suffix="" if site.https_port == 443 else f":{site.https_port}",
        listen_http=listens(site.http_port, tls=False),
        listen_https=listens(site.https_port, tls=True),
        certificate=site.certificate,
        certificate_key=site.certificate_key,
        upstreams="\n".join(f"    server {u} max_fails=0;" for u in site.upstreams),
        static_root=site.static_root,
        proxy_secret=site.proxy_secret,
        acme_root=site.acme_root,
        access_log=site.access_log,
    )


def standalone_config(site_conf: Path, var: Path) -> Path:
    """A whole nginx.conf in ``var`` that includes ``site_conf`` (what
    Debian's /etc/nginx/nginx.conf does for conf.d/), with its pid, logs and
    temporary files in ``var``: for ``nginx -t`` and the tests."""
    temp = "\n".join(f"    {kind}_temp_path {var}/{kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    mime = f"    include {MIME_TYPES};\n" if MIME_TYPES.exists() else ""
    path = var / "nginx.conf"
    path.write_text(
        f"pid {var}/nginx.pid;\nerror_log {var}/error.log warn;\nevents {{ worker_connections 1024; }}\n"
        f"http {{\n{mime}    default_type application/octet-stream;\n    sendfile on;\n"
        f"    access_log off;\n{temp}\n    include {site_conf};\n}}\n")
    return path


def check_with_nginx(text: str, nginx: str) -> None:
    """Run ``nginx -t`` on ``text`` (inside standalone_config); raises
    Refusal with nginx's own complaint."""
    with tempfile.TemporaryDirectory(prefix="parlour-nginx-") as var:
        site = Path(var) / "parlour.conf"
        site.write_text(text)
        conf = standalone_config(site, Path(var))
        result = subprocess.run([nginx, "-t", "-q", "-e", f"{var}/error.log", "-c", str(conf)],
                                capture_output=True, text=True, timeout=30)
        if result.returncode:
            complaint = [line for line in (result.stderr or result.stdout).splitlines() if "emerg" in line]
            raise Refusal("nginx -t refuses the configuration: "
                          + (complaint[0] if complaint else (result.stderr or result.stdout).strip()))


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (a temporary file renamed over it), mode 0640."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, 0o640)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def find_nginx() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def nginx_command(output: Path | None, check: bool) -> int:
    """Render, check and write (or print) production's nginx configuration;
    the exit status."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        from django.conf import settings

        settings.ALLOWED_HOSTS  # noqa: B018 - loads the settings, which may refuse
        site = site_from_environment(dict(os.environ), settings)
        nginx = find_nginx()
        text = render(site, nginx_version(nginx))
        if check and nginx:
            check_with_nginx(text, nginx)
    except Refusal as e:
        print(f"config.deploy nginx: {e}", file=sys.stderr)
        return 2
    except ImproperlyConfigured as e:  # the settings' own refusals (a weak SECRET_KEY...)
        print(f"config.deploy nginx: the settings refuse: {e}", file=sys.stderr)
        return 2
    if output is None:
        sys.stdout.write(text)
    else:
        write_private(output, text)
        print(f"wrote {output} (nginx -t: {'passed' if check and nginx else 'not run'})", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.deploy", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    nginx = commands.add_parser("nginx", help="render deploy/nginx-production.conf.template")
    nginx.add_argument("-o", "--output", type=Path, help="write here (mode 0640) instead of printing")
    nginx.add_argument("--no-check", action="store_true", help="do not run nginx -t on the result")
    args = parser.parse_args(argv)
    return nginx_command(args.output, check=not args.no_check)


if __name__ == "__main__":
    sys.exit(main())
