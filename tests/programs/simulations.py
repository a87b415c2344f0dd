"""Simulation and numerics kernels written the way third-party scientific code is written
(molecular dynamics with cell lists, SPH, sparse sweeps, ODE integrators, dynamic programming,
image filters, finite volumes, k-means, union-find...): tests/third_party/test_simulations.py runs each
against NumPy."""
import numpy as np


# --- molecular dynamics / particles -------------------------------------------------------

def minimum_image_energy(pos, box, rc):
    n = pos.shape[0]
    energy = 0.0
    rc2 = rc * rc
    for i in range(n - 1):
        d = pos[i + 1:] - pos[i]
        d -= box * np.round(d / box)
        r2 = np.sum(d * d, axis=1)
        inside = r2 < rc2
        inv6 = (1.0 / r2[inside]) ** 3
        energy += np.sum(4.0 * (inv6 * inv6 - inv6))
    return energy


def cell_list(pos, box, ncell):
    cell_size = box / ncell
    idx = np.floor_divide(pos, cell_size).astype(np.int64)
    idx = np.mod(idx, ncell)
    flat = idx[:, 0] * ncell + idx[:, 1]
    counts = np.bincount(flat, minlength=ncell * ncell)
    order = np.argsort(flat, kind="stable")
    start = np.zeros(ncell * ncell + 1, dtype=np.int64)
    start[1:] = np.cumsum(counts)
    return flat, counts, order, start


def neighbour_forces(pos, nbr_i, nbr_j, box, forces):
    forces[:] = 0.0
    for k in range(len(nbr_i)):
        i = nbr_i[k]
        j = nbr_j[k]
        dr = pos[i] - pos[j]
        dr = dr - box * np.round(dr / box)
        r2 = dr @ dr
        f = 24.0 * (2.0 / r2 ** 7 - 1.0 / r2 ** 4) * dr
        forces[i] += f
        forces[j] -= f
    return forces


def sph_density(x, h, m):
    n = len(x)
    rho = np.zeros(n)
    for i in range(n):
        r = np.abs(x - x[i]) / h
        w = np.where(r < 1.0, 1.0 - 1.5 * r ** 2 + 0.75 * r ** 3,
                     np.where(r < 2.0, 0.25 * (2.0 - r) ** 3, 0.0))
        rho[i] = m * np.sum(w) / (np.pi * h ** 3)
    return rho


# --- sparse and iterative solvers ---------------------------------------------------------

def csr_spmv(indptr, indices, data, x):
    n = len(indptr) - 1
    y = np.zeros(n)
    for row in range(n):
        s = 0.0
        for jj in range(indptr[row], indptr[row + 1]):
            s += data[jj] * x[indices[jj]]
        y[row] = s
    return y


def sor_solve(A, b, omega=1.5, tol=1e-10, maxiter=500):
    n = len(b)
    x = np.zeros_like(b)
    for it in range(maxiter):
        x_old = x.copy()
        for i in range(n):
            sigma = np.dot(A[i, :i], x[:i]) + np.dot(A[i, i + 1:], x_old[i + 1:])
            x[i] = (1 - omega) * x_old[i] + omega * (b[i] - sigma) / A[i, i]
        if np.linalg.norm(x - x_old, ord=np.inf) < tol:
            break
    return x, it


def gauss_seidel_grid(u, f, h, sweeps):
    for _ in range(sweeps):
        for i in range(1, u.shape[0] - 1):
            for j in range(1, u.shape[1] - 1):
                u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - h * h * f[i, j])


# --- ODE integrators ----------------------------------------------------------------------

def lorenz(state, sigma=10.0, rho=28.0, beta=8.0 / 3.0):
    x, y, z = state
    return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])


def rk4_lorenz(y0, dt, nsteps):
    ys = [y0]
    y = y0.copy()
    for _ in range(nsteps):
        k1 = lorenz(y)
        k2 = lorenz(y + 0.5 * dt * k1)
        k3 = lorenz(y + 0.5 * dt * k2)
        k4 = lorenz(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return np.array(ys)


def pendulum_rhs(t, q):
    theta, omega = q
    return omega, -9.81 * np.sin(theta)


def rk4_tuple(q0, t0, t1, n):
    h = (t1 - t0) / n
    t = t0
    q = tuple(q0)
    for _ in range(n):
        k1 = pendulum_rhs(t, q)
        k2 = pendulum_rhs(t + h / 2, tuple(qi + h / 2 * ki for qi, ki in zip(q, k1)))
        k3 = pendulum_rhs(t + h / 2, tuple(qi + h / 2 * ki for qi, ki in zip(q, k2)))
        k4 = pendulum_rhs(t + h, tuple(qi + h * ki for qi, ki in zip(q, k3)))
        q = tuple(qi + h / 6 * (a + 2 * b + 2 * c + d) for qi, a, b, c, d in zip(q, k1, k2, k3, k4))
        t += h
    return t, q


# --- dynamic programming ------------------------------------------------------------------

def edit_distance(a, b):
    n, m = len(a), len(b)
    D = np.zeros((n + 1, m + 1), dtype=int)
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    return D[n, m]


def dtw(s, t):
    n, m = len(s), len(t)
    C = np.full((n + 1, m + 1), np.inf)
    C[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d = abs(s[i - 1] - t[j - 1])
            C[i, j] = d + min(C[i - 1, j], C[i, j - 1], C[i - 1, j - 1])
    return C[n, m], C


def viterbi(log_pi, log_A, log_B, obs):
    T = len(obs)
    K = len(log_pi)
    delta = np.zeros((T, K))
    psi = np.zeros((T, K), dtype=np.int64)
    delta[0] = log_pi + log_B[:, obs[0]]
    for t in range(1, T):
        scores = delta[t - 1][:, None] + log_A
        psi[t] = np.argmax(scores, axis=0)
        delta[t] = np.max(scores, axis=0) + log_B[:, obs[t]]
    path = np.zeros(T, dtype=np.int64)
    path[-1] = np.argmax(delta[-1])
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
    return path, delta[-1].max()


# --- image processing ---------------------------------------------------------------------

def separable_blur(img, kernel):
    r = len(kernel) // 2
    padded = np.pad(img, r, mode="edge")
    tmp = np.zeros_like(padded)
    for k in range(len(kernel)):
        tmp[:, r:-r] += kernel[k] * padded[:, k:k + img.shape[1]]
    out = np.zeros_like(img)
    for k in range(len(kernel)):
        out += kernel[k] * tmp[k:k + img.shape[0], r:-r]
    return out


def sobel_magnitude(img):
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[1:-1, 1:-1] = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]
                      - img[:-2, :-2] - 2 * img[1:-1, :-2] - img[2:, :-2])
    gy[1:-1, 1:-1] = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]
                      - img[:-2, :-2] - 2 * img[:-2, 1:-1] - img[:-2, 2:])
    mag = np.hypot(gx, gy)
    mag *= 255.0 / mag.max()
    return mag, np.arctan2(gy, gx)


def median3(x):
    stacked = np.stack([np.roll(x, 1), x, np.roll(x, -1)])
    med = np.sort(stacked, axis=0)[1]
    med[0], med[-1] = x[0], x[-1]
    return med


def box_sums(img, w):
    ii = np.zeros((img.shape[0] + 1, img.shape[1] + 1))
    ii[1:, 1:] = img.cumsum(axis=0).cumsum(axis=1)
    return ii[w:, w:] - ii[:-w, w:] - ii[w:, :-w] + ii[:-w, :-w]


def equalize(img, nbins=64):
    hist, edges = np.histogram(img.ravel(), bins=nbins, range=(0.0, 1.0))
    cdf = hist.cumsum().astype(float)
    cdf /= cdf[-1]
    centers = 0.5 * (edges[:-1] + edges[1:])
    return np.interp(img.ravel(), centers, cdf).reshape(img.shape)


# --- finite volumes -----------------------------------------------------------------------

def minmod(a, b):
    return np.where(a * b > 0, np.where(np.abs(a) < np.abs(b), a, b), 0.0)


def muscl_advect(u, c, nsteps):
    for _ in range(nsteps):
        du = minmod(u - np.roll(u, 1), np.roll(u, -1) - u)
        uL = u + 0.5 * (1 - c) * du
        flux = c * uL
        u -= flux - np.roll(flux, 1)
    return u


# --- Monte Carlo, clustering, statistics --------------------------------------------------

def mc_pi(rng, n, batches):
    hits = []
    for b in range(batches):
        xy = rng.random((n, 2))
        hits.append(np.count_nonzero(np.sum(xy ** 2, axis=1) <= 1.0))
    est = 4.0 * np.array(hits) / n
    return est.mean(), est.std(ddof=1)


def kmeans(X, centers, iters, tol=1e-8):
    k = centers.shape[0]
    for it in range(iters):
        d = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        counts = np.bincount(labels, minlength=k)
        new = np.zeros_like(centers)
        for dim in range(X.shape[1]):
            new[:, dim] = np.bincount(labels, weights=X[:, dim], minlength=k)
        new /= np.maximum(counts, 1)[:, None]
        shift = np.abs(new - centers).max()
        centers = new
        if shift < tol:
            break
    return centers, labels


def summary_stats(x):
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    return {"mean": x.mean(), "std": np.std(x, ddof=1), "median": np.median(x),
            "iqr": q3 - q1, "q1": q1}


# --- signals ------------------------------------------------------------------------------

def smooth_and_detrend(x, w):
    kern = np.ones(w) / w
    sm = np.convolve(x, kern, mode="same")
    d = np.diff(sm)
    return np.cumsum(d) + sm[0], sm


def fft_lowpass(x, keep):
    X = np.fft.rfft(x)
    X[keep:] = 0
    return np.fft.irfft(X, n=len(x))


# --- graphs -------------------------------------------------------------------------------

def bfs_levels(adj, src):
    n = adj.shape[0]
    level = -np.ones(n, dtype=np.int64)
    level[src] = 0
    queue = [src]
    while queue:
        u = queue.pop(0)
        for v in range(n):
            if adj[u, v] and level[v] < 0:
                level[v] = level[u] + 1
                queue.append(v)
    return level


def find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def union_components(n, edges):
    parent = np.arange(n)
    for e in range(edges.shape[0]):
        a = find(parent, edges[e, 0])
        b = find(parent, edges[e, 1])
        if a != b:
            parent[max(a, b)] = min(a, b)
    roots = np.array([find(parent, i) for i in range(n)])
    return roots, len(np.unique(roots))


def union_roots(parent, edges):
    for e in range(edges.shape[0]):
        a = find(parent, edges[e, 0])
        b = find(parent, edges[e, 1])
        if a != b:
            parent[max(a, b)] = min(a, b)
    for i in range(parent.shape[0]):
        find(parent, i)
    return parent


# --- misc ---------------------------------------------------------------------------------

def odd_even_sort(a):
    n = len(a)
    for p in range(n):
        for i in range(p % 2, n - 1, 2):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
    return a


def poly_fit_eval(x, y, deg, xs):
    c = np.polyfit(x, y, deg)
    return np.polyval(c, xs), np.polyval(np.polyder(c), xs)


def normalise_rows(m):
    def scale(row, s):
        row /= s
    for i in range(m.shape[0]):
        s = np.abs(m[i]).sum()
        if s > 0:
            scale(m[i], s)
    return m


# --- batch 2 ------------------------------------------------------------------------------

def verlet_list(pos, box, rcut, max_nbr):
    n = pos.shape[0]
    nlist = -np.ones((n, max_nbr), dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            d -= box * np.round(d / box)
            if np.dot(d, d) < rcut * rcut:
                nlist[i, count[i]] = j
                count[i] += 1
    return nlist, count


def wrap_and_reflect(pos, vel, L, dt, nsteps):
    for _ in range(nsteps):
        pos += vel * dt
        hit = pos > L
        pos[hit] = 2 * L - pos[hit]
        vel[hit] *= -1
        low = pos < 0
        pos[low] = -pos[low]
        vel[low] = -vel[low]
    cells = np.floor_divide(pos, L / 4).astype(int)
    return pos, vel, cells


def conjugate_gradient(A, b, tol=1e-10, maxiter=None):
    n = len(b)
    if maxiter is None:
        maxiter = 10 * n
    x = np.zeros(n)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    for k in range(maxiter):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        if np.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return {"x": x, "iterations": k + 1, "residual": np.sqrt(rs_new)}


def adaptive_euler(y0, t_end, dt0, tol):
    t = 0.0
    y = y0
    dt = dt0
    nsteps = 0
    while t < t_end:
        if t + dt > t_end:
            dt = t_end - t
        full = y + dt * (-2.0 * y)
        half = y + 0.5 * dt * (-2.0 * y)
        half = half + 0.5 * dt * (-2.0 * half)
        err = np.abs(full - half)
        if err < tol:
            t += dt
            y = half
            nsteps += 1
            dt *= 1.5
        else:
            dt *= 0.5
    return y, nsteps


def lotka_volterra(x0, y0, a, b, c, d, dt, n):
    xs = np.empty(n + 1)
    ys = np.empty(n + 1)
    xs[0], ys[0] = x0, y0
    x, y = x0, y0
    for k in range(n):
        x, y = x + dt * (a * x - b * x * y), y + dt * (d * x * y - c * y)
        xs[k + 1] = x
        ys[k + 1] = y
    return xs, ys


def smith_waterman(a, b, match=2, mismatch=-1, gap=-1):
    H = np.zeros((len(a) + 1, len(b) + 1))
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            s = match if a[i - 1] == b[j - 1] else mismatch
            H[i, j] = max(0, H[i - 1, j - 1] + s, H[i - 1, j] + gap, H[i, j - 1] + gap)
    i, j = np.unravel_index(np.argmax(H), H.shape)
    return H.max(), i, j


def lcs_length(a, b):
    n, m = len(a), len(b)
    L = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(n):
        for j in range(m):
            if a[i] == b[j]:
                L[i + 1, j + 1] = L[i, j] + 1
            else:
                L[i + 1, j + 1] = max(L[i + 1, j], L[i, j + 1])
    i, j = n, m
    length = 0
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            length += 1
            i -= 1
            j -= 1
        elif L[i - 1, j] >= L[i, j - 1]:
            i -= 1
        else:
            j -= 1
    return L[n, m], length


def rule30(cells, steps):
    history = np.zeros((steps + 1, cells.size), dtype=np.uint8)
    history[0] = cells
    for t in range(steps):
        left = np.roll(cells, 1)
        right = np.roll(cells, -1)
        cells = left ^ (cells | right)
        history[t + 1] = cells
    return history


def digitize_counts(x, edges, w):
    idx = np.digitize(x, edges)
    counts = np.bincount(idx, minlength=len(edges) + 1)
    sums = np.bincount(idx, weights=w, minlength=len(edges) + 1)
    means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return counts, means


def power_spectrum(x, dt):
    n = len(x)
    X = np.fft.rfft(x - x.mean())
    P = np.abs(X) ** 2 / n
    f = np.fft.rfftfreq(n, dt)
    k = np.argmax(P[1:]) + 1
    return f[k], P


def fft_convolve2d(img, ker):
    s = (img.shape[0] + ker.shape[0] - 1, img.shape[1] + ker.shape[1] - 1)
    out = np.fft.irfft2(np.fft.rfft2(img, s) * np.fft.rfft2(ker, s), s)
    return out[:img.shape[0], :img.shape[1]]


def bootstrap_mean(x, rng, nboot):
    means = np.empty(nboot)
    n = len(x)
    for b in range(nboot):
        idx = rng.integers(0, n, n)
        means[b] = x[idx].mean()
    return np.percentile(means, [2.5, 97.5]), means.std(ddof=1)


def metropolis_gauss(x0, rng, nsteps, step):
    x = x0
    chain = np.empty(nsteps)
    accepted = 0
    for k in range(nsteps):
        prop = x + step * rng.standard_normal()
        if rng.random() < np.exp(-0.5 * (prop ** 2 - x ** 2)):
            x = prop
            accepted += 1
        chain[k] = x
    return chain, accepted / nsteps


def apply_periodic(u):
    u[0] = u[-2]
    u[-1] = u[1]


def advect_periodic(u, c, nsteps):
    for _ in range(nsteps):
        apply_periodic(u)
        un = u.copy()
        u[1:-1] = un[1:-1] - c * (un[1:-1] - un[:-2])
    apply_periodic(u)
    return u.sum(), u.max()


def insertion_sort(a):
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


def newton_sqrt(c, tol=1e-12, maxit=50):
    x = np.where(c > 1, c / 2, 1.0)
    for it in range(maxit):
        dx = (x * x - c) / (2 * x)
        x = x - dx
        if np.max(np.abs(dx)) < tol:
            break
    return x, it


def expm_taylor(A, tol=1e-14):
    n = A.shape[0]
    result = np.eye(n)
    term = np.eye(n)
    k = 1
    while np.linalg.norm(term, 1) > tol:
        term = term @ A / k
        result = result + term
        k += 1
    return result, k


def gauss_pivot(A, b):
    A = A.astype(float).copy()
    b = b.astype(float).copy()
    n = len(b)
    for k in range(n - 1):
        p = np.argmax(np.abs(A[k:, k])) + k
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            m = A[i, k] / A[k, k]
            A[i, k:] -= m * A[k, k:]
            b[i] -= m * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x


def checkerboard_ising(spins, beta, rng, sweeps):
    n = spins.shape[0]
    ii, jj = np.indices(spins.shape)
    for _ in range(sweeps):
        for parity in (0, 1):
            nb = (np.roll(spins, 1, 0) + np.roll(spins, -1, 0) + np.roll(spins, 1, 1) + np.roll(spins, -1, 1))
            dE = 2 * spins * nb
            flip = (rng.random(spins.shape) < np.exp(-beta * dE)) & ((ii + jj) % 2 == parity)
            spins[flip] *= -1
    return spins.mean()


def inverse_cdf_sample(pdf, x, rng, n):
    cdf = np.cumsum(pdf)
    cdf /= cdf[-1]
    u = rng.random(n)
    idx = np.searchsorted(cdf, u)
    return x[idx]


def energy_log(pos, vel, dt, nsteps):
    energies = []
    for _ in range(nsteps):
        vel -= dt * pos
        pos += dt * vel
        energies.append(0.5 * np.sum(vel ** 2 + pos ** 2))
    return np.array(energies)


# --- NumPy's own semantics inside such kernels ---------------------------------------------

def prefix_inplace(a):
    a[1:] += a[:-1]          # NumPy: overlapping, buffered (not a running sum)
    return a


def count_hits(idx, n):
    counts = np.zeros(n, dtype=np.int32)
    counts[idx] += 1          # duplicates: last wins (counts 1 each)
    exact = np.zeros(n, dtype=np.int32)
    np.add.at(exact, idx, 1)
    return counts, exact


def wrap_positions(x, box):
    x[x < 0] += box
    x[x >= box] -= box
    return np.round(x / box * 8) , (x // (box / 4)).astype(int), x % 0.5


def smooth_view(u, w):
    def relax(inner, left, right):
        inner += w * (left + right - 2 * inner)
    for _ in range(3):
        relax(u[1:-1], u[:-2].copy(), u[2:].copy())
    return u


def transposed_write(a):
    b = a.T
    b[0, :] = -1.0
    c = a.reshape(-1)
    c[::3] *= 2
    return a


def banker_round(x):
    return np.round(x), np.round(x, 1), np.rint(x), np.floor(x + 0.5), np.trunc(x), np.fix(x)


def neg_divmod(a, b):
    return a // b, a % b, np.fmod(a, b), np.divmod(a, b)


def histogram2d_manual(x, y, nb):
    H = np.zeros((nb, nb))
    ix = np.minimum((x * nb).astype(int), nb - 1)
    iy = np.minimum((y * nb).astype(int), nb - 1)
    np.add.at(H, (ix, iy), 1.0)
    return H, H.sum(axis=0), H.argmax()


def masked_mean_update(x, m):
    x[m] = x[m] - x[m].mean()
    x[~m] *= 0.5
    return x, np.count_nonzero(m)
