"""The Brusselator reaction-diffusion system on a 2-D grid with no-flux boundaries by edge
padding (`np.pad(u, 1, mode="edge")`), forward Euler with the reactions computed into work
arrays, `u, un = un, u` and `v, vn = vn, v` swaps, a float32 copy of the pattern saved every N
steps in a list, and the spatial variance printed; parameters from a dict.
"""
import numpy as np

P = {"a": 1.0, "b": 3.0, "du": 1.0, "dv": 8.0, "dt": 0.005, "h": 1.0}


def laplacian(z):
    zp = np.pad(z, 1, mode="edge")
    return zp[2:, 1:-1] + zp[:-2, 1:-1] + zp[1:-1, 2:] + zp[1:-1, :-2] - 4.0 * z


def run(u, v, p, nsteps, every):
    un = np.empty_like(u)
    vn = np.empty_like(v)
    frames = []
    for n in range(nsteps):
        uuv = u * u * v
        un[:] = u + p["dt"] * (p["a"] - (p["b"] + 1) * u + uuv + p["du"] * laplacian(u) / p["h"] ** 2)
        vn[:] = v + p["dt"] * (p["b"] * u - uuv + p["dv"] * laplacian(v) / p["h"] ** 2)
        u, un = un, u
        v, vn = vn, v
        if (n + 1) % every == 0:
            frames.append(u.astype(np.float32))
            print(n + 1, "var(u) =", f"{u.var():.10e}")
    return u, v, frames


def make_inputs(n=14):
    rng = np.random.default_rng(3)
    u = P["a"] + 0.05 * rng.standard_normal((n, n))
    v = P["b"] / P["a"] + 0.05 * rng.standard_normal((n, n))
    return u, v


CHECKS = {"run": lambda: (*make_inputs(), dict(P), 6, 3), "laplacian": lambda: (make_inputs(5)[0],)}

if __name__ == "__main__":
    u0, v0 = make_inputs()
    u, v, frames = run(u0, v0, P, 8, 4)
    print(len(frames), frames[-1].dtype, repr(frames[-1].sum()), repr(v.max()))
    print("u0 is u", u0 is u, repr(u0[0, 0]))
