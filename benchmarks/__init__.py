"""Benchmarks, separate from the tests: ``python -m benchmarks.<name>``."""
