"""Probes of float64 and 64-bit integer arithmetic on the default backend against NumPy (issue
38): each jax.numpy operation run jitted under jax.enable_x64 on random data, its worst error
in ulps of NumPy's float64 answer, or the error XLA raised compiling it. Then the corpus
programs that lost digits or crashed on the TPU: their result against NumPy's and the
operations their lowered programs hold.

    python benchmarks/tpu_probe.py [--out DIR]
"""

import argparse
import copy
import importlib.util
import os
import re
import sys
import traceback
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RNG = np.random.default_rng(0)


def ulps(expected, got, dtype=np.float64):
    """The worst |got - expected| in ulps of expected in `dtype` (NaN where the two disagree on
    NaN)."""
    e, g = np.asarray(expected, np.float64), np.asarray(got, np.float64)
    if e.shape != g.shape:
        return f"shape {g.shape} != {e.shape}"
    bad = np.isnan(e) != np.isnan(g)
    if bad.any():
        return "nan mismatch"
    ok = ~np.isnan(e)
    spacing = np.spacing(np.maximum(np.abs(e[ok]), np.finfo(dtype).tiny).astype(dtype)).astype(np.float64)
    err = np.abs(g[ok] - e[ok]) / spacing
    return float(err.max()) if err.size else 0.0


def probe(name, jfn, nfn, *args):
    """One line: the op's worst error in ulps, or the first line of its error."""
    try:
        with jax.enable_x64(True):
            got = jax.jit(jfn)(*args)
            got = jax.tree_util.tree_map(np.asarray, got)
        expected = nfn(*args)
        dtype = np.asarray(got).dtype if np.asarray(got).dtype.kind == "f" else np.float64
        if np.asarray(expected).dtype.kind in "iub":
            same = np.array_equal(np.asarray(expected), got) and np.asarray(expected).dtype == got.dtype
            line = f"{name:28s} {'exact' if same else 'DIFFERS'} dtype {got.dtype}"
        else:
            err = ulps(expected, got, dtype)
            line = f"{name:28s} ulps {err if isinstance(err, str) else f'{err:.3g}'} dtype {got.dtype}"
    except Exception as exc:  # noqa: BLE001 (a probe reports, it does not stop)
        msg = str(exc).strip().splitlines()
        line = f"{name:28s} ERROR {type(exc).__name__}: {msg[0][:200] if msg else ''}"
    print(line, flush=True)


def rewritten(fn):
    """fn's program as np2ref's TPU rewrite (rt/accurate64.py) leaves it."""
    from np2ref.rt import accurate64 as acc
    from np2ref.rt.compat_jaxpr import _npr_core

    def run(*args):
        closed = jax.make_jaxpr(fn)(*args)
        return _npr_core.eval_jaxpr(acc._npr_accurate_jaxpr(closed.jaxpr), closed.consts, *args)[0]
    return run


def float_probes():
    """Each float64 primitive on arrays and on 0-d values, as the backend computes it (raw) and
    as np2ref's rewrite does (accurate64.py); float32 the same against NumPy's float32."""
    from jax import lax
    from np2ref.rt import accurate64 as acc
    x = RNG.uniform(-3, 3, 4096)
    p = RNG.uniform(0.01, 30, 4096)
    u = RNG.uniform(-0.99, 0.99, 4096)
    for name, fn in (("add", lambda t: t + 0.1), ("mul", lambda t: t * 1.1), ("div", lambda t: 1.0 / t),
                     ("div_xy", lambda t: t / (t + 7.0))):
        for tag, a in (("", p), ("_0d", p[3])):
            probe(name + tag, fn, fn, a)
    probe("div_0d_np2ref", lambda t: acc._npr_a64_div64(t, t + 7.0), lambda t: t / (t + 7.0), p[3])
    # a constant minus a 0-d value: `1.0 - w` kept float32's precision on the chip (2.5e-8)
    for name, fn in (("const_sub", lambda t: 1.0 - t), ("neg_add_const", lambda t: -t + 3.0),
                     ("const_sub_scaled", lambda t: x[:8] * (1.0 - t))):
        probe(f"{name}_0d", fn, fn, p[3] / 40)
        probe(f"{name}_0d_np2ref", rewritten(fn), fn, p[3] / 40)
    ops = [("exp", x, np.exp), ("expm1", x, np.expm1), ("log", p, np.log), ("log1p", p, np.log1p),
           ("sin", x, np.sin), ("sin", x * 3000, np.sin), ("cos", x, np.cos), ("tan", x, np.tan),
           ("tanh", x, np.tanh), ("sinh", x, np.sinh), ("cosh", x, np.cosh), ("sqrt", p, np.sqrt),
           ("atan", x, np.arctan), ("asin", u, np.arcsin), ("cbrt", x, np.cbrt), ("atanh", u, np.arctanh)]
    for name, arg, ref in ops:
        prim = getattr(lax, f"{name}_p")
        params = {"accuracy": None} if name in ("exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh",
                                                "sqrt", "cbrt", "rsqrt", "logistic", "exp2") else {}
        raw = lambda t, prim=prim, params=params: prim.bind(t, **params)  # noqa: E731
        mine = lambda t, name=name, raw=raw: acc._NPR_A64_UNARY[name](t, raw)  # noqa: E731
        for tag, a in (("", arg), ("_0d", arg[7])):
            probe(f"{name}{tag}", raw, ref, a)
            probe(f"{name}{tag}_np2ref", mine, ref, a)
            probe(f"{name}{tag}_f32", raw, lambda t, ref=ref: ref(np.asarray(t, np.float32)),
                  np.asarray(a, np.float32))
    probe("pow", lambda t: t ** 2.5, lambda t: t ** 2.5, p)
    probe("pow_np2ref", lambda t: acc._npr_a64_pow64(t, lax.full_like(t, 2.5), lambda a, b: lax.pow(a, b)), lambda t: t ** 2.5, p)
    probe("pow_0d", lambda t: t ** 2.5, lambda t: t ** 2.5, p[5])
    probe("sum", jnp.sum, np.sum, x)
    a = RNG.standard_normal((128, 128))
    b = RNG.standard_normal((128, 128))
    hi = jax.lax.Precision.HIGHEST
    probe("matmul_default", lambda m, n: m @ n, np.matmul, a, b)
    probe("matmul_highest", lambda m, n: jnp.matmul(m, n, precision=hi), np.matmul, a, b)
    probe("matmul_f32_default", lambda m, n: m @ n, np.matmul, a.astype(np.float32), b.astype(np.float32))
    probe("matmul_f32_highest", lambda m, n: jnp.matmul(m, n, precision=hi), np.matmul,
          a.astype(np.float32), b.astype(np.float32))


def int_probes():
    i64 = RNG.integers(-2 ** 40, 2 ** 40, 1024)
    i64s = RNG.integers(-1000, 1000, 1024)
    u32 = RNG.integers(0, 2 ** 32, 1024, dtype=np.uint32)
    i32 = RNG.integers(-2 ** 30, 2 ** 30, 1024, dtype=np.int32)
    f = RNG.uniform(0, 50, 1024)
    cases = {
        "i64_add": (lambda t: t + 3, i64), "i64_mul": (lambda t: t * 7, i64), "i64_floordiv": (lambda t: t // 7, i64),
        "i64_mod": (lambda t: t % 7, i64), "i64_mod_small": (lambda t: t % 7, i64s),
        "i64_floordiv_arr": (lambda t: t // (t % 5 + 1), i64s),
        "i64_shr": (lambda t: t >> 3, i64), "i64_shl": (lambda t: t << 3, i64s), "i64_and": (lambda t: t & 255, i64),
        "u32_shr": (lambda t: t >> 3, u32), "u32_mod": (lambda t: t % 7, u32), "u32_floordiv": (lambda t: t // 7, u32),
        "i32_shr": (lambda t: t >> 3, i32), "i32_mod": (lambda t: t % 7, i32), "i32_floordiv": (lambda t: t // 7, i32),
        "f64_to_i64": (lambda t: t.astype(np.int64), f), "f64_to_i32": (lambda t: t.astype(np.int32), f),
        "i64_to_f64": (lambda t: t.astype(np.float64), i64),
        "f64_floor_to_i64": (lambda t, m=np: m.floor(t).astype(np.int64), f),
        "f64_round": (lambda t, m=np: m.round(t), f), "f64_mod_float": (lambda t: t % 7.5, f),
        "f64_floordiv_float": (lambda t: t // 7.5, f),
    }
    for name, (fn, arg) in cases.items():
        if fn.__defaults__:
            probe(name, lambda t, fn=fn: fn(t, jnp), fn, arg)
        else:
            probe(name, fn, fn, arg)
    probe("i64_to_f64_0d", lambda t: t.astype(jnp.float64), lambda t: t.astype(np.float64), np.int64(12345678901))
    probe("f64_round_0d", jnp.round, np.round, np.float64(3.5))
    probe("f64_mod_0d", lambda t: t % 2.5, lambda t: t % 2.5, np.float64(7.25))
    probe("i64_mod_0d", lambda t: t % 7, lambda t: t % 7, np.int64(-12345))
    z = np.array([-0.0, 0.0, -1.5, 2.0, -np.inf, np.inf, 1e-310, -1e-310])
    probe("copysign_f64", lambda t: jnp.copysign(jnp.zeros_like(t), t), lambda t: np.copysign(np.zeros_like(t), t), z)
    probe("signbit_f64", jnp.signbit, np.signbit, z)
    probe("signbit_u32pair", lambda t: (jax.lax.bitcast_convert_type(t, jnp.uint32)[..., 1] >> jnp.uint32(31)).astype(bool),
          np.signbit, z)
    probe("signbit_arith", lambda t: (t < 0) | ((t == 0) & (1.0 / t < 0)), np.signbit, z)
    probe("bitcast_f64_u32_roundtrip", lambda t: jax.lax.bitcast_convert_type(jax.lax.bitcast_convert_type(t, jnp.uint32), jnp.float64),
          lambda t: t, f)
    probe("f32_signbit", jnp.signbit, np.signbit, z.astype(np.float32))
    probe("pure_callback_exp", lambda t: jax.pure_callback(np.exp, jax.ShapeDtypeStruct(t.shape, t.dtype), t), np.exp, f / 10)
    probe("f64_to_i64_0d", lambda t: t.astype(jnp.int64), lambda t: t.astype(np.int64), np.float64(12.7))


def load(path):
    spec = importlib.util.spec_from_file_location(f"corpus_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def corpus_probes(names, out, policy="preserve"):
    import np2ref
    from np2ref.verify.compare import first_difference, worst_error
    for name in names:
        print(f"== corpus {name}", flush=True)
        module = load(ROOT / "corpus" / f"{name}.py")
        fn = getattr(module, module.ENTRY)
        compiled = np2ref.compile(fn, dtype_policy=policy)
        inputs = module.make_inputs("small")
        try:
            lowered = compiled.lower(**copy.deepcopy(inputs)).as_text()
            (out / "hlo").mkdir(exist_ok=True)
            (out / "hlo" / f"{name}.mlir").write_text(lowered)
            ops = sorted(set(re.findall(r"(?:stablehlo|chlo|mhlo)\.[a-z_]+", lowered)))
            types = sorted(set(re.findall(r"tensor<[^>]*?x?(f32|f64|i32|i64|ui32|ui64)>", lowered)))
            print("ops:", " ".join(o.split(".")[1] for o in ops))
            print("element types:", types, "f32 mentions:", lowered.count("f32"))
        except Exception as exc:  # noqa: BLE001
            print("lower failed:", type(exc).__name__, str(exc)[:300])
        try:
            a0, a1 = copy.deepcopy(inputs), copy.deepcopy(inputs)
            expected = fn(**a0)
            got = compiled(**a1)
            arrays = [k for k in a0 if isinstance(a0[k], np.ndarray)]
            print("worst error:", max([worst_error(expected, got)] + [worst_error(a0[k], a1[k]) for k in arrays]))
            print("result:", first_difference(expected, got) or "same",
                  "| args:", [first_difference(a0[k], a1[k], k) for k in a0 if isinstance(a0[k], np.ndarray)])
        except Exception as exc:  # noqa: BLE001
            print("run failed:", type(exc).__name__, str(exc).splitlines()[0][:400])
    # iir_filter's coefficients (sin/cos of a traced scalar) alone
    module = load(ROOT / "corpus" / "iir_filter.py")
    try:
        got = np2ref.compile(module.design_lowpass)(40.0, 1000.0, 0.7071)
        want = module.design_lowpass(40.0, 1000.0, 0.7071)
        print("design_lowpass ulps:", [ulps(w, g) for w, g in zip(want, got)])
    except Exception as exc:  # noqa: BLE001
        print("design_lowpass failed:", exc)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "/tmp/probe"))
    parser.add_argument("--part", default="float,int,corpus")
    parser.add_argument("--programs", default="iir_filter,implicit_diffusion_thomas,tax_brackets_masked,"
                        "lj_cutoff_vectorised,nbody_pair_loop,pic_cic_deposit")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("jax", jax.__version__, jax.devices(), "x64 default", jax.config.jax_enable_x64, flush=True)
    if "float" in args.part:
        float_probes()
    if "int" in args.part:
        int_probes()
    if "corpus" in args.part:
        try:
            corpus_probes(args.programs.split(","), out)
        except Exception:  # noqa: BLE001
            traceback.print_exc()


if __name__ == "__main__":
    main()
