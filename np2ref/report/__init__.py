"""Readiness reports (`np2ref check --report`): how much of a code base converts exactly, what
blocks the rest, and where.

`collect` gathers the data per function; `terminal`, `html` and `json_report` render it.
"""
