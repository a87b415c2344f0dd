"""The programs benchmarks/run.py times: the NumPy original (a corpus/ program or a kernel of
kernels.py), inputs at sizes T (tests), S, M and L, the hand-written JAX port, and for
stencils the ideal memory traffic of one run (each array read and written once a step)."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import kernels  # noqa: E402
from hand import lines, stencils  # noqa: E402

SIZES = ("T", "S", "M", "L")


def _corpus(name):
    path = HERE.parent / "corpus" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"corpus_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@dataclass
class Program:
    name: str
    original: Callable
    make: Callable[[str], dict]  # size -> keyword arguments of original
    hand: Callable
    traffic: Callable[[dict], int] | None = None  # ideal bytes moved by one run (stencils)
    bandwidth_size: Callable[[dict], int] | None = None  # bytes of the stencil's array

    def __post_init__(self):
        self.kind = "stencil" if self.traffic else "other"


def _pick(size, **table):
    return table[size]


# ---- input builders (the corpus make_inputs at benchmark sizes) ---------------------------------

def heat_inputs(size):
    n, steps = _pick(size, T=(12, 3), S=(256, 100), M=(1024, 100), L=(2048, 100))
    return dict(u=np.random.default_rng(0).random((n, n)), c=0.1, steps=steps)


def heat2d_inputs(size):
    ny, nx, steps = _pick(size, T=(10, 12, 5), S=(200, 240, 200), M=(400, 480, 500), L=(1000, 1200, 500))
    rng = np.random.default_rng(0)
    u = 15.0 + rng.random((ny, nx))
    hot = rng.random((ny, nx)) < 0.02
    hot[0, :] = hot[-1, :] = False
    hot[ny // 3, nx // 3] = True
    return dict(u=u, alpha=0.2, steps=steps, t_top=100.0, t_left=0.0,
                bottom_profile=40.0 + 10.0 * np.sin(np.linspace(0.0, np.pi, nx)), hot_mask=hot, t_hot=250.0)


def jacobi_inputs(size):
    n, iters, nsrc = _pick(size, T=(12, 6, 3), S=(128, 300, 20), M=(256, 1000, 20), L=(1024, 500, 20))
    rng = np.random.default_rng(0)
    h = 1.0 / (n - 1)
    x = np.linspace(0.0, 1.0, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    phi = 0.01 * rng.random((n, n))
    phi[0, :] = phi[-1, :] = phi[:, 0] = phi[:, -1] = 0.0
    interior = np.arange(n * n).reshape(n, n)[1:-1, 1:-1].ravel()
    return dict(phi=phi, background=10.0 * np.sin(np.pi * X) * np.sin(np.pi * Y),
                src_idx=rng.choice(interior, size=nsrc, replace=False), src_val=100.0 * rng.standard_normal(nsrc),
                obstacle=((X - 0.7) ** 2 + (Y - 0.6) ** 2) < 0.03, h=h, omega=0.8, iters=iters)


def denoise_inputs(size):
    n, iters = _pick(size, T=(12, 3), S=(256, 20), M=(512, 50), L=(2048, 20))
    rng = np.random.default_rng(0)
    y, x = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n), indexing="ij")
    img = 0.5 + 0.3 * np.sin(2.0 * np.pi * x) * np.sin(3.0 * np.pi * y) + 0.03 * rng.standard_normal((n, n))
    salt = rng.random((n, n))
    img[salt < 0.03] = 1.0
    img[salt > 0.97] = 0.0
    img = np.clip(img, 0.0, 1.0)
    dead = rng.random((n, n)) < 0.01
    img[dead] = 0.0
    return dict(img=img, dead=dead, scratch=np.zeros((n, n)), flags=np.zeros((n, n), dtype=np.int64),
                thr=0.02, outlier_thr=0.25, iters=iters)


def life_inputs(size):
    n, steps, nseed = _pick(size, T=(10, 3, 12), S=(128, 10, 2000), M=(256, 10, 20000), L=(1024, 10, 200000))
    rng = np.random.default_rng(0)
    return dict(board=np.zeros((n, n), dtype=np.int32), age=np.zeros((n, n), dtype=np.int64),
                seed_idx=rng.integers(0, n * n, size=nseed), steps=steps)


def heat1d_inputs(size):
    ncell, steps = _pick(size, T=(8, 4), S=(2000, 500), M=(2000, 4000), L=(100000, 2000))
    rng = np.random.default_rng(0)
    dx = 1.0 / ncell
    u = np.zeros(ncell + 4)
    u[2:-2] = 20.0 + 5.0 * rng.random(ncell)
    nheat = max(3, ncell // 100)
    idx = rng.integers(2, ncell + 2, size=nheat)
    idx[-1] = idx[0]
    return dict(u=u, heater_idx=idx, heater_power=50.0 * rng.random(nheat), kappa=1.0e-2, dx=dx,
                dt=0.45 * dx * dx / 1.0e-2, steps=steps, t_right=10.0)


def wave1d_inputs(size):
    n, steps, nrec = _pick(size, T=(16, 8, 3), S=(4000, 1000, 16), M=(4000, 6000, 16), L=(100000, 2000, 16))
    rng = np.random.default_rng(0)
    dx = 1.0 / (n - 1)
    c = 1.0 + 0.5 * rng.random(n)
    dt = 0.9 * dx / c.max()
    x = np.linspace(0.0, 1.0, n)
    u0 = np.exp(-((x - 0.3) / 0.05) ** 2)
    u0[0] = u0[-1] = 0.0
    t = np.arange(steps) * dt - 20.0 * dt
    wavelet = 1.0e3 * (1.0 - 2.0 * (np.pi * 10.0 * t) ** 2) * np.exp(-(np.pi * 10.0 * t) ** 2)
    return dict(u0=u0, v0=0.1 * rng.standard_normal(n), c=c, dx=dx, dt=dt, wavelet=wavelet, src=n // 4,
                receivers=np.sort(rng.choice(np.arange(1, n - 1), size=nrec, replace=False)),
                sponge=np.exp(-(0.05 * np.arange(1, max(4, n // 20) + 1)) ** 2))


def advection_inputs(size):
    nc, steps = _pick(size, T=(12, 6), S=(5000, 300), M=(5000, 3000), L=(100000, 1000))
    rng = np.random.default_rng(0)
    dx = 1.0 / nc
    xf = np.linspace(0.0, 1.0, nc + 1)
    vel = -(0.8 + 0.3 * np.cos(2.0 * np.pi * xf) + 0.05 * rng.random(nc + 1))
    vel[-1] = vel[0]
    xc = (np.arange(nc) + 0.5) * dx
    p = np.where(np.abs(xc - 0.3) < 0.15, 0.9, 0.1) + 0.05 * rng.random(nc)
    q = np.zeros(nc + 2)
    q[1:-1] = p
    return dict(q=q, p=p.copy(), vel=vel, dx=dx, dt=0.8 * dx / np.abs(vel).max(), steps=steps)


def iir_inputs(size):
    n = _pick(size, T=40, S=20000, M=200000, L=2000000)
    t = np.arange(n) / 1000.0
    x = np.sin(2.0 * np.pi * 5.0 * t) + 0.5 * np.random.default_rng(0).standard_normal(n)
    return dict(x=x, y=np.zeros(n), energy=np.zeros(n), fc=40.0, fs=1000.0, q=0.7071)


def thomas_inputs(size):
    n, steps = _pick(size, T=(8, 2), S=(2000, 20), M=(2000, 200), L=(20000, 100))
    rng = np.random.default_rng(0)
    x = (np.arange(n) + 0.5) / n
    return dict(u=np.exp(-((x - 0.5) / 0.1) ** 2) + 0.01 * rng.random(n), work=np.zeros((4, n)),
                kappa=1.0 + 0.5 * rng.random(n + 1), dx=1.0 / n, dt=1.0e-4, steps=steps)


def triangular_inputs(size):
    n, m = _pick(size, T=(6, 2), S=(100, 4), M=(400, 8), L=(800, 8))
    rng = np.random.default_rng(0)
    return dict(L=np.tril(rng.standard_normal((n, n))) + n * np.eye(n),
                U=np.triu(rng.standard_normal((n, n))) + n * np.eye(n), B=rng.standard_normal((n, m)))


def _grid_traffic(name, steps):
    return lambda kw: 2 * kw[name].nbytes * kw[steps]


PROGRAMS = {
    "heat_k1": lambda: Program("heat_k1", kernels.heat, heat_inputs, stencils.heat,
                               _grid_traffic("u", "steps"), lambda kw: kw["u"].nbytes),
    "heat2d_explicit": lambda: Program("heat2d_explicit", _corpus("heat2d_explicit").simulate, heat2d_inputs,
                                       stencils.heat2d, _grid_traffic("u", "steps"), lambda kw: kw["u"].nbytes),
    "jacobi_poisson2d": lambda: Program("jacobi_poisson2d", _corpus("jacobi_poisson2d").solve, jacobi_inputs,
                                        stencils.jacobi, _grid_traffic("phi", "iters"), lambda kw: kw["phi"].nbytes),
    "threshold_denoise": lambda: Program("threshold_denoise", _corpus("threshold_denoise").denoise, denoise_inputs,
                                         stencils.denoise, _grid_traffic("img", "iters"), lambda kw: kw["img"].nbytes),
    "game_of_life": lambda: Program("game_of_life", _corpus("game_of_life").simulate, life_inputs, stencils.life),
    "heat1d_explicit": lambda: Program("heat1d_explicit", _corpus("heat1d_explicit").simulate, heat1d_inputs,
                                       lines.heat1d),
    "wave1d_leapfrog": lambda: Program("wave1d_leapfrog", _corpus("wave1d_leapfrog").simulate, wave1d_inputs,
                                       lines.wave1d),
    "advection_upwind": lambda: Program("advection_upwind", _corpus("advection_upwind").simulate,
                                        advection_inputs, lines.advection),
    "iir_filter": lambda: Program("iir_filter", _corpus("iir_filter").filter_signal, iir_inputs, lines.iir),
    "thomas_tridiag": lambda: Program("thomas_tridiag", _corpus("thomas_tridiag").simulate, thomas_inputs,
                                      lines.thomas),
    "triangular_solves": lambda: Program("triangular_solves", _corpus("triangular_solves").solve_many,
                                         triangular_inputs, lines.triangular),
}


# Programs timed only when named with --programs (none now: wave1d_leapfrog's time loop, which
# rebinds `u_next = apply_fixed_ends(u_next)` to a helper's own argument, used to unroll).
SLOW_TO_COMPILE = ()
DEFAULT = [n for n in PROGRAMS if n not in SLOW_TO_COMPILE]


def load(names=None):
    return [PROGRAMS[n]() for n in (names or DEFAULT)]
