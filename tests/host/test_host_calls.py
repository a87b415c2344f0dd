"""Host calls: draws from NumPy generators run on the host at run time, in program order, giving
NumPy's own stream; calls np2ref cannot see into keep their function NumPy host code (NPR021)
instead of running once while tracing with the result frozen into the program."""

from __future__ import annotations

import copy
import functools
import subprocess
import sys

import jax
import numpy as np
import pytest

import np2ref
from conftest import numpys_values, program as load_program, ROOT


def programs():
    return load_program("host_calls")


@functools.cache
def compiled(name):
    fn = getattr(programs(), name)
    static = ("rng",) if "rng" in fn.__code__.co_varnames[:fn.__code__.co_argcount] else None
    return np2ref.compile(fn, static_argnames=static)


def _same(a, b):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    return len(la) == len(lb) and all(numpys_values(x, y) for x, y in zip(la, lb))


def _against_numpy(name, make, calls=2):
    """Each call of the compiled function equals NumPy's, from generators in the same state,
    and leaves the generators in the same state (the stream advanced exactly as NumPy's)."""
    fn, c = getattr(programs(), name), compiled(name)
    for seed in range(calls):
        np.random.seed(seed)
        programs().RNG.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        theirs = make(np.random.default_rng(seed))
        expected = fn(*theirs)
        after = (np.random.random(), programs().RNG.random())
        np.random.seed(seed)
        programs().RNG.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        ours = make(np.random.default_rng(seed))
        got = c(*ours)
        assert (np.random.random(), programs().RNG.random()) == after
        assert _same(expected, got), (name, seed, expected, got)
        assert _same([a for a in theirs if isinstance(a, np.ndarray)], [a for a in ours if isinstance(a, np.ndarray)])
        for a, b in zip(theirs, ours):
            if isinstance(a, np.random.Generator):
                assert a.random() == b.random()  # the caller's generator advanced the same way


def test_global_draws_are_numpys_stream_on_every_call():
    _against_numpy("global_draws", lambda rng: [np.zeros(4)], calls=3)


def test_generator_argument_draws():
    _against_numpy("generator_draws", lambda rng: [np.zeros(5), rng])
    assert "npr_random(rng, 'normal', 0.0, 1.0, u.shape)" in compiled("generator_draws").source


def test_module_level_generator():
    _against_numpy("module_generator", lambda rng: [np.zeros(3)])


def test_draws_in_a_lax_loop_and_a_traced_branch():
    _against_numpy("walk", lambda rng: [np.zeros(3), 40, rng])
    assert "npr_for(" in compiled("walk").source and "npr_if(" in compiled("walk").source


def test_parameters_read_from_arrays_go_to_the_host():
    _against_numpy("traced_parameters", lambda rng: [np.arange(10.0), rng])


def test_grad_through_a_draw_that_does_not_depend_on_the_variable():
    c, rng = compiled("drawn_loss"), np.random.default_rng(0)
    state = copy.deepcopy(rng.bit_generator.state)
    g = jax.grad(lambda x: c.pure(x, rng)[0])(np.ones(3))
    noise = np.random.default_rng(0).random(3)
    assert np.allclose(g, 4.0 * (2.0 + noise))  # d/dx sum((2x + r)^2) = 4 (2x + r) at x = 1
    assert rng.bit_generator.state != state


def test_a_differentiated_draw_parameter_is_refused():
    c, rng = compiled("differentiated_mean"), np.random.default_rng(0)
    with pytest.raises(Exception, match="NPR023: .normal.. draws with parameters being differentiated"):
        jax.grad(lambda x: c.pure(x, rng)[0])(np.ones(3))


@pytest.mark.parametrize("name, why", [
    ("object_method", "SOURCE.draw() of the module-level object `SOURCE`"),
    ("aliased_generator", "g.random() from a generator np2ref cannot name"),
    ("caller_of_object_method", "host function object_method()"),
])
def test_calls_np2ref_cannot_see_into_stay_host_code(name, why):
    with pytest.raises(np2ref.Np2RefError) as err:
        np2ref.compile(getattr(programs(), name))
    assert [d.code for d in err.value.diagnostics] == ["NPR021"] and why in str(err.value)


def test_a_seed_in_a_compiled_function_seeds_on_the_host_in_program_order():
    """`np.random.seed(0)` then a draw (NPR021 before): seeded when the compiled call runs, so
    each call draws NumPy's stream from the seed and leaves the global state where NumPy does.
    In a converted module a function that seeds stays host code (a script's set-up)."""
    _against_numpy("seeded", lambda rng: [np.zeros(4)], calls=2)
    assert "npr_random(np.random, 'seed', 0)" in compiled("seeded").source
    result = np2ref.convert_source(programs().__loader__.get_source(programs().__name__))
    assert "seeded" in result.host


def test_a_function_passed_in_is_checked_when_traced():
    c = np2ref.compile(programs().passed_in)
    assert "npr_call(f, npr_load(u))" in c.source
    for make in (lambda: abs, lambda: np.random.default_rng(2).normal):  # pure, or a draw made on the host
        ours, theirs = np.arange(3.0), np.arange(3.0)
        programs().passed_in(theirs, make())
        c(ours, make())
        assert numpys_values(ours, theirs)
    with pytest.raises(np2ref.Np2RefError, match="NPR032"):  # a NumPy function on traced data
        c(np.zeros(3), np.sqrt)
    with pytest.raises(np2ref.Np2RefError, match="NPR021 calls test_a_function.*passed in as an argument"):
        c(np.zeros(3), lambda x: x * 2.0)  # a Python function np2ref cannot see into: refused


def test_convert_keeps_host_functions_and_draws_at_run_time(tmp_path):
    result = np2ref.convert_file(str(ROOT / "tests" / "programs" / "host_calls.py"))
    assert result.ok
    infos = {d.message.split("()")[0] for d in result.diagnostics if d.code == "NPR021"}
    assert {"object_method", "seeded", "aliased_generator", "caller_of_object_method"} <= infos
    assert "x = SOURCE.draw(u.shape)" in result.code  # kept as NumPy host code
    out = tmp_path / "host_calls_ref.py"
    out.write_text(result.code + "\n\nnp.random.seed(5)\nu = np.zeros(4)\n"
                   "print(repr(global_draws(u)), repr(global_draws(u)), list(u))\n")
    original = (ROOT / "tests" / "programs" / "host_calls.py").read_text() + \
        "\nnp.random.seed(5)\nu = np.zeros(4)\nprint(repr(global_draws(u)), repr(global_draws(u)), list(u))\n"
    theirs = tmp_path / "host_calls_np.py"
    theirs.write_text(original)
    run = [subprocess.run([sys.executable, str(p)], capture_output=True, text=True, cwd=ROOT) for p in (theirs, out)]
    assert run[0].returncode == 0 and run[1].returncode == 0, run[1].stderr[-2000:]
    assert run[0].stdout == run[1].stdout and run[0].stdout


def test_verify_on_first_call_draws_the_same_numbers_and_moves_the_streams_once():
    fn = programs().module_generator
    c = np2ref.compile(fn, verify=True)
    np.random.seed(1)
    programs().RNG.bit_generator.state = np.random.default_rng(1).bit_generator.state
    expected = fn(np.zeros(3))
    after = programs().RNG.random()
    programs().RNG.bit_generator.state = np.random.default_rng(1).bit_generator.state
    got = c(np.zeros(3))  # the original and the translation ran on copies first, and agreed
    assert numpys_values(got, expected) and programs().RNG.random() == after


DRIVER = '''
import numpy as np

W = np.array([0.25, 0.5, 0.25])
DT = 0.1
u = np.zeros(5)
v = np.zeros(3)
hist = []


def energy():
    return 0.5 * np.sum(u ** 2)


def smooth(x):
    x[1:-1] = W[0] * x[:-2] + W[1] * x[1:-1] + W[2] * x[2:] * DT


def last():
    return hist[-1] * v.sum()


for t in range(3):
    u[1:-1] += 1.0
    print(energy())
np.random.shuffle(v)
hist.append(1.0)
'''


def test_module_state_the_driver_changes_is_never_frozen_into_a_compiled_function():
    result = np2ref.convert_source(DRIVER, "driver.py")
    assert result.ok
    assert "energy" in result.host and "reads module-level `u`" in result.host["energy"]
    assert "last" in result.host and "reads module-level `hist`" in result.host["last"]  # appended to
    assert "smooth" in result.functions  # constants (read, never written) stay compiled


@pytest.mark.parametrize("driver, name", [
    ("u = np.zeros(3)\nu = u + 1\n", "u"),                     # rebound
    ("u = np.zeros(3)\nu[0] = 1.0\n", "u"),                    # written into
    ("u = np.zeros(3)\nnp.add(u, 1, out=u)\n", "u"),            # out=
    ("u = np.zeros(3)\nu.fill(2.0)\n", "u"),                   # an in-place method
    ("u = np.zeros(3)\nnp.add.at(u, [0], 1.0)\n", "u"),        # ufunc.at
    ("u = np.zeros(3)\nfor k in range(2):\n    w = u * k\n", "w"),  # bound once per iteration
    ("u = np.zeros(3)\ndef g():\n    global u\n    u = u * 2\n", "u"),
])
def test_changing_globals(driver, name):
    from np2ref.analysis.module_state import changing_globals
    from np2ref.analysis.names import ImportMap
    import libcst as cst
    module = cst.parse_module("import numpy as np\n" + driver)
    assert name in changing_globals(module, ImportMap(module))


def test_constants_and_reads_do_not_change():
    from np2ref.analysis.module_state import changing_globals
    from np2ref.analysis.names import ImportMap
    import libcst as cst
    text = ("import numpy as np\nW = np.ones(3)\nN = 4\nprint(W.sum(), np.sum(W), len(W))\n"
            "def f(x):\n    y = x.copy()\n    y[0] = N\n    return y\nz = f(W.copy())\n")
    module = cst.parse_module(text)
    assert changing_globals(module, ImportMap(module)) & {"W", "N", "y", "x"} == set()


def test_builtins_and_constants_handed_to_a_call_do_not_change():
    """`g = (rng.random(n) < p).astype(int)` at module level made every function reading `int`
    host code (NPR021: "reads module-level `int`, which the module changes"); a call handed a
    builtin or a number constant cannot change it, while an array handed to one may."""
    from np2ref.analysis.module_state import changing_globals
    from np2ref.analysis.names import ImportMap
    import libcst as cst
    text = ("import numpy as np\nDT = 0.1\nrng = np.random.default_rng(0)\nu = np.zeros(3)\n"
            "g = (rng.random(8) < 0.4).astype(int)\nh = obj.step(float, DT)\nsetup(u)\n")
    module = cst.parse_module(text)
    changing = changing_globals(module, ImportMap(module))
    assert changing & {"int", "float", "DT"} == set()
    assert "u" in changing
    rebound = cst.parse_module("import numpy as np\nint = [1]\nsetup(int)\n")
    assert "int" in changing_globals(rebound, ImportMap(rebound))


def test_comprehension_variables_modules_and_string_constants_are_not_changing_state():
    """`part` of a generator expression is no module-level name; `config.find()` on an imported
    module and `STAMP.encode()` on a str constant change nothing; a method on an array does."""
    from np2ref.analysis.module_state import changing_globals, globals_read
    from np2ref.analysis.names import ImportMap
    import libcst as cst
    text = ("import numpy as np\nimport os.path\nfrom . import config\nSTAMP = 'x'\nROOTS = [np.ones(2)]\n"
            "u = np.zeros(3)\n"
            "def files():\n    return sorted(p for part in ROOTS for p in part.tolist())\n"
            "def stamped(b):\n    return STAMP.encode() + b\n"
            "def found(s):\n    os.path.join(s)\n    u.fill(1.0)\n    return config.find(s)\n")
    module = cst.parse_module(text)
    changing = changing_globals(module, ImportMap(module))
    assert changing & {"part", "p", "STAMP", "config", "os", "ROOTS"} == set()
    assert "u" in changing
    assert globals_read(module.body[6]) == {"sorted", "ROOTS"}


def test_convert_strict_says_when_nothing_is_translated(tmp_path, capsys):
    from np2ref.cli import main
    script = tmp_path / "script.py"
    script.write_text("import numpy as np\nu = np.zeros(5)\nu[1:] += 1.0\nprint(u)\n")
    assert main(["convert", str(script), "-o", str(tmp_path / "out.py"), "--strict"]) == 1
    assert "nothing to translate" in capsys.readouterr().err and not (tmp_path / "out.py").exists()
    assert main(["convert", str(script), "-o", str(tmp_path / "out.py")]) == 0


def test_verify_compares_a_drawing_function_on_the_same_draws():
    """verify runs the original and the translation from the same random state in every check
    (jit, vmap, grad): a host draw is the same function in each, so all three pass."""
    report = np2ref.verify(compiled("noisy_sum"), np.zeros(4), 0.5, examples=4, seed=0)
    assert report.ok, report


def test_a_module_level_dict_is_data_and_changing_it_makes_its_readers_host():
    text = "import numpy as np\nP = dict(dt=0.1)\n\ndef f(u):\n    u *= P.get('dt')\n"
    assert "f" in np2ref.convert_source(text, "x.py").functions  # a constant config: compiled
    result = np2ref.convert_source(text + "P['dt'] = 0.2\n", "x.py")
    assert "reads module-level `P`" in result.host["f"]  # changed after: a compiled f would keep 0.1


def test_impure_numpy_functions_and_state_methods_passed_in_are_refused(tmp_path):
    c = np2ref.compile(programs().passed_in)
    saver = functools.partial(np.save, str(tmp_path / "u.npy"))
    for fn in (np.random.default_rng(0).shuffle, np.random.RandomState(0).seed):
        with pytest.raises(np2ref.Np2RefError, match="NPR023"):
            c(np.zeros(3), fn)
    with pytest.raises(np2ref.Np2RefError, match="NPR021"):
        c(np.zeros(3), saver)  # a partial: a Python object np2ref cannot see into
    with pytest.raises(np2ref.Np2RefError, match="NPR021"):
        c(np.zeros(3), np.save)  # I/O would run once, while tracing
    assert not (tmp_path / "u.npy").exists()
