"""Hosts made of Linux network namespaces, for the test of the layout across
machines (tests/resilience/test_hosts.py, docs/operations.md "More than one
machine").

Each host is a network namespace with one address on a /24 joined by a
bridge in the root namespace (which has the subnet's first address: the
test process talks to every host from there, as a client on the same
network), and its own loopback. A process runs in a host through
``ip netns exec`` and ``unshare --uts``, so it also has the host's own host
name (Celery's node names, the beat lock's holder). Names carry the test
process's id: runs side by side never clash, and the leftovers of a run
that died (its process gone) are removed by the next one. Needs root and
iproute2.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field

PREFIX = "parlour-"
BRIDGE_PREFIX = "plb"  # interface names are at most 15 characters
VETH_PREFIX = "plv"


def usable() -> str | None:
    """None when hosts can be made here; otherwise why not."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "no `ip` (apt-get install iproute2)"
    if shutil.which("unshare") is None:
        return "no `unshare` (util-linux)"
    probe = f"{PREFIX}{os.getpid()}-probe"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True, timeout=30)
    if made.returncode:
        return (f"cannot make a network namespace here (ip netns add: {made.stderr.strip()}): "
                "root with CAP_SYS_ADMIN and CAP_NET_ADMIN is needed")
    _ip("netns", "del", probe, check=False)
    return None


def _ip(*args: str, check: bool = True) -> str:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_everything_in(netns: str) -> None:
    """SIGKILL every process in network namespace ``netns``: the host dies."""
    for pid in _ip("netns", "pids", netns, check=False).split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass


def remove_leftovers() -> None:
    """Remove the namespaces and bridges of earlier runs whose process is gone."""
    for line in _ip("netns", "list", check=False).splitlines():
        name = line.split()[0] if line.split() else ""
        m = re.match(rf"^{PREFIX}(\d+)-", name)
        if m and not _alive(int(m[1])):
            kill_everything_in(name)
            _ip("netns", "del", name, check=False)
    links = _ip("-o", "link", "show", check=False)
    for m in re.finditer(rf"^\d+: ((?:{BRIDGE_PREFIX}|{VETH_PREFIX})(\d+)(?:x\d+)?)[:@]", links, re.M):
        if not _alive(int(m[2])):
            _ip("link", "del", m[1], check=False)


def free_subnet(first: int) -> str:
    """A 10.39.N.0/24 that no route of this machine uses, trying N from ``first``."""
    taken = set(re.findall(r"^10\.39\.(\d+)\.0/24", _ip("-4", "route", "show", check=False), re.M))
    for step in range(254):
        n = (first + step) % 254 + 1
        if str(n) not in taken:
            return f"10.39.{n}"
    raise RuntimeError("no free 10.39.N.0/24 subnet")


@dataclass
class Hosts:
    """Hosts on one bridge; ``address[name]`` is each host's address and
    ``gateway`` the root namespace's."""

    tag: str = field(default_factory=lambda: str(os.getpid()))
    address: dict[str, str] = field(default_factory=dict)
    made: list[str] = field(default_factory=list)

    def __post_init__(self):
        remove_leftovers()
        self.net = free_subnet(int(self.tag) % 254)
        self.gateway = f"{self.net}.1"
        self.bridge = f"{BRIDGE_PREFIX}{self.tag}"
        _ip("link", "del", self.bridge, check=False)  # a dead run's, of the same process id
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")

    @property
    def subnet(self) -> str:
        return f"{self.net}.0/24"

    def netns(self, name: str) -> str:
        return f"{PREFIX}{self.tag}-{name}"

    def add(self, name: str) -> str:
        """A new host ``name`` with the next address; returns the address."""
        index = len(self.address) + 2
        netns, veth = self.netns(name), f"{VETH_PREFIX}{self.tag}x{index}"
        # A name of this process id can only be a dead run's (the id reused).
        _ip("link", "del", veth, check=False)
        kill_everything_in(netns)
        _ip("netns", "del", netns, check=False)
        _ip("netns", "add", netns)
        self.made.append(netns)
        _ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", netns)
        _ip("link", "set", veth, "master", self.bridge, "up")
        address = f"{self.net}.{index}"
        _ip("-n", netns, "addr", "add", f"{address}/24", "dev", "eth0")
        _ip("-n", netns, "link", "set", "eth0", "up")
        _ip("-n", netns, "link", "set", "lo", "up")
        self.address[name] = address
        return address

    def argv(self, name: str, argv: list[str]) -> list[str]:
        """``argv`` run in host ``name``, under its own host name."""
        return ["ip", "netns", "exec", self.netns(name), "unshare", "--uts", "--",
                "sh", "-c", 'hostname "$0" && exec "$@"', name, *argv]

    def established(self, name: str, ports: tuple[int, ...]) -> int:
        """TCP connections established to ``ports`` of host ``name``."""
        where = " or ".join(f"sport = :{p}" for p in ports)
        out = subprocess.run(["ip", "netns", "exec", self.netns(name), "ss", "-Htn", "state", "established",
                              f"( {where} )"], capture_output=True, text=True, timeout=30, check=True).stdout
        return len(out.splitlines())

    def kill(self, name: str) -> None:
        """Every process of host ``name`` dies at once (its link stays up:
        a connection to it is refused)."""
        kill_everything_in(self.netns(name))

    def tear_down(self) -> None:
        """Kill every host's processes, then remove the hosts and the bridge.
        All processes first, while the network is up: their connections
        close both ways at once. A connection left half-closed towards a
        host already gone keeps its namespace alive for minutes."""
        deadline = time.monotonic() + 30
        while any(_ip("netns", "pids", netns, check=False).split() for netns in self.made):
            for netns in self.made:
                kill_everything_in(netns)
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        for netns in self.made:
            _ip("netns", "del", netns, check=False)
        _ip("link", "del", self.bridge, check=False)
