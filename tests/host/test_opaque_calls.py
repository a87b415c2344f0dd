"""Calls of objects np2ref cannot see into (issue 42 item 3, rt/opaque.py): an ordered host call
whose first call, made on the host at run time, fixes its result's shape and dtype. Against
NumPy: the same values, the same object state and number of calls afterwards, call after call."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, program


def programs():
    return program("opaque_calls")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(programs(), name), host_below=0)  # the compiled route, never NumPy's


class Sampler:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.calls = 0

    def next_batch(self, n):
        self.calls += 1
        return self.rng.random(n)


def _source_state(source):
    return source.calls, str(source.rng.bit_generator.state)


@pytest.mark.parametrize("name, args", [("diffuse", lambda: (np.linspace(0.0, 1.0, 7), 4)),
                                        ("noisy_level", lambda: (np.arange(3.0),)),
                                        ("take", lambda: (4,))])
def test_module_level_object_calls_as_numpy_makes_them(name, args):
    """Three calls: the first fixes the shapes (NumPy's own call), the next two are compiled."""
    P = programs()
    fn, c = getattr(P, name), compiled(name)
    for _ in range(3):
        P.SOURCE = P.Source(5)
        expected, after_numpy = fn(*args()), _source_state(P.SOURCE)
        P.SOURCE = P.Source(5)
        got, after_ours = c(*args()), _source_state(P.SOURCE)
        assert type(got) is type(expected)
        assert_numpys_bits(got, expected)
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        assert after_ours == after_numpy


def test_the_source_is_an_ordered_host_call_in_the_converted_program():
    code = compiled("diffuse").source
    assert "npr_opaque(SOURCE, 'draw', " in code and "@npr_jit" in code


def test_no_call_after_a_failed_run_time_check():
    """`v = u[k]` with k out of range raises after the program ran: the object's call staged after
    it is not made (its counter and generator as NumPy's run leaves them)."""
    P = programs()
    c = compiled("level_after_read")
    states = []
    for call in (P.level_after_read, c):
        P.SOURCE = P.Source(2)
        call(np.arange(3.0), np.int64(1))  # (the first call fixes the result's type)
        with pytest.raises(IndexError):
            call(np.arange(3.0), np.int64(5))
        states.append(_source_state(P.SOURCE))
    assert states[0] == states[1]


def test_a_sampler_passed_in_is_called_as_numpy_calls_it():
    fn, c = getattr(programs(), "accumulate"), compiled("accumulate")
    for _ in range(3):
        theirs, ours = Sampler(4), Sampler(4)
        expected, got = fn(theirs, 3, 5), c(ours, 3, 5)
        assert_numpys_bits(got, expected)
        assert (ours.calls, str(ours.rng.bit_generator.state)) == (theirs.calls, str(theirs.rng.bit_generator.state))


def test_a_result_that_changes_shape_is_a_coded_error():
    """The first call fixes the shape: a later call that returns another is NPR040, not a
    misshapen array."""
    P = programs()
    c = np2ref.compile(P.take_scaled, host_below=0)
    P.SOURCE = P.Source(1, grow=1)
    first = c(np.ones(2), 2)  # NumPy's own call: 3 values
    assert first.shape == (3,)
    with pytest.raises((np2ref.rt.NprError, np2ref.Np2RefError)) as info:  # (the refusal's type: compile.py)
        c(np.ones(2), 2)
    error = info.value
    assert (error.code if isinstance(error, np2ref.rt.NprError) else error.diagnostics[0].code) == "NPR040"


def test_a_function_with_no_array_work_runs_as_written():
    """`take(n)` is given no array and does no array work: it runs as written, each call, so a
    result whose shape changes call by call is NumPy's (no first call fixes it), and the object
    is the one the module holds now (the test rebinds SOURCE after compiling)."""
    P = programs()
    c = np2ref.compile(P.take, host_below=0)
    for grow in (0, 1):
        P.SOURCE = P.Source(1, grow=grow)
        expected = [P.take(2) for _ in range(3)]
        P.SOURCE = P.Source(1, grow=grow)
        got = [c(2) for _ in range(3)]
        assert P.SOURCE.calls == 3
        for g, e in zip(got, expected):
            assert type(g) is type(e)
            assert_numpys_bits(g, e)


def test_array_data_handed_to_an_object_is_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled("hand_over")(np.arange(2.0), Sampler(0))
    assert info.value.diagnostics[0].code == "NPR021"


def test_a_function_that_writes_an_argument_stays_numpy_code():
    """The object could read the argument np2ref writes in place: no exact translation."""
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled("writes_and_calls")
    assert info.value.diagnostics[0].code == "NPR021"


def test_a_converted_file_makes_the_first_call_op_by_op():
    """No original function in a converted file: its first call runs the converted program op by
    op (each host call made at once, recording its result); a loop that carries values cannot,
    and says so (NPR021) instead of failing inside JAX."""
    P = programs()
    result = np2ref.convert_source(open(P.__file__).read(), "opaque_calls.py")
    ns = {"__name__": "opaque_calls_ref"}
    exec(compile(result.code, "opaque_calls_ref.py", "exec"), ns)  # noqa: S102
    u = np.linspace(0.0, 1.0, 7)
    for _ in range(2):
        P.SOURCE, ns["SOURCE"] = P.Source(5), P.Source(5)
        assert_numpys_bits(ns["diffuse"](u, 4), P.diffuse(u, 4))
        assert _source_state(ns["SOURCE"]) == _source_state(P.SOURCE)
    class Unseen(Sampler):  # a method whose first result no earlier test recorded
        def next_batch(self, n):
            return self.rng.random(n)
    with pytest.raises(np2ref.rt.NprError) as info:
        ns["accumulate"](Unseen(1), 3, 4)
    assert info.value.code == "NPR021"
