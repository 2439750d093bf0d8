"""The layout across machines in deploy/hosts/ (docs/operations.md, "More
than one machine"): each host's supervisord configuration agrees with its
Procfile, its ``${NAME}`` settings are required, the web and worker hosts
run deploy/Procfile's own lines, there is one beat in the whole layout, and
the proxy host's nginx configuration is made from its settings or refused
with a message naming the one that is wrong. The network-namespace test
(tests/resilience/test_hosts.py) runs them."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from config import hosts, supervisor
from config.supervisor import Program
from tests.test_supervisor_config import read_as_supervisord

ENV = {"WEB_BIND": "10.0.0.3", "DATA_BIND": "10.0.0.6", "REDIS_PASSWORD": "pw-of-redis"}


def expanded(command: str, env: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}", lambda m: env[m[1]], command)


@pytest.mark.parametrize("role", supervisor.HOST_ROLES)
def test_each_host_configuration_is_generated_from_its_procfile(role):
    procfile = supervisor.host_procfile(role)
    assert (supervisor.HOSTS_DIR / f"{role}.conf").read_text() == supervisor.deploy_configuration(procfile), (
        f"deploy/hosts/{role}.conf is out of date: run `.venv/bin/python -m config.supervisor "
        f"deploy/hosts/{role}.Procfile > deploy/hosts/{role}.conf`")


@pytest.mark.parametrize("role", supervisor.HOST_ROLES)
def test_supervisord_runs_each_host_procfile_line_with_its_settings(role, tmp_path, monkeypatch):
    (tmp_path / "deploy" / "hosts").mkdir(parents=True)
    (tmp_path / "var" / "run").mkdir(parents=True)
    (tmp_path / "var" / "log").mkdir()
    conf = tmp_path / "deploy" / "hosts" / f"{role}.conf"
    shutil.copy(supervisor.HOSTS_DIR / f"{role}.conf", conf)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    _, programs = read_as_supervisord(conf)
    procfile = supervisor.read_procfile(supervisor.host_procfile(role))
    assert sorted(programs) == sorted(p.name for p in procfile)
    for p in procfile:
        assert programs[p.name].command == expanded(p.command, ENV)
        assert programs[p.name].directory == str(tmp_path / "deploy" / "hosts" / ".." / "..")


def test_a_web_host_without_its_address_does_not_start(tmp_path):
    (tmp_path / "deploy" / "hosts").mkdir(parents=True)
    (tmp_path / "var" / "run").mkdir(parents=True)
    (tmp_path / "var" / "log").mkdir()
    conf = tmp_path / "deploy" / "hosts" / "web.conf"
    shutil.copy(supervisor.HOSTS_DIR / "web.conf", conf)
    env = {name: value for name, value in os.environ.items() if name != "WEB_BIND"}
    started = subprocess.run([sys.executable, "-m", "supervisor.supervisord", "-c", str(conf)], env=env,
                             capture_output=True, text=True, timeout=60)
    assert started.returncode != 0
    assert "contains names ('ENV_WEB_BIND') which cannot be expanded" in started.stderr
    assert not (tmp_path / "var" / "run" / "supervisord.pid").exists()


def _lines(path):
    return {p.name: p.command for p in supervisor.read_procfile(path)}


def test_the_web_and_worker_hosts_run_the_lines_of_deploy_procfile():
    one_machine = _lines(supervisor.PROCFILE)
    web = _lines(supervisor.host_procfile("web"))
    assert web and {name: command.replace("${WEB_BIND}", "127.0.0.1") for name, command in web.items()} == {
        name: command for name, command in one_machine.items() if name.startswith("web")}
    worker = _lines(supervisor.host_procfile("worker"))
    assert worker == {name: command for name, command in one_machine.items() if not name.startswith("web")}


def test_the_whole_layout_has_one_beat_and_every_host_its_own_processes():
    found = [(role, p.name, p.command) for role in supervisor.HOST_ROLES
             for p in supervisor.read_procfile(supervisor.host_procfile(role))]
    assert [role for role, _, command in found if " beat " in command] == ["worker"]
    assert {role for role, *_ in found} == set(supervisor.HOST_ROLES)
    assert supervisor.variables(supervisor.read_procfile(supervisor.host_procfile("web"))) == ["WEB_BIND"]


def test_a_dollar_that_is_not_a_setting_is_refused():
    with pytest.raises(ValueError, match=r"a '\$' other than \$\{NAME\}"):
        supervisor.configuration([Program("x", "python -m x --host $WEB_BIND")], directory="/srv",
                                 state="/srv")


@pytest.mark.parametrize(("environ", "message"), [
    ({}, "WEB_UPSTREAMS is empty"),
    ({"WEB_UPSTREAMS": "10.0.0.3"}, "WEB_UPSTREAMS entry '10.0.0.3' is not host:port"),
    ({"WEB_UPSTREAMS": "10.0.0.3:8101,web two:8101"}, "WEB_UPSTREAMS entry 'web two:8101' is not host:port"),
    ({"WEB_UPSTREAMS": "10.0.0.3:99999"}, "WEB_UPSTREAMS entry '10.0.0.3:99999' is not host:port"),
    ({"WEB_UPSTREAMS": "10.0.0.3:8101", "PROXY_LISTEN": "all"}, "PROXY_LISTEN='all' is not a port"),
    ({"WEB_UPSTREAMS": "10.0.0.3:8101"}, "TRUSTED_PROXY_SECRET must be set"),
    ({"WEB_UPSTREAMS": "10.0.0.3:8101", "TRUSTED_PROXY_SECRET": "short"}, "TRUSTED_PROXY_SECRET must be set"),
])
def test_the_proxy_host_refuses_a_missing_or_malformed_setting_and_writes_nothing(environ, message, tmp_path):
    with pytest.raises(hosts.HostSettingError, match=re.escape(message)):
        hosts.proxy_argv({**environ, "PROXY_STATE_DIR": str(tmp_path / "proxy")})
    assert not (tmp_path / "proxy").exists()


def test_the_proxy_host_configuration_lists_the_remote_web_processes_and_nginx_accepts_it(tmp_path):
    nginx = hosts.find_nginx()
    if nginx is None:
        pytest.skip("nginx is not installed")
    argv = hosts.proxy_argv({"WEB_UPSTREAMS": " 10.0.0.3:8101, 10.0.0.3:8102,10.0.0.4:8101 ",
                             "PROXY_LISTEN": "10.0.0.2:80", "TRUSTED_PROXY_SECRET": "s" * 32,
                             "PROXY_STATE_DIR": str(tmp_path)})
    text = (tmp_path / "nginx.conf").read_text()
    assert re.findall(r"server (\S+) max_fails=0;", text) == [
        "10.0.0.3:8101", "10.0.0.3:8102", "10.0.0.4:8101"]
    assert "listen 10.0.0.2:80;" in text and 'X-Parlour-Proxy "' + "s" * 32 + '"' in text
    assert argv[argv.index("-c") + 1] == str(tmp_path / "nginx.conf")
    checked = subprocess.run([nginx, "-t", "-e", str(tmp_path / "nginx-error.log"),
                              "-c", argv[argv.index("-c") + 1]], capture_output=True, text=True, timeout=30)
    assert "syntax is ok" in checked.stderr, checked.stderr  # (its test binds 10.0.0.2, not here)
