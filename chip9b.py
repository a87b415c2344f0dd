"""session 9 chip call 2 (not committed): why iir_filter's read-back loop is slow on a TPU."""
import collections, copy, re, sys, time, warnings
sys.path.insert(0, "benchmarks"); sys.path.insert(0, ".")
warnings.simplefilter("ignore")
import jax, jax.numpy as jnp, numpy as np
import programs as P, np2ref, tpu_carry8 as T
from common import split_static, run_numpy, disagreement
from device_worst import timed
from np2ref.rt import recur, divisions, lowering

def setup(name, size="S"):
    if name in T.OWN:
        fn, hand, kw = T._own(name, size)
    else:
        prog = P.PROGRAMS[name](); fn, hand, kw = prog.original, prog.hand, prog.make(size)
    return fn, hand, kw

def body_stats(compiled_text):
    # instructions per computation whose name mentions body
    out, head, ops = [], None, None
    for line in compiled_text.splitlines():
        if line.rstrip().endswith("{") and not line.startswith(" "):
            head, ops = line[:50], collections.Counter()
        elif line.startswith("}") and head:
            if "body" in head or "region" in head:
                out.append((head, sum(ops.values()), dict(ops.most_common(8))))
            head = None
        elif head:
            m = re.search(r"= \S+ ([\w-]+)\(", line)
            if m: ops[m.group(1)] += 1
    return out

def variants():
    def base(): return lambda: None
    def nofence():
        divisions._npr_FENCE["products"] = False
        return lambda: divisions._npr_FENCE.__setitem__("products", True)
    def nopeep():
        lowering._npr_LOWERING["peepholes"] = False
        return lambda: lowering._npr_LOWERING.__setitem__("peepholes", True)
    def carry():
        recur._npr_RECUR["on"] = True
        return lambda: recur._npr_RECUR.__setitem__("on", None)
    def carry_nofence():
        a, b = carry(), nofence()
        return lambda: (a(), b())
    return {"default": base, "no product fence": nofence, "no peepholes": nopeep, "carried": carry,
            "carried, no fence": carry_nofence}

for name in ("iir_filter", "second_order_energy", "biquad_plain"):
    fn, hand, kw = setup(name)
    static, dyn = split_static(kw)
    expected, after = run_numpy(fn, kw)
    with jax.enable_x64(False):
        dev = {k: jnp.asarray(v) for k, v in dyn.items()}
        h = jax.jit(hand, static_argnames=tuple(static)).lower(**dev, **static).compile()
        th = timed(lambda: h(**dev), 5)
        print(f"## {name} hand {th*1e3:.2f} ms", flush=True)
        for vname, setting in variants().items():
            undo = setting()
            try:
                c = np2ref.compile(fn, dtype_policy="float32")
                jx = jax.make_jaxpr(lambda **d: c.pure(**static, **d))(**dev)
                prims = collections.Counter(re.findall(r"= (\w+)\[?", str(jx)))
                comp = jax.jit(c.pure, static_argnames=tuple(static)).lower(**copy.copy(dev), **static).compile()
                t = timed(lambda: comp(**copy.copy(dev)), 5)
                out = comp(**copy.copy(dev))
                print(f"| {name} | {vname} | {t*1e3:.2f} ms | {t/th:.2f} | jaxpr eqns {sum(prims.values())} "
                      f"(select_n {prims.get('select_n',0)}, dynamic_slice {prims.get('dynamic_slice',0)}, "
                      f"dus {prims.get('dynamic_update_slice',0)}) |", flush=True)
                for head, n, ops in body_stats(comp.as_text()):
                    print("   ", head, n, ops, flush=True)
                if name == "iir_filter" and vname == "default":
                    open(f"{__import__('os').environ.get('OUT','.')}/iir_hlo.txt", "w").write(comp.as_text())
                    open(f"{__import__('os').environ.get('OUT','.')}/iir_jaxpr.txt", "w").write(str(jx))
            except Exception as e:
                print("  fail", vname, type(e).__name__, str(e)[:200])
            finally:
                undo()
