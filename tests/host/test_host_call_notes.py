"""NPR039 says how often a compiled loop's host calls run: a print (or draw) under the body's own
`if` (`if step % every == 0: print(...)`, 20 of the 24 such loops in corpus/ and examples/) is a
round trip only on the trips that take it (2,000 trips of a small stencil: 1.0 ms with a print
every 1,000 trips, 855 ms with one every trip, 0.2 ms with none, on the CPU), so the note says
"up to ... each under an `if`" instead of "will dominate its run time". The `if`s frontend/jumps.py
makes for a `break` guard every trip that goes on: a call under them alone is made every trip."""

import np2ref

SOURCE = '''
import numpy as np


def sometimes(u, n, every):
    for step in range(n):
        u[1:-1] += 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
        if step % every == 0:
            print(step, u.sum())
    return u


def always(u, n):
    for step in range(n):
        u[1:-1] += 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
        print(step, u.sum())
    return u


def until(u, n):
    for step in range(n):
        u[1:-1] += 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
        print(step, u.sum())
        if u.max() < 0.5:
            break
    return u
'''


def _notes():
    result = np2ref.convert_source(SOURCE, "notes.py")
    lines = SOURCE.splitlines()
    return {lines[next(i for i in range(d.line - 1, -1, -1) if lines[i].startswith("def "))][4:].split("(")[0]: d.message
            for d in result.diagnostics if d.code == "NPR039"}


def test_a_print_under_the_bodys_if_is_counted_as_such():
    notes = _notes()
    assert set(notes) == {"sometimes", "always", "until"}
    assert notes["sometimes"].startswith("this loop makes up to 1 host call per iteration (print; line 9), each under an `if`")
    assert "on each trip whose `if` holds" in notes["sometimes"] and "will dominate" not in notes["sometimes"]


def test_a_print_on_every_trip_dominates():
    notes = _notes()
    for name in ("always", "until"):  # (until's print is under the `if` its `break` made: every trip)
        assert "under an `if`" not in notes[name] and "will dominate its run time" in notes[name]
        assert notes[name].startswith("this loop makes 1 host call per iteration (print;")
