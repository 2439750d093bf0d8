"""The match page on a phone, measured with Lighthouse (``make bench-page``).

Run: ``.venv/bin/python -m benchmarks.page [--runs N] [--games ludo,roundabout,rondo]``.

It starts its own services as ``make bench-live`` does (``live_services``: the
embedded redis-server, a fresh SQLite file under ``var/bench/``, one daphne
with production settings, no Celery worker, so no computer moves and no
deadline fires while it measures), makes one match per game at a seat's
decision (``tests/e2e/positions.py``: four seats where the game allows, the
longest names), and runs Lighthouse (the version ``benchmarks/page/package-lock.json``
pins, installed with ``npm ci`` into ``var/lighthouse/``) with its default
mobile profile (a phone of 412x823, 4x CPU slowdown and a slow 4G network,
both simulated) in Debian's Chromium (``/usr/bin/chromium``, or ``CHROME_PATH``),
performance only, on each game's match page as the player of seat 0 (its
session cookie) and as a signed-out spectator, ``--runs`` times each (default
3). It prints, per page, the median of: the performance score, total blocking
time, cumulative layout shift, largest contentful paint, the main thread's
work, and the bytes transferred. The page keeps its WebSocket open: Lighthouse
measures the load, the socket's first frames included.

Scores and blocking time depend on the machine and its load: they are
reported here, never asserted in a test (``tests/e2e/test_layout.py`` asserts
the layout shift itself, in the suite's own Chromium).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

from benchmarks import live_services as services

SOURCE = services.ROOT / "benchmarks" / "page"
TARGET = services.ROOT / "var" / "lighthouse"
CLI = TARGET / "node_modules" / "lighthouse" / "cli" / "index.js"
GAMES = {"ludo": "ludo-roll", "roundabout": "roundabout-roll", "rondo": "rondo-place"}
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run "
                "--disable-background-networking --disable-component-update --disable-sync")


def lighthouse(url: str, cookie: str | None, chrome: str) -> dict:
    """One Lighthouse run of ``url`` (``cookie``: the session cookie's value,
    or None signed out): the figures this benchmark prints. RuntimeError when
    Lighthouse fails."""
    argv = ["node", str(CLI), url, "--output=json", "--output-path=stdout", "--quiet",
            "--only-categories=performance", f"--chrome-path={chrome}", f"--chrome-flags={CHROME_FLAGS}"]
    if cookie is not None:
        from django.conf import settings

        argv.append("--extra-headers=" + json.dumps({"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"}))
    out = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    if out.returncode:
        raise RuntimeError(f"lighthouse failed ({out.returncode}): {out.stderr[-2000:]}")
    report = json.loads(out.stdout)
    audits = report["audits"]
    return {
        "score": 100 * (report["categories"]["performance"]["score"] or 0),
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "main_thread_ms": audits["mainthread-work-breakdown"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"],
    }


def make_pages(base: str, games: list[str]) -> list[tuple[str, str, str | None]]:
    """(label, url, cookie) of each game's match page, as seat 0 and signed out."""
    from django.conf import settings
    from django.test import Client

    from tests.e2e.positions import make_decision

    pages = []
    for game in games:
        match = make_decision(GAMES[game])
        client = Client()
        client.force_login(match.seats.get(index=0).user)
        url = f"{base}/m/{match.public_id}/"
        pages.append((f"{game}, player", url, client.cookies[settings.SESSION_COOKIE_NAME].value))
        pages.append((f"{game}, spectator", url, None))
    return pages


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The match page on a phone, with Lighthouse.")
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page (default 3)")
    parser.add_argument("--games", default=",".join(GAMES),
                        help=f"comma list of games (default {','.join(GAMES)})")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    if not games or any(g not in GAMES for g in games):
        parser.error(f"--games takes some of {', '.join(GAMES)}")
    chrome = os.environ.get("CHROME_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    services.npm_install(SOURCE, TARGET, "Lighthouse")
    version = json.loads((TARGET / "node_modules" / "lighthouse" / "package.json").read_text())["version"]
    chromium = subprocess.run([chrome, "--version"], capture_output=True, text=True,
                              check=False).stdout.strip()
    print(f"bench-page {datetime.datetime.now().isoformat(timespec='seconds')}: Lighthouse {version}, "
          f"{chromium}, mobile profile, {args.runs} runs per page; load average {services.load_average()}",
          flush=True)
    bench_dir = services.BENCH_DIR
    if bench_dir.exists():
        shutil.rmtree(bench_dir)
    bench_dir.mkdir(parents=True)
    started = []
    try:
        redis = services.start_redis(bench_dir / "redis.sock")
        started.append(redis)
        env = services.server_env(bench_dir / "redis.sock", f"sqlite:///{bench_dir / 'db.sqlite3'}")
        services.migrate(env)
        os.environ.update(env)
        import django

        django.setup()
        port = services.free_port()
        server = services.start_daphne(port, env)
        started.append(server)
        rows = []
        for label, url, cookie in make_pages(f"http://127.0.0.1:{port}", games):
            runs = [lighthouse(url, cookie, chrome) for _ in range(args.runs)]
            median = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            rows.append((label, median))
            print(f"  {label}: score {median['score']:.0f}, TBT {median['tbt_ms']:.0f} ms, "
                  f"CLS {median['cls']:.3f}, LCP {median['lcp_ms']:.0f} ms, main thread "
                  f"{median['main_thread_ms']:.0f} ms, {median['bytes'] / 1024:.0f} KiB", flush=True)
    finally:
        for svc in reversed(started):
            svc.stop()
    print()
    header = ("page (median of runs)", "score", "TBT ms", "CLS", "LCP ms", "main thread ms", "KiB")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label, m in rows:
        print(f"| {label} | {m['score']:.0f} | {m['tbt_ms']:.0f} | {m['cls']:.3f} | {m['lcp_ms']:.0f} | "
              f"{m['main_thread_ms']:.0f} | {m['bytes'] / 1024:.0f} |")
    return 0


if __name__ == "__main__":
    start = time.perf_counter()
    code = main()
    print(f"\nTotal time {time.perf_counter() - start:.0f} s.")
    sys.exit(code)
