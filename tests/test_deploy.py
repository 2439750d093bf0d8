"""The production path's configuration (docs/operations.md, "From a bare
Debian machine to HTTPS"): deploy/parlour.env.example makes a site that
``check --deploy`` finds clean, and production's nginx renderer
(``python -m config.deploy nginx``) refuses what would half-deploy it.

Fast: no nginx, no database (the real nginx in front of a real server is
tests/e2e/test_production_front.py).
"""

import os
import secrets
import shlex
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from config import deploy

ROOT = Path(__file__).resolve().parent.parent
CERTIFICATE = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
KEY = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"


def example_environment() -> dict[str, str]:
    """deploy/parlour.env.example as a dict, as a shell would read it."""
    found = {}
    for line in (ROOT / "deploy" / "parlour.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, value = line.split("=", 1)
            found[name] = " ".join(shlex.split(value))
    return found


def clean_environment(**env) -> dict[str, str]:
    """This process's environment without the test settings' variables, plus ``env``."""
    example = example_environment()
    kept = {k: v for k, v in os.environ.items() if k not in example and k not in {
        "DJANGO_SETTINGS_MODULE", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    return {**kept, **env}


def test_check_deploy_is_clean_with_the_example_production_environment(tmp_path):
    """Every value of deploy/parlour.env.example (its secrets filled in as the
    operator would, STATIC_ROOT moved to a temporary folder): ``manage.py
    check --deploy`` reports nothing, warnings included."""
    env = example_environment()
    assert env["DEBUG"] == "0" and env["STATIC_MANIFEST"] == "1"
    assert env["SECRET_KEY"] == "" and env["TRUSTED_PROXY_SECRET"] == ""  # the operator makes their own
    env.update(SECRET_KEY=secrets.token_urlsafe(50), TRUSTED_PROXY_SECRET=secrets.token_hex(32),
               STATIC_ROOT=str(tmp_path / "static"))
    r = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                       cwd=ROOT, env=clean_environment(**env), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "System check identified no issues" in r.stdout


def test_every_variable_of_the_example_environment_is_in_the_configuration_table():
    table = (ROOT / "docs" / "operations.md").read_text().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    missing = [name for name in example_environment() if f"`{name}`" not in table]
    assert not missing


def production_settings(static_root: Path, **changes):
    (static_root / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    values = dict(ALLOWED_HOSTS=["parlour.example"], STATIC_MANIFEST=True, STATIC_ROOT=static_root,
                  TRUSTED_PROXY_COUNT=1, TRUSTED_PROXY_SECRET=secrets.token_hex(32))
    return SimpleNamespace(**{**values, **changes})


@pytest.fixture
def site_environment(tmp_path) -> dict[str, str]:
    (tmp_path / "cert.pem").write_text(CERTIFICATE)
    (tmp_path / "key.pem").write_text(KEY)
    return {"SERVER_NAME": "parlour.example", "TLS_CERTIFICATE": str(tmp_path / "cert.pem"),
            "TLS_CERTIFICATE_KEY": str(tmp_path / "key.pem")}


def test_the_rendered_configuration_has_the_sites_names_certificate_upstreams_and_static_root(
        site_environment, tmp_path):
    settings = production_settings(tmp_path)
    site = deploy.site_from_environment(
        {**site_environment, "SERVER_NAME": "parlour.example,www.parlour.example",
         "WEB_UPSTREAMS": "10.0.0.2:8101,10.0.0.3:8101"},
        production_settings(tmp_path, ALLOWED_HOSTS=[".parlour.example"]))
    text = deploy.render(site, (1, 22, 1))
    assert "server_name parlour.example www.parlour.example;" in text
    assert "return 301 https://parlour.example$request_uri;" in text
    assert f"ssl_certificate {tmp_path}/cert.pem;" in text
    assert f"ssl_certificate_key {tmp_path}/key.pem;" in text
    assert "server 10.0.0.2:8101 max_fails=0;\n    server 10.0.0.3:8101 max_fails=0;" in text
    assert f"alias {tmp_path.resolve()}/;" in text
    assert "listen 443 ssl http2;" in text and "listen [::]:80;" in text and "http2 on;" not in text
    newer = deploy.render(site, (1, 26, 0))  # http2 on; from 1.25.1
    assert "listen 443 ssl;" in newer and "http2 on;" in newer
    # Without WEB_UPSTREAMS: deploy/Procfile's web processes.
    default = deploy.site_from_environment(site_environment, settings)
    assert default.upstreams == ["127.0.0.1:8101", "127.0.0.1:8102"] == deploy.procfile_upstreams()


@pytest.mark.parametrize(("change", "settings_change", "message"), [
    ({"SERVER_NAME": ""}, {}, "SERVER_NAME is not set"),
    ({"SERVER_NAME": "other.example"}, {}, "SERVER_NAME other.example is not in ALLOWED_HOSTS"),
    ({"SERVER_NAME": "parlour.example;"}, {}, "is not a host name"),
    ({"TLS_CERTIFICATE": ""}, {}, "TLS_CERTIFICATE is not set"),
    ({"TLS_CERTIFICATE": "/nonexistent/fullchain.pem"}, {}, "cannot read the certificate"),
    ({"TLS_CERTIFICATE_KEY": "/nonexistent/privkey.pem"}, {}, "cannot read the certificate's key"),
    ({"TLS_CERTIFICATE": "KEY"}, {}, "is not a PEM certificate"),
    ({}, {"TRUSTED_PROXY_SECRET": ""}, "TRUSTED_PROXY_SECRET is not set"),
    ({}, {"TRUSTED_PROXY_SECRET": "0123456789"}, "TRUSTED_PROXY_SECRET is weak"),
    ({}, {"TRUSTED_PROXY_SECRET": "ab" * 20}, "TRUSTED_PROXY_SECRET is weak"),
    ({}, {"TRUSTED_PROXY_SECRET": "a$b{c}d;e" * 4}, "TRUSTED_PROXY_SECRET is weak"),
    ({}, {"TRUSTED_PROXY_COUNT": 0}, "TRUSTED_PROXY_COUNT is 0"),
    ({}, {"STATIC_MANIFEST": False}, "STATIC_MANIFEST is off"),
    ({"WEB_UPSTREAMS": "127.0.0.1"}, {}, "is not host:port"),
    ({"NGINX_HTTPS_PORT": "70000"}, {}, "is not a port number"),
])
def test_the_renderer_refuses_what_would_half_deploy_the_site(site_environment, tmp_path, change,
                                                               settings_change, message):
    if change.get("TLS_CERTIFICATE") == "KEY":
        change = {"TLS_CERTIFICATE": site_environment["TLS_CERTIFICATE_KEY"]}
    with pytest.raises(deploy.Refusal, match=message) as refused:
        deploy.site_from_environment({**site_environment, **change},
                                     production_settings(tmp_path, **settings_change))
    assert "\n" not in str(refused.value)


def test_the_renderer_refuses_a_static_root_collectstatic_has_not_filled(site_environment, tmp_path):
    settings = production_settings(tmp_path)
    (tmp_path / "staticfiles.json").unlink()
    with pytest.raises(deploy.Refusal, match="holds no staticfiles.json: run manage.py collectstatic"):
        deploy.site_from_environment(site_environment, settings)


def test_the_renderer_command_refuses_in_one_line_and_writes_nothing(site_environment, tmp_path):
    """``python -m config.deploy nginx --output FILE`` with a missing
    certificate, then with a weak secret: exit status 2, one line on stderr,
    nothing on stdout, no FILE."""
    static = tmp_path / "static"
    static.mkdir()
    (static / "staticfiles.json").write_text("{}")
    out = tmp_path / "parlour.conf"
    env = {**example_environment(), **site_environment, "SECRET_KEY": secrets.token_urlsafe(50),
           "TRUSTED_PROXY_SECRET": secrets.token_hex(32), "STATIC_ROOT": str(static)}
    refusals = (({"TLS_CERTIFICATE": str(tmp_path / "missing.pem")}, "cannot read the certificate"),
                ({"TRUSTED_PROXY_SECRET": "short-secret"}, "the settings refuse"),
                ({"TRUSTED_PROXY_SECRET": "a" * 40}, "TRUSTED_PROXY_SECRET is weak"))
    for change, message in refusals:
        r = subprocess.run([sys.executable, "-m", "config.deploy", "nginx", "--output", str(out)],
                           cwd=ROOT, env=clean_environment(**{**env, **change}), capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 2, r.stderr
        assert r.stdout == ""
        assert len(r.stderr.strip().splitlines()) == 1 and message in r.stderr, r.stderr
        assert not out.exists()


def collect(source: Path, target: Path) -> dict[str, str]:
    """Post-process every file of ``source`` into ``target`` with production's
    storage, as collectstatic does; the manifest's paths."""
    import json

    from django.core.files.storage import FileSystemStorage

    from core.staticfiles import ModuleManifestStaticFilesStorage

    found = FileSystemStorage(location=source)
    storage = ModuleManifestStaticFilesStorage(location=target, base_url="/static/")
    names = [str(p.relative_to(source)) for p in source.rglob("*") if p.is_file()]
    for name in names:
        with found.open(name) as f:
            storage.save(name, f)
    for _name, _hashed, processed in storage.post_process({name: (found, name) for name in names}):
        assert not isinstance(processed, Exception), processed
    return json.loads((target / "staticfiles.json").read_text())["paths"]


def test_a_changed_module_renames_every_module_that_imports_it_up_to_the_page(tmp_path):
    """A hashed module's name covers its rewritten imports: when a module
    deep in the chain changes, the modules importing it, and the page's, get
    new names too, so a page never mixes two releases' modules; a module
    outside the chain keeps its name (and the browser's cached copy)."""
    source = tmp_path / "source"
    (source / "js" / "match").mkdir(parents=True)
    (source / "js" / "page.js").write_text('import { go } from "./match/middle.js";\ngo();\n')
    (source / "js" / "match" / "middle.js").write_text(
        'export { leaf as go } from "./leaf.js";\nexport const later = () => import("./leaf.js");\n')
    (source / "js" / "match" / "leaf.js").write_text("export function leaf() { return 1; }\n")
    (source / "js" / "other.js").write_text("export const other = 1;\n")
    before = collect(source, tmp_path / "before")
    (source / "js" / "match" / "leaf.js").write_text("export function leaf() { return 2; }\n")
    after = collect(source, tmp_path / "after")
    for name in ("js/match/leaf.js", "js/match/middle.js", "js/page.js"):
        assert before[name] != after[name], name
    assert before["js/other.js"] == after["js/other.js"]
    page = (tmp_path / "after" / after["js/page.js"]).read_text()
    assert f'from "./{Path(after["js/match/middle.js"]).relative_to("js")}"' in page
    middle = (tmp_path / "after" / after["js/match/middle.js"]).read_text()
    leaf = Path(after["js/match/leaf.js"]).name
    assert f'from "./{leaf}"' in middle and f'import("./{leaf}")' in middle


def test_a_web_process_refuses_to_start_with_the_manifest_on_before_collectstatic(tmp_path):
    """STATIC_MANIFEST=1 and an empty STATIC_ROOT: building the ASGI
    application (what uvicorn does as it starts) stops with a message
    naming the missing manifest and the command that makes it."""
    env = {**example_environment(), "SECRET_KEY": secrets.token_urlsafe(50),
           "TRUSTED_PROXY_SECRET": secrets.token_hex(32), "STATIC_ROOT": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", "import config.asgi"], cwd=ROOT, env=clean_environment(**env),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert f"{tmp_path}/staticfiles.json is missing" in last and "collectstatic --noinput" in last, r.stderr
