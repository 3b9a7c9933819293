"""Helpers the test layers share (the benchmarks import some too): builders, strategies,
real servers, stores, terminals and browsers. Nothing here is collected as a test."""
