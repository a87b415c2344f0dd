"""np2ref.compile of a function that reads a clock or logs through a module-level logger is
refused NPR021 (it stays NumPy code) with the rewrite for that call, not the generic hint (main);
the hinted rewrites run against NumPy: results, the mutated argument, the log records' text."""

import logging

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("host_hints")


def _bump(n=12):
    u = np.zeros(n)
    u[-1] = 1.0
    return u


def _hint(name, *args):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(getattr(P, name), host_below=0)(*args)
    (d,) = info.value.diagnostics
    assert d.code == "NPR021"
    return d.hint


def test_a_clock_is_refused_with_the_timed_call():
    hint = _hint("timed_relax", _bump(), 5)
    assert "t0 = time.perf_counter(); out = timed_relax(...); elapsed = time.perf_counter() - t0" in hint
    assert "np2ref convert" in hint


def test_the_timed_call_is_exact():
    compiled = np2ref.compile(P.relax, host_below=0)
    t0 = __import__("time").perf_counter()
    assert_same_as_numpy(P.relax, compiled, _bump(), 7)
    assert __import__("time").perf_counter() - t0 >= 0.0


def test_a_logger_is_refused_with_logging_from_the_caller():
    hint = _hint("relax_logged", _bump(), 7, 3)
    assert "log from the caller" in hint and "`log.info(...)` after the call" in hint


def test_logging_from_the_caller_logs_numpy_s_records(caplog):
    u0 = _bump()
    with caplog.at_level(logging.INFO, logger="np2ref_host_hints"):
        P.relax_logged(u0.copy(), 7, 3)
        want = [r.getMessage() for r in caplog.records]
        caplog.clear()
        _, (u, res) = assert_same_as_numpy(P.relax_residuals, np2ref.compile(P.relax_residuals, host_below=0), u0, 7)
        P.log_residuals(res, 3)
        got = [r.getMessage() for r in caplog.records]
    assert len(want) == 3 and got == want


def test_a_save_is_refused_with_saving_from_the_caller(tmp_path):
    hint = _hint("relax_saved", _bump(), 5, str(tmp_path / "a.npz"))
    assert "save from the caller" in hint and "`np.savez(...)` with it after `relax_saved(...)`" in hint


def test_saving_from_the_caller_writes_numpy_s_arrays(tmp_path):
    P.relax_saved(_bump(), 6, str(tmp_path / "want.npz"))
    _, (u, energy) = assert_same_as_numpy(P.relax_energy, np2ref.compile(P.relax_energy, host_below=0), _bump(), 6)
    np.savez(str(tmp_path / "got.npz"), energy=energy, u=u)
    with np.load(tmp_path / "want.npz") as want, np.load(tmp_path / "got.npz") as got:
        for key in ("energy", "u"):
            assert want[key].dtype == got[key].dtype and want[key].tobytes() == got[key].tobytes()
