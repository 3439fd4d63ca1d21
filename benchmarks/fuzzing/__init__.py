"""Seeded fuzz campaigns over the codecs: inputs, mutations, checks and a runner with timeouts.

`benchmarks/fuzz.py` is the command; `runner.run_campaign` the in-process entry point.
Every input is a pure function of (seed, kind, index), so any finding can be regenerated.
"""
