"""A set-up helper refused when planned (an untranslated NumPy function: `np.linalg.eig` in a
`stationary(P)` only `__main__` calls, NPR004) stays NumPy host code, with a note naming the
refusal, and the rest of the file converts (analysis/setup_code.py); before, `convert` refused
the whole file. A refused function that writes an array, or that one writing an array calls,
keeps refusing the file, and np2ref.compile of the helper itself still refuses it."""

import copy

import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def stationary(P):
    w, V = np.linalg.eig(P.T)
    k = np.argmin(np.abs(w - 1.0))
    pi = np.real(V[:, k])
    return pi / pi.sum()


def report(P, visits):
    return float(np.abs(visits / visits.sum() - stationary(P)).max())


def sample(P, states, uniforms, visits):
    C = np.cumsum(P, axis=1)
    C[:, -1] = 1.0
    for t in range(uniforms.shape[0]):
        states[:] = np.sum(uniforms[t][:, None] >= C[states], axis=1)
        visits += np.bincount(states, minlength=P.shape[0])
    return visits


def make_inputs(seed):
    rng = np.random.default_rng(seed)
    P = rng.random((4, 4)) + 0.1
    P = P / P.sum(axis=1, keepdims=True)
    return dict(P=P, states=np.zeros(6, dtype=np.int64), uniforms=rng.random((12, 6)),
                visits=np.zeros(4, dtype=np.int64))


if __name__ == "__main__":
    inputs = make_inputs(1)
    sample(**inputs)
    print(repr(report(inputs["P"], inputs["visits"])))
'''


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("setup_refusals")
    result = np2ref.convert_source(SOURCE, "markov.py")
    assert result.ok, [str(d) for d in result.diagnostics]
    return result, load_module(SOURCE, tmp, "setup_refusals_numpy"), load_module(result.code, tmp, "setup_refusals_ref")


def test_the_refused_helper_and_its_caller_stay_numpy_with_a_note(modules):
    result, _, _ = modules
    notes = {d.message.split("()")[0]: d.message for d in result.diagnostics if d.code == "NPR021"}
    assert set(notes) == {"stationary", "report"}
    assert "has NPR004 on line 6" in notes["stationary"] and "np.linalg.eig" in notes["stationary"]
    assert "calls host function stationary()" in notes["report"]
    assert not any(d.is_error for d in result.diagnostics)
    assert "@npr_jit" in result.code.split("def sample")[0].rsplit("\n\n", 1)[-1]  # the kernel converts


@pytest.mark.parametrize("seed", [1, 2])
def test_the_kernel_and_the_kept_helpers_agree_with_numpy(modules, seed):
    _, numpy_module, ref_module = modules
    want = numpy_module.make_inputs(seed)  # (the converted make_inputs divides as XLA does)
    got, before = copy.deepcopy(want), copy.deepcopy(want)
    r0, r1 = numpy_module.sample(**want), ref_module.sample(**got)
    assert r0.dtype == r1.dtype and np.array_equal(r0, r1)
    for k in want:  # every mutated argument, dtype and values
        assert want[k].dtype == got[k].dtype and np.array_equal(want[k], got[k]), k
    assert not np.array_equal(before["visits"], got["visits"])  # the kernel did write
    assert numpy_module.report(want["P"], want["visits"]) == ref_module.report(got["P"], got["visits"])


def test_a_refused_function_that_writes_an_array_refuses_the_file():
    source = SOURCE.replace("    pi = np.real(V[:, k])\n", "    pi = np.real(V[:, k])\n    P[0] = 0.0\n")
    result = np2ref.convert_source(source)
    assert not result.ok and [d.code for d in result.diagnostics if d.is_error] == ["NPR004"]


def test_a_refused_helper_of_the_kernel_refuses_the_file():
    source = SOURCE.replace("    return visits\n", "    return visits, stationary(P)\n")
    result = np2ref.convert_source(source)
    assert not result.ok and "NPR004" in {d.code for d in result.diagnostics if d.is_error}


def test_compile_of_the_helper_itself_still_refuses(modules):
    _, numpy_module, _ = modules
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(numpy_module.stationary)(numpy_module.make_inputs(1)["P"])
    assert "NPR004" in {d.code for d in info.value.diagnostics}
