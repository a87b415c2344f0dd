"""A helper used both by module-level NumPy driver code and by functions a user compiles:
`laplacian(u, out)` writes into `out`, which some callers pass as a fresh array, some as a
view of another array, and one as the input itself (`laplacian(u, u)`: NumPy reads all of `u`
for the right-hand side before it stores). `diffuse` calls it in a time loop.
"""
import numpy as np

N = 20
D = 0.2


def laplacian(u, out):
    out[1:-1] = u[2:] - 2.0 * u[1:-1] + u[:-2]
    out[0] = 0.0
    out[-1] = 0.0
    return out


def diffuse(u, steps):
    lap = np.zeros_like(u)
    for s in range(steps):
        laplacian(u, lap)
        u += D * lap
    return u.max()


def diffuse_self(u, steps):
    for s in range(steps):
        w = u.copy()
        laplacian(w, w)
        u += D * w
    return u


def into_view(u, big):
    laplacian(u, big[2:2 + u.shape[0]])
    big[:2] = big[2:4] * 2
    return big


def in_place_lap(u):
    return laplacian(u, u)


def start(n):
    u = np.zeros(n)
    u[n // 3: n // 2] = 1.0
    return u


CHECKS = {
    "diffuse": lambda: (start(N), 15),
    "diffuse_self": lambda: (start(N), 6),
    "into_view": lambda: (start(N), np.ones(N + 5)),
    "in_place_lap": lambda: (start(N),),
    "laplacian": lambda: (start(N), np.ones(N)),
}

u_host = start(N)
lap_host = laplacian(u_host, np.empty(N))
for _ in range(3):
    u_host += D * laplacian(u_host, lap_host)

if __name__ == "__main__":
    u = start(N)
    peak = diffuse(u, 15)
    print(repr(peak), repr(u.sum()), repr(u_host.sum()), repr(lap_host.sum()))
    print(repr(diffuse_self(start(N), 6).sum()))
    big = into_view(start(N), np.ones(N + 5))
    print(np.round(big, 12).tolist())
    v = start(N)
    r = in_place_lap(v)
    print(r is v, np.round(v, 12).tolist())
