"""A plain call given jax.Arrays against `.device` on whatever device JAX sees (a script for the chip).

    python benchmarks/tpu_jax_types.py [--calls 20] [--sizes 1000 1000000]

Since 7 December a plain call of np2ref.compile given jax.Arrays returns NumPy's results, as the
NumPy program does (docs/guide.md, "jax.Arrays in, NumPy's results out"): on an accelerator each
result crosses to the host, where `.device` keeps it on the device. Per size, float32 with x64
off (JAX's default, set-up code's arrays): the median µs of a plain call and of a `.device`
call of a small kernel, their result types, and whether both agree with NumPy on the same
values. Timing, not a test: no assertions on numbers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import np2ref  # noqa: E402
from device_worst import timed  # noqa: E402 (the median of waited calls)


def push(pos0, vel0, dt):
    pos = np.array(pos0)
    vel = np.array(vel0)
    pos = pos + dt * vel  # float64 (dt a NumPy float64)
    vel *= 0.999
    return pos, vel, np.sum(vel)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=20)
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 1_000_000])
    a = p.parse_args(argv)
    compiled = np2ref.compile(push, host_below=0)
    dt = np.float64(0.05)
    print(f"jax {jax.__version__}, {jax.default_backend()} ({jax.devices()[0].device_kind}), float32 arguments, "
          f"x64 off, medians of {a.calls} calls")
    print("| elements | plain call µs | .device µs | plain types | .device types | agree with NumPy |")
    print("|---|---|---|---|---|---|")
    for n in a.sizes:
        with jax.enable_x64(False):
            k = jax.numpy.arange(n, dtype=jax.numpy.float32)
            pos, vel = jax.numpy.sin(k * 0.37), jax.numpy.cos(k * 0.11) * 0.2
            want = push(pos, vel, dt)
            plain = compiled(pos, vel, dt)
            device = compiled.device(pos, vel, dt)[0]
            scale = float(np.abs(want[1]).sum())  # the float32 sum: to its order's rounding
            agree = all(np.allclose(np.asarray(got[0]), want[0], rtol=1e-6) and np.allclose(np.asarray(got[1]), want[1])
                        and abs(float(got[2]) - float(want[2])) <= 1e-6 * scale for got in (plain, device))
            t_plain = timed(lambda: compiled(pos, vel, dt), a.calls) * 1e6
            t_device = timed(lambda: compiled.device(pos, vel, dt)[0], a.calls) * 1e6
        names = lambda out: ", ".join(type(v).__name__ for v in out)  # noqa: E731
        print(f"| {n:,} | {t_plain:.1f} | {t_device:.1f} | {names(plain)} | {names(device)} | {agree} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
