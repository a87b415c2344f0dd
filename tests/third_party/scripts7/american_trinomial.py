"""An American put on a trinomial lattice by backward induction in ONE buffer: terminal payoffs
in `V[:2n+1]`, each step writes `V[:m] = disc * (pu * V[2:m+2] + pm * V[1:m+1] + pd * V[:m])`
(overlapping read and write: NumPy evaluates the right side first), early exercise by
`np.maximum(V[:m], K - S[...], out=V[:m])`, the exercise boundary recorded per step, and a
Bermudan variant exercising every k-th step only.
"""
import numpy as np


def lattice(S0, sigma, r, T, n):
    dt = T / n
    dx = sigma * np.sqrt(3 * dt)
    nu = r - 0.5 * sigma ** 2
    pu = 0.5 * ((sigma ** 2 * dt + nu ** 2 * dt ** 2) / dx ** 2 + nu * dt / dx)
    pd = 0.5 * ((sigma ** 2 * dt + nu ** 2 * dt ** 2) / dx ** 2 - nu * dt / dx)
    pm = 1.0 - pu - pd
    S = S0 * np.exp(dx * np.arange(-n, n + 1))
    return S, pu, pm, pd, np.exp(-r * dt)


def american_put(S0, K, sigma, r, T, n, every):
    S, pu, pm, pd, disc = lattice(S0, sigma, r, T, n)
    V = np.maximum(K - S, 0.0)
    boundary = np.full(n, np.nan)
    for i in range(n - 1, -1, -1):
        m = 2 * i + 1
        V[:m] = disc * (pd * V[:m] + pm * V[1:m + 1] + pu * V[2:m + 2])
        if i % every == 0:
            ex = K - S[n - i:n + i + 1]
            early = ex > V[:m]
            np.maximum(V[:m], ex, out=V[:m])
            if early.any():
                boundary[i] = S[n - i:n + i + 1][early].max()
    return V[0], boundary


def greeks(S0, K, sigma, r, T, n):
    h = 0.01 * S0
    up, _ = american_put(S0 + h, K, sigma, r, T, n, 1)
    mid, _ = american_put(S0, K, sigma, r, T, n, 1)
    dn, _ = american_put(S0 - h, K, sigma, r, T, n, 1)
    return mid, (up - dn) / (2 * h), (up - 2 * mid + dn) / h ** 2


CHECKS = {"american_put": lambda: (100.0, 105.0, 0.3, 0.04, 1.0, 40, 1),
          "american_put#bermudan": lambda: (100.0, 105.0, 0.3, 0.04, 1.0, 40, 8),
          "greeks": lambda: (100.0, 100.0, 0.2, 0.05, 0.5, 30)}

if __name__ == "__main__":
    v, b = american_put(100.0, 105.0, 0.3, 0.04, 1.0, 60, 1)
    print(repr(v), repr(np.nanmax(b)), int(np.isnan(b).sum()))
    print([repr(x) for x in greeks(100.0, 100.0, 0.2, 0.05, 0.5, 50)])
