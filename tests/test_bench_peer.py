"""The table of ``make bench-peer`` (benchmarks/live.py, "Peer"), from made-up results: no node runs."""

import collections

from benchmarks import live, live_peer, live_report


def window(moves_per_s, cpu_ms, p99, errors=None, persisted=None):
    result = {"moves_per_s": moves_per_s, "server_cpu_ms_per_move": cpu_ms, "server_cpu_percent": 50.0,
              "p50": 5.0, "p95": 9.0, "p99": p99, "errors": errors or {},
              "error_count": sum((errors or {}).values()), "driver_cpu_percent": 40.0}
    if persisted is not None:
        result["persisted_per_s"] = persisted
    return result


def test_the_peer_table_puts_parlours_first_layout_beside_boardgame_io_with_the_ratio():
    args = live.parse_args(["--peer"])
    ours = {"label": "daphne:1", "sockets": 1600, "user_sockets": 800, "bytes_per_socket": 40 * 1024,
            "connect_seconds": 9.0, "public_frame_bytes": 9870, "seat_frame_bytes": 10553,
            "paced": window(100, 3.0, 21.6), "saturated": window(250, 4.0, 80.0, persisted=245)}
    peer = {"label": "boardgame.io 0.50.2", "sockets": 800, "bytes_per_socket": 16 * 1024,
            "connect_seconds": 3.0, "update_frame_bytes": 700, "setup_errors": {}, "exited": False,
            "versions": {"boardgame.io": "0.50.2", "node": "v20", "socket.io": "4.8.4",
                         "socket.io-client": "4.8.4"},
            "paced": window(100, 1.0, 2.2), "saturated": window(800, 1.25, 40.0, {"round trip timed out": 2})}

    text = live_report.peer_report(args, ours, peer)
    lines = {line.strip().split("  ")[0]: line.split() for line in text.splitlines()}

    assert "Parlour daphne:1" in text and "boardgame.io 0.50.2" in text
    assert lines["moves/s (Parlour: persisted, Move rows of seats)"][-3:] == ["245", "800", "0.31x"]
    assert lines["server CPU per move (ms)"][-3:] == ["4.00", "1.25", "3.20x"]
    assert lines["server memory per idle socket (KiB)"][-3:] == ["40.0", "16.0", "2.50x"]
    assert "2 (2)" in text  # the peer's errors, of them round trips lost
    assert "Errors by kind (boardgame.io 0.50.2): {'round trip timed out': 2}" in text
    assert "include 800 user sockets" in text


def test_a_window_of_the_node_driver_reads_as_the_python_clients_stats():
    stats = live_peer.window_stats({
        "seconds": 10.0, "driver_cpu_seconds": 2.5, "sent": 4, "rtts": [0.001, 0.002, 0.003, 0.004],
        "errors": {"round trip timed out": 1}, "missed_slots": 3, "replaced": 0,
    })

    assert stats.moves_per_second == 0.4
    assert stats.driver_cpu_percent == 25.0
    assert stats.percentile_ms(50) == 2.0
    assert stats.errors == collections.Counter({"round trip timed out": 1})
