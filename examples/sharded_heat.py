"""The corpus heat-equation solver, converted by np2ref and run on a mesh of devices.

    python examples/sharded_heat.py            # 8 CPU devices (simulated) unless JAX finds more
    python examples/sharded_heat.py --size 512 --steps 200

The plate's rows are split over every device (`mesh=(mesh, {"u": "x", "hot_mask": "x"})`):
each device owns a band of rows, and XLA exchanges one halo row with each neighbour per step.
The NumPy original runs on the same inputs, and the two must agree.

On a machine without accelerators, JAX shows one CPU device; this script asks XLA for 8 before
JAX starts (XLA_FLAGS=--xla_force_host_platform_device_count=8), which is how the mesh code is
tested without a cluster. On GPUs, every visible GPU is a device of the mesh.
"""

import argparse
import os
import sys
import time
from pathlib import Path

if "jax" not in sys.modules and "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8").strip()

import jax  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpus"))
import heat2d_explicit as heat  # noqa: E402

import np2ref  # noqa: E402
from np2ref.compiled.sharding import device_mesh  # noqa: E402


def make_plate(size, steps, devices):
    """The corpus inputs, at `size` rows (rounded to a multiple of the device count)."""
    ny = max(devices, size // devices * devices)
    nx = size + size // 5
    rng = np.random.default_rng(0)
    inputs = heat.make_inputs("small")
    bottom = 40.0 + 10.0 * np.sin(np.linspace(0.0, np.pi, nx))
    hot = rng.random((ny, nx)) < 0.02
    hot[0, :] = hot[-1, :] = False
    inputs.update(u=heat.T_AMBIENT + rng.random((ny, nx)), steps=steps, bottom_profile=bottom, hot_mask=hot)
    return inputs


def timed(fn, inputs):
    args = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}
    start = time.perf_counter()
    out = fn(**args)
    return out, args, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=256, help="rows of the plate (default 256)")
    parser.add_argument("--steps", type=int, default=100)
    opts = parser.parse_args(argv)

    mesh = device_mesh("x")
    devices = mesh.devices.size
    inputs = make_plate(opts.size, opts.steps, devices)
    simulate = np2ref.compile(heat.simulate, mesh=(mesh, {"u": "x", "hot_mask": "x"}))

    centre_np, numpy_args, t_numpy = timed(heat.simulate, inputs)
    timed(simulate, inputs)                                   # first call: trace and compile
    centre, args, t_mesh = timed(simulate, inputs)

    lowered = simulate.lower(**inputs).compile()
    in_shardings = {k: s for group in lowered.input_shardings[0] for k, s in group.items()}  # by name
    print(f"devices: {devices} x {jax.devices()[0].platform}, plate {inputs['u'].shape}, "
          f"{opts.steps} steps")
    print(f"u is split as {in_shardings['u'].spec} ({inputs['u'].shape[0] // devices} rows per device); "
          f"halo exchanges in the program: {lowered.as_text().count('collective-permute(')}")
    print(f"NumPy {t_numpy * 1e3:.1f} ms, np2ref on the mesh {t_mesh * 1e3:.1f} ms")
    print(f"max |u - u_numpy| = {np.max(np.abs(args['u'] - numpy_args['u'])):.2e}, "
          f"max |centre - centre_numpy| = {np.max(np.abs(centre - centre_np)):.2e}")
    assert np.allclose(args["u"], numpy_args["u"], rtol=1e-12, atol=1e-12)
    assert np.allclose(centre, centre_np, rtol=1e-12, atol=1e-12)


if __name__ == "__main__":
    main()
