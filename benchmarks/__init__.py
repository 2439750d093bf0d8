"""Benchmarks, run as modules: ``python -m benchmarks.engine``, ``python -m benchmarks.bots``."""
