"""Shared fixtures: x64 scoped to np2ref's own calls, and a loader for source snippets."""

from __future__ import annotations

import contextlib
import copy
import functools
import gc
import importlib.util
import inspect
import io
import itertools
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

# The differential tests compare the original with np2ref's translation: every np2ref.compile in
# the suite runs the jitted program, never the host route (which runs the original itself on
# small arrays); tests/host/test_host_route.py tests that route with host_below given explicitly.
os.environ["NP2REF_HOST_BELOW"] = "0"
# `np2ref check` reads and writes its content cache (np2ref/cache.py) only where a test asks for
# it (tests/cli/test_check_cache.py): the suite leaves the user's ~/.cache alone.
os.environ["NP2REF_NO_CACHE"] = "1"
# rt/divisions.py runs a program unfenced (with a warning) when fencing it fails, for a JAX whose
# internals moved; in the suite such a failure is np2ref's own bug and raises (session 10: a
# Literal in an unhashable set hid there and every chain of constants ran unfenced)
os.environ["NP2REF_STRICT_REWRITES"] = "1"

import np2ref
from np2ref.verify.compare import first_difference

# The cyclic collector: a worker runs for minutes with jax, libcst, np2ref and every test module
# loaded, and each full collection walked them all (7.9% of the CPU of a 42 s slice of
# tests/masks and tests/third_party, 15 full collections at 0.17 s, longer as a worker's heap
# grows). Young collections run 14 times less often and what collection imported is frozen out
# of the full ones (pytest_collection_finish): the same slice spent 0.7 s in the collector, not
# 3.3 s; test_dp_finance_queues.py 28.5 -> 27.1 s of CPU at the same peak memory (530 MB).
# Nothing a test checks depends on when garbage is collected.
gc.set_threshold(10_000, 20, 20)


def pytest_collection_finish(session):
    gc.freeze()

ROOT = Path(__file__).resolve().parents[1]
_counter = itertools.count()


@functools.cache
def on_tpu() -> bool:
    import jax
    return jax.default_backend() == "tpu"


def assert_numpys_bits(got, want):
    """got is NumPy's `want` bit for bit (values, dtype, shape), where float64 is IEEE's; on a
    TPU, whose float64 is a pair of float32 values (docs/tpu.md: 48 bits, 1e-14), float values
    to 1e-13 of the largest (float32's to 64 ulps of it), integers and booleans still exactly."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if on_tpu() and want.dtype.kind in "fc":
        # float32: a TPU's float32 division and square root are not correctly rounded (1 ulp off
        # in a Cholesky step on the chip, 2026-12-06), and an element loop carries that error on
        tol = 64 * np.finfo(np.float32).eps if want.real.dtype == np.float32 else 1e-13
        np.testing.assert_allclose(got, want, rtol=0, atol=tol * max(1.0, float(np.nanmax(np.abs(want), initial=0))))
    else:
        np.testing.assert_array_equal(got, want)


def signless_on_tpu(value):
    """`value` with its float64 zeros made +0.0 on a TPU, whose float64 pair holds no -0.0
    (docs/tpu.md); `value` itself elsewhere. Containers, types and dtypes stay."""
    if not on_tpu():
        return value
    import jax

    def plus(v):
        if isinstance(v, float) or isinstance(v, (np.ndarray, np.generic)) and v.dtype == np.float64:
            return v + 0.0  # (-0.0 + 0.0 is 0.0; every other value itself)
        return v
    return jax.tree_util.tree_map(plus, value)


def numpys_values(got, want) -> bool:
    """np.array_equal(got, want), where float64 is IEEE's; on a TPU (a float32 pair: 48 bits,
    docs/tpu.md) float values to 1e-13 of the largest. Values that passed through a TPU program
    (a draw stored and returned) are the pair's."""
    got, want = np.asarray(got), np.asarray(want)
    if on_tpu() and want.dtype.kind in "fc" and got.shape == want.shape:
        scale = max(1.0, float(np.nanmax(np.abs(want), initial=0)))
        return bool(np.allclose(got, want, rtol=0, atol=1e-13 * scale, equal_nan=True))
    return bool(np.array_equal(got, want))


def assert_same_printed(got: str, want: str):
    """What a translation printed is NumPy's text; on a TPU (a float32 pair: 48 bits, docs/tpu.md)
    each number with a fraction to 1e-13 of its size, the rest of the text exactly."""
    if not on_tpu():
        assert got == want
        return
    number = r"-?\d+\.\d+(?:e[-+]?\d+)?"
    assert re.split(number, got) == re.split(number, want), (got, want)
    g, w = (np.array(re.findall(number, t), dtype=float) for t in (got, want))
    np.testing.assert_allclose(g, w, rtol=1e-13, atol=1e-13)


def load_module(source: str, tmp_dir: Path, name: str | None = None):
    """Write `source` to a real file (so np2ref.compile can read it) and import it."""
    name = name or f"np2ref_case_{next(_counter)}"
    path = tmp_dir / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@functools.cache
def program(stem: str):
    """tests/programs/<stem>.py imported once, as module np2ref_<stem> (np2ref.compile reads its
    source and finds its helpers through it)."""
    name = f"np2ref_{stem}"
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "programs" / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def assert_same_as_numpy(fn, compiled, *args, **kwargs):
    """Run the original and the compiled function on copies; compare results and every array
    argument. Fails closed: at least one array must have been compared."""
    a0, k0 = copy.deepcopy((args, kwargs))
    a1, k1 = copy.deepcopy((args, kwargs))
    expected = fn(*a0, **k0)
    got = compiled(*a1, **k1)
    compared = 0
    diff = first_difference(expected, got, "result")
    assert diff is None, diff
    compared += expected is not None
    before = inspect.signature(fn).bind(*a0, **k0).arguments
    after = inspect.signature(fn).bind(*a1, **k1).arguments
    for name, value in before.items():
        if isinstance(value, np.ndarray):
            diff = first_difference(value, after[name], f"argument `{name}`")
            assert diff is None, diff
            compared += 1
    assert compared, "nothing was compared"
    return expected, got


def assert_batch_members(fn, batches, results, finals, names, *extra):
    """Each member k of a jax.vmap of `.pure` (results[k], finals[name][k]) against NumPy's run of
    fn on copies of batches' member k (and the unbatched `extra` arguments): the result, every
    argument .pure reports, dtypes too; an argument it does not report must be unchanged."""
    for k in range(batches[0].shape[0]):
        args = [b[k].copy() for b in batches]
        want = fn(*args, *extra)
        got = np.asarray(results[k])
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        for name, arg, given in zip(names, args, batches):
            final = np.asarray(finals[name][k]) if name in finals else given[k]
            assert final.dtype == arg.dtype
            np.testing.assert_array_equal(final, arg)


def central_differences(fn, x, eps=1e-6):
    """Central differences of the scalar function fn at x, one element at a time (the gradient
    jax.grad of a translation is checked against)."""
    fd = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[k] = eps
        fd[k] = (fn(x + e) - fn(x - e)) / (2 * eps)
    return fd


def result_types(value):
    """The types of a result's Python and NumPy scalars, by position (containers walked)."""
    if isinstance(value, dict):
        return [(k, result_types(v)) for k, v in value.items()]
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, *(result_types(v) for v in value)]
    if isinstance(value, np.ndarray):
        return f"ndarray {value.dtype}"
    kind = type(value)  # NumPy 2 names np.True_'s type `bool`, as Python's: the module tells them apart
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"



def assert_returns_as_numpy(fn, args):
    """fn on NumPy and np2ref.compile(fn) (the translation, host_below=0), each on a fresh
    `args()`: the results' scalar types, the results and every argument after the call are NumPy's."""
    from np2ref.verify.compare import first_difference

    a0, a1 = args(), args()
    want, got = fn(*a0), np2ref.compile(fn, host_below=0)(*a1)
    assert result_types(got) == result_types(want)
    assert first_difference(want, got, "result") is None
    for i, (x, y) in enumerate(zip(a0, a1)):
        assert first_difference(x, y, f"argument {i}") is None

class ProgramChecks:
    """tests/programs/<stem>.py's functions against their jitted translations: `compiled(name)`
    (one np2ref.compile per function), `same(name, *args)` (assert_same_as_numpy, then the
    types of the results' Python and NumPy scalars; PythonLoopWarning silenced)."""

    def __init__(self, stem: str):
        self.module = program(stem)

    @functools.cache
    def compiled(self, name):
        return np2ref.compile(getattr(self.module, name), host_below=0)

    def same(self, name, *args):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
            expected, got = assert_same_as_numpy(getattr(self.module, name), self.compiled(name), *args)
        assert result_types(got) == result_types(expected)  # dict keys in order, Python ints stay ints
        return expected, got


@pytest.fixture(scope="session")
def case_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cases")


def run_cli(*args, cwd: Path) -> subprocess.CompletedProcess:
    """`np2ref ARGS` in folder cwd, as np2ref.cli.main in this process (about 0.05 s against
    1.4 s for a fresh interpreter on the test machines). The console script is
    `sys.exit(main())`: main's return value, or argparse's SystemExit, is the exit status
    (tests/cli/test_cli_workflow.py::test_the_command_exits_as_main_returns runs the real command for
    each status). NP2REF_TEST_SUBPROCESS=1 runs every call as a real `python -m np2ref.cli`."""
    argv = [str(a) for a in args]
    if os.environ.get("NP2REF_TEST_SUBPROCESS") == "1":
        return run_cli_process(*argv, cwd=cwd)
    from np2ref.cli import main

    out, err = io.StringIO(), io.StringIO()
    with _working_folder(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's --version, --help and usage errors
            code = exc.code or 0
    return subprocess.CompletedProcess(["np2ref", *argv], code, out.getvalue(), err.getvalue())


def converted_functions(module, names, tmp_path: Path, stem: str):
    """`np2ref convert` of the functions `names` of `module`, written as one file as a user
    would have it, and the converted file imported (its functions to run against the originals)."""
    import inspect

    source = "import numpy as np\n\n\n" + "\n\n".join(inspect.getsource(getattr(module, n)) for n in names)
    (tmp_path / f"{stem}.py").write_text(source)
    r = run_cli("convert", f"{stem}.py", "-o", f"{stem}_ref.py", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    spec = importlib.util.spec_from_file_location(f"_{stem}_ref", tmp_path / f"{stem}_ref.py")
    converted = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(converted)
    return converted


def run_cli_process(*args, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m np2ref.cli ARGS` in a fresh interpreter, this checkout's np2ref first on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "np2ref.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@contextlib.contextmanager
def _working_folder(cwd: Path):
    here = os.getcwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(here)


def long_tail(names, long: set) -> list:
    """Parameters `names`, those in `long` marked `long`: cases whose np2ref lines the module's
    other default cases cover (line coverage per test, 6 December 2026) run with `-m long` and
    `-m ""` only; a case that checks a dtype's or a number's own semantics stays in the default
    run whatever its coverage."""
    assert long <= set(names), long - set(names)
    return [pytest.param(n, marks=pytest.mark.long) if n in long else n for n in names]
