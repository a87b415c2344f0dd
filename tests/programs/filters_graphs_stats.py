"""Third-party-style programs (tests/third_party/test_filters_graphs_stats.py): image filters,
graph algorithms on dense adjacency matrices, statistics and machine learning by hand,
numerical methods, signals, cellular automata and integer recurrences, written the way
textbooks, tutorials, Rosetta Code and Q&A answers write them (loops, in-place updates,
helpers, early exits, Python scalars), not for np2ref."""

import math

import numpy as np


GRAVITY = 9.81
LEGENDRE_X = np.array([-0.7745966692414834, 0.0, 0.7745966692414834])
LEGENDRE_W = np.array([5 / 9, 8 / 9, 5 / 9])


# --- image processing ----------------------------------------------------------------------------

def convolve2d_loops(img, kernel):
    """Naive 'same' convolution with zero padding, as in image-processing tutorials."""
    kh, kw = kernel.shape
    ph, pw = kh // 2, kw // 2
    H, W = img.shape
    padded = np.zeros((H + 2 * ph, W + 2 * pw))
    padded[ph:ph + H, pw:pw + W] = img
    out = np.zeros_like(img, dtype=float)
    flipped = kernel[::-1, ::-1]
    for i in range(H):
        for j in range(W):
            region = padded[i:i + kh, j:j + kw]
            out[i, j] = np.sum(region * flipped)
    return out


def median_filter2d(img, size=3):
    r = size // 2
    H, W = img.shape
    out = img.copy()
    for i in range(r, H - r):
        for j in range(r, W - r):
            window = img[i - r:i + r + 1, j - r:j + r + 1]
            out[i, j] = np.median(window)
    return out


def box_filter_integral(img, r):
    """Box filter through an integral image (summed-area table)."""
    H, W = img.shape
    S = np.zeros((H + 1, W + 1))
    for i in range(H):
        for j in range(W):
            S[i + 1, j + 1] = img[i, j] + S[i, j + 1] + S[i + 1, j] - S[i, j]
    out = np.empty_like(img)
    for i in range(H):
        i0, i1 = max(i - r, 0), min(i + r + 1, H)
        for j in range(W):
            j0, j1 = max(j - r, 0), min(j + r + 1, W)
            total = S[i1, j1] - S[i0, j1] - S[i1, j0] + S[i0, j0]
            out[i, j] = total / ((i1 - i0) * (j1 - j0))
    return out


def bilinear_resize(img, new_h, new_w):
    h, w = img.shape
    out = np.empty((new_h, new_w), dtype=np.float64)
    sy = (h - 1) / (new_h - 1)
    sx = (w - 1) / (new_w - 1)
    for i in range(new_h):
        y = i * sy
        y0 = int(np.floor(y))
        y1 = min(y0 + 1, h - 1)
        dy = y - y0
        for j in range(new_w):
            x = j * sx
            x0 = int(np.floor(x))
            x1 = min(x0 + 1, w - 1)
            dx = x - x0
            top = img[y0, x0] * (1 - dx) + img[y0, x1] * dx
            bot = img[y1, x0] * (1 - dx) + img[y1, x1] * dx
            out[i, j] = top * (1 - dy) + bot * dy
    return out


def otsu_threshold(img, nbins=32):
    hist, edges = np.histogram(img, bins=nbins, range=(0.0, 1.0))
    centers = 0.5 * (edges[:-1] + edges[1:])
    total = hist.sum()
    best_t, best_var = 0.0, -1.0
    w0 = 0
    sum0 = 0.0
    sum_all = np.dot(hist, centers)
    for k in range(nbins - 1):
        w0 += hist[k]
        sum0 += hist[k] * centers[k]
        w1 = total - w0
        if w0 == 0 or w1 == 0:
            continue
        m0 = sum0 / w0
        m1 = (sum_all - sum0) / w1
        var_between = w0 * w1 * (m0 - m1) ** 2
        if var_between > best_var:
            best_var = var_between
            best_t = edges[k + 1]
    return best_t, img > best_t


def erode_binary(mask, iterations=1):
    out = mask.copy()
    for _ in range(iterations):
        prev = out.copy()
        out[1:-1, 1:-1] = (prev[1:-1, 1:-1] & prev[:-2, 1:-1] & prev[2:, 1:-1]
                           & prev[1:-1, :-2] & prev[1:-1, 2:])
        out[0, :] = False
        out[-1, :] = False
        out[:, 0] = False
        out[:, -1] = False
    return out


def label_by_relaxation(mask, max_iter=100):
    """Connected-component labelling by iterated min-propagation of labels (4-neighbours)."""
    H, W = mask.shape
    labels = np.where(mask, np.arange(H * W).reshape(H, W) + 1, 0)
    for it in range(max_iter):
        changed = False
        for i in range(H):
            for j in range(W):
                if labels[i, j] == 0:
                    continue
                best = labels[i, j]
                if i > 0 and labels[i - 1, j] > 0:
                    best = min(best, labels[i - 1, j])
                if j > 0 and labels[i, j - 1] > 0:
                    best = min(best, labels[i, j - 1])
                if i < H - 1 and labels[i + 1, j] > 0:
                    best = min(best, labels[i + 1, j])
                if j < W - 1 and labels[i, j + 1] > 0:
                    best = min(best, labels[i, j + 1])
                if best != labels[i, j]:
                    labels[i, j] = best
                    changed = True
        if not changed:
            break
    return labels, it


def hist_equalize_min(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    lut = np.clip(np.round((cdf - cdf_min) / (img.size - cdf_min) * 255), 0, 255).astype(np.uint8)
    return lut[img]


def gamma_correct_uint8(img, gamma):
    norm = img / 255.0
    out = (255 * norm ** gamma).astype(np.uint8)
    darker = img // 2
    inv = 255 - img
    clipped = np.clip(img.astype(np.int16) * 2 - 100, 0, 255).astype(np.uint8)
    return out, darker, inv, clipped


def bitwise_image(a, b):
    mask = (a & 0xF0) | (b >> 4)
    inv = ~a
    x = a ^ b
    return mask, inv, x, np.left_shift(a.astype(np.uint16), 2)



# --- graphs on dense adjacency matrices ----------------------------------------------------------

def pagerank(A, d=0.85, tol=1e-10, max_iter=200):
    n = A.shape[0]
    out_deg = A.sum(axis=1)
    M = np.zeros((n, n))
    for i in range(n):
        if out_deg[i] > 0:
            M[:, i] = A[i, :] / out_deg[i]
        else:
            M[:, i] = 1.0 / n
    r = np.ones(n) / n
    for it in range(max_iter):
        r_new = (1 - d) / n + d * M @ r
        err = np.abs(r_new - r).sum()
        r = r_new
        if err < tol:
            break
    return r, it + 1


def transitive_closure(adj):
    R = adj.astype(bool).copy()
    n = R.shape[0]
    for k in range(n):
        R = R | (R[:, k][:, None] & R[k, :][None, :])
    return R


def dijkstra_dense(W, src):
    n = W.shape[0]
    dist = np.full(n, np.inf)
    dist[src] = 0.0
    visited = np.zeros(n, dtype=bool)
    prev = np.full(n, -1)
    for _ in range(n):
        u = np.argmin(np.where(visited, np.inf, dist))
        if np.isinf(dist[u]):
            break
        visited[u] = True
        for v in range(n):
            w = W[u, v]
            if w > 0 and not visited[v] and dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                prev[v] = u
    return dist, prev


def prim_mst(W):
    n = W.shape[0]
    in_tree = np.zeros(n, dtype=bool)
    key = np.full(n, np.inf)
    parent = np.full(n, -1, dtype=np.int64)
    key[0] = 0.0
    total = 0.0
    for _ in range(n):
        cand = np.where(in_tree, np.inf, key)
        u = int(np.argmin(cand))
        in_tree[u] = True
        total += key[u]
        mask = (W[u] > 0) & ~in_tree & (W[u] < key)
        key[mask] = W[u][mask]
        parent[mask] = u
    return total, parent



# --- statistics and machine learning -------------------------------------------------------------

def logistic_regression_gd(X, y, lr=0.1, epochs=100):
    n, p = X.shape
    w = np.zeros(p)
    b = 0.0
    losses = []
    for epoch in range(epochs):
        z = X @ w + b
        p_hat = 1.0 / (1.0 + np.exp(-z))
        loss = -np.mean(y * np.log(p_hat + 1e-12) + (1 - y) * np.log(1 - p_hat + 1e-12))
        losses.append(loss)
        grad_w = X.T @ (p_hat - y) / n
        grad_b = np.mean(p_hat - y)
        w -= lr * grad_w
        b -= lr * grad_b
    return w, b, losses


def pca_power_iteration(X, k, n_iter=50):
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / (X.shape[0] - 1)
    d = C.shape[0]
    comps = np.zeros((k, d))
    eigvals = np.zeros(k)
    for c in range(k):
        v = np.ones(d) / np.sqrt(d)
        for _ in range(n_iter):
            w = C @ v
            v = w / np.linalg.norm(w)
        lam = v @ C @ v
        comps[c] = v
        eigvals[c] = lam
        C = C - lam * np.outer(v, v)
    return comps, eigvals


def welford_columns(X):
    count = 0
    mean = np.zeros(X.shape[1])
    m2 = np.zeros(X.shape[1])
    for row in X:
        count += 1
        delta = row - mean
        mean += delta / count
        m2 += delta * (row - mean)
    return mean, m2 / count


def gaussian_kde(samples, grid, bandwidth):
    n = len(samples)
    dens = np.zeros_like(grid)
    norm = 1.0 / (n * bandwidth * math.sqrt(2 * math.pi))
    for s in samples:
        u = (grid - s) / bandwidth
        dens += np.exp(-0.5 * u * u)
    return dens * norm


def softmax_cross_entropy(logits, labels):
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    probs = exp / exp.sum(axis=1, keepdims=True)
    n = logits.shape[0]
    loss = -np.log(probs[np.arange(n), labels]).mean()
    grad = probs.copy()
    grad[np.arange(n), labels] -= 1
    grad /= n
    return loss, grad


def sgd_linear_regression(X, y, perm, lr=0.01, epochs=3):
    w = np.zeros(X.shape[1])
    history = []
    for ep in range(epochs):
        for idx in perm:
            xi, yi = X[idx], y[idx]
            err = xi @ w - yi
            w -= lr * err * xi
        history.append(np.mean((X @ w - y) ** 2))
    return w, history


def perceptron(X, y, epochs=10):
    w = np.zeros(X.shape[1] + 1)
    mistakes = 0
    for _ in range(epochs):
        errors = 0
        for xi, target in zip(X, y):
            activation = w[0] + np.dot(xi, w[1:])
            pred = 1 if activation >= 0 else -1
            if pred != target:
                w[1:] += target * xi
                w[0] += target
                errors += 1
        mistakes += errors
        if errors == 0:
            break
    return w, mistakes


def kmeans_lloyd(X, init, n_iter=10):
    centroids = init.copy()
    k = centroids.shape[0]
    for it in range(n_iter):
        d2 = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        assign = np.argmin(d2, axis=1)
        new = np.zeros_like(centroids)
        counts = np.zeros(k)
        for i in range(X.shape[0]):
            new[assign[i]] += X[i]
            counts[assign[i]] += 1
        for j in range(k):
            if counts[j] > 0:
                new[j] /= counts[j]
            else:
                new[j] = centroids[j]
        if np.allclose(new, centroids):
            break
        centroids = new
    inertia = d2[np.arange(X.shape[0]), assign].sum()
    return centroids, assign, inertia


def em_gmm_1d(x, mu, sigma, pi, n_iter):
    mu = mu.copy()
    sigma = sigma.copy()
    pi = pi.copy()
    K = len(mu)
    loglik = []
    for it in range(n_iter):
        resp = np.zeros((len(x), K))
        for k in range(K):
            resp[:, k] = pi[k] * np.exp(-0.5 * ((x - mu[k]) / sigma[k]) ** 2) / (sigma[k] * np.sqrt(2 * np.pi))
        tot = resp.sum(axis=1, keepdims=True)
        loglik.append(np.log(tot).sum())
        resp /= tot
        Nk = resp.sum(axis=0)
        for k in range(K):
            mu[k] = (resp[:, k] * x).sum() / Nk[k]
            sigma[k] = np.sqrt((resp[:, k] * (x - mu[k]) ** 2).sum() / Nk[k])
        pi = Nk / len(x)
    return mu, sigma, pi, loglik


# --- numerical methods ---------------------------------------------------------------------------

def simpson(y, dx):
    n = len(y) - 1
    if n % 2:
        raise ValueError("need an even number of intervals")
    s = y[0] + y[-1]
    for i in range(1, n, 2):
        s += 4 * y[i]
    for i in range(2, n - 1, 2):
        s += 2 * y[i]
    return s * dx / 3


def lu_doolittle(A):
    n = A.shape[0]
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            s = 0.0
            for j in range(i):
                s += L[i, j] * U[j, k]
            U[i, k] = A[i, k] - s
        for k in range(i + 1, n):
            s = 0.0
            for j in range(i):
                s += L[k, j] * U[j, i]
            L[k, i] = (A[k, i] - s) / U[i, i]
    return L, U


def cholesky_banachiewicz(A):
    n = len(A)
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = sum(L[i][k] * L[j][k] for k in range(j))
            if i == j:
                L[i][j] = math.sqrt(A[i][i] - s)
            else:
                L[i][j] = 1.0 / L[j][j] * (A[i][j] - s)
    return L


def qr_householder(A):
    m, n = A.shape
    R = A.astype(float).copy()
    Q = np.eye(m)
    for k in range(n):
        x = R[k:, k]
        e = np.zeros_like(x)
        e[0] = np.copysign(np.linalg.norm(x), -x[0])
        u = x - e
        nu = np.linalg.norm(u)
        if nu == 0:
            continue
        v = u / nu
        R[k:, :] -= 2.0 * np.outer(v, v @ R[k:, :])
        Q[:, k:] -= 2.0 * np.outer(Q[:, k:] @ v, v)
    return Q, R


def jacobi_eigen(A, sweeps=5):
    A = A.copy()
    n = A.shape[0]
    V = np.eye(n)
    for _ in range(sweeps):
        for p in range(n - 1):
            for q in range(p + 1, n):
                if abs(A[p, q]) < 1e-15:
                    continue
                theta = (A[q, q] - A[p, p]) / (2 * A[p, q])
                t = np.sign(theta) / (abs(theta) + np.sqrt(theta ** 2 + 1)) if theta != 0 else 1.0
                c = 1 / np.sqrt(t ** 2 + 1)
                s = t * c
                J = np.eye(n)
                J[p, p] = J[q, q] = c
                J[p, q] = s
                J[q, p] = -s
                A = J.T @ A @ J
                V = V @ J
    return np.diag(A), V


def thomas(a, b, c, d):
    n = len(d)
    cp = np.zeros(n - 1)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / denom
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / denom
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def natural_cubic_spline(x, y):
    n = len(x) - 1
    h = np.diff(x)
    alpha = np.zeros(n + 1)
    for i in range(1, n):
        alpha[i] = 3 / h[i] * (y[i + 1] - y[i]) - 3 / h[i - 1] * (y[i] - y[i - 1])
    l = np.ones(n + 1)
    mu = np.zeros(n + 1)
    z = np.zeros(n + 1)
    for i in range(1, n):
        l[i] = 2 * (x[i + 1] - x[i - 1]) - h[i - 1] * mu[i - 1]
        mu[i] = h[i] / l[i]
        z[i] = (alpha[i] - h[i - 1] * z[i - 1]) / l[i]
    b = np.zeros(n)
    c = np.zeros(n + 1)
    d = np.zeros(n)
    for j in range(n - 1, -1, -1):
        c[j] = z[j] - mu[j] * c[j + 1]
        b[j] = (y[j + 1] - y[j]) / h[j] - h[j] * (c[j + 1] + 2 * c[j]) / 3
        d[j] = (c[j + 1] - c[j]) / (3 * h[j])
    return y[:-1].copy(), b, c[:-1], d


def burgers_godunov(u, dx, dt, nsteps):
    u = u.copy()
    for _ in range(nsteps):
        ul = u[:-1]
        ur = u[1:]
        fl = 0.5 * ul ** 2
        fr = 0.5 * ur ** 2
        s = 0.5 * (ul + ur)
        flux = np.where(ul > ur, np.where(s > 0, fl, fr),
                        np.where(ul > 0, fl, np.where(ur < 0, fr, 0.0)))
        u[1:-1] -= dt / dx * (flux[1:] - flux[:-1])
    return u


def sor_laplace(phi, omega, iters):
    ny, nx = phi.shape
    for it in range(iters):
        max_change = 0.0
        for i in range(1, ny - 1):
            for j in range(1, nx - 1):
                old = phi[i, j]
                new = 0.25 * (phi[i + 1, j] + phi[i - 1, j] + phi[i, j + 1] + phi[i, j - 1])
                phi[i, j] = old + omega * (new - old)
                max_change = max(max_change, abs(phi[i, j] - old))
    return max_change


def _apply_bc(u, kind):
    if kind == "periodic":
        u[0] = u[-2]
        u[-1] = u[1]
    elif kind == "dirichlet":
        u[0] = 0.0
        u[-1] = 0.0
    else:
        u[0] = u[1]
        u[-1] = u[-2]


def wave_leapfrog(u0, c, dx, dt, nsteps, bc="dirichlet"):
    u_prev = u0.copy()
    u = u0.copy()
    r2 = (c * dt / dx) ** 2
    for n in range(nsteps):
        u_next = np.empty_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + r2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        _apply_bc(u_next, bc)
        u_prev, u = u, u_next
    return u


def projectile(v0, angle_deg, dt):
    theta = math.radians(angle_deg)
    vx, vy = v0 * math.cos(theta), v0 * math.sin(theta)
    x = y = 0.0
    t = 0.0
    steps = 0
    while y >= 0.0:
        x += vx * dt
        vy -= GRAVITY * dt
        y += vy * dt
        t += dt
        steps += 1
    return x, t, steps


def gauss_legendre(a, b, m):
    """Composite 3-point Gauss-Legendre rule of exp(-t^2), nodes and weights module constants."""
    total = 0.0
    h = (b - a) / m
    for k in range(m):
        lo = a + k * h
        for j in range(3):
            t = lo + 0.5 * h * (LEGENDRE_X[j] + 1)
            total += LEGENDRE_W[j] * math.exp(-t * t)
    return total * 0.5 * h


# --- signals -------------------------------------------------------------------------------------

def biquad(x, b, a):
    """Direct form I biquad."""
    y = np.zeros_like(x)
    x1 = x2 = y1 = y2 = 0.0
    for n in range(len(x)):
        y[n] = b[0] * x[n] + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
        x2, x1 = x1, x[n]
        y2, y1 = y1, y[n]
    return y


def dft_loops(x):
    N = len(x)
    X = np.zeros(N, dtype=complex)
    for k in range(N):
        for n in range(N):
            X[k] += x[n] * np.exp(-2j * np.pi * k * n / N)
    return X


def autocorrelation(x, maxlag):
    x = x - x.mean()
    var = np.dot(x, x)
    acf = np.empty(maxlag + 1)
    for lag in range(maxlag + 1):
        acf[lag] = np.dot(x[:len(x) - lag], x[lag:]) / var
    return acf


def goertzel(x, k):
    N = len(x)
    w = 2 * np.pi * k / N
    coeff = 2 * np.cos(w)
    s_prev = 0.0
    s_prev2 = 0.0
    for sample in x:
        s = sample + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    power = s_prev2 ** 2 + s_prev ** 2 - coeff * s_prev * s_prev2
    return power


def haar_inplace(x):
    """One-dimensional Haar transform in place, levels until length 1."""
    n = len(x)
    tmp = np.empty_like(x)
    while n > 1:
        half = n // 2
        for i in range(half):
            tmp[i] = (x[2 * i] + x[2 * i + 1]) / math.sqrt(2)
            tmp[half + i] = (x[2 * i] - x[2 * i + 1]) / math.sqrt(2)
        x[:n] = tmp[:n]
        n = half
    return x


def bit_reverse_permute(x):
    n = len(x)
    j = 0
    for i in range(1, n):
        bit = n >> 1
        while j & bit:
            j ^= bit
            bit >>= 1
        j ^= bit
        if i < j:
            x[i], x[j] = x[j], x[i]
    return x


def cic_decimate(x, R):
    """Integrator-comb with int32 wraparound."""
    acc = np.int32(0)
    integ = np.zeros(len(x), dtype=np.int32)
    for i in range(len(x)):
        acc = np.int32(acc + x[i])
        integ[i] = acc
    dec = integ[R - 1::R]
    comb = np.empty_like(dec)
    comb[0] = dec[0]
    comb[1:] = dec[1:] - dec[:-1]
    return comb


def moving_window_stats(x, w):
    n = len(x) - w + 1
    means = np.empty(n)
    stds = np.empty(n)
    maxs = np.empty(n)
    for i in range(n):
        win = x[i:i + w]
        means[i] = win.mean()
        stds[i] = win.std()
        maxs[i] = win.max()
    return means, stds, maxs


# --- automata, games, integers -------------------------------------------------------------------

def sandpile_vectorised(grid, iters):
    g = grid.copy()
    for _ in range(iters):
        topple = g >= 4
        if not topple.any():
            break
        g[topple] -= 4
        t = topple.astype(g.dtype)
        g[1:, :] += t[:-1, :]
        g[:-1, :] += t[1:, :]
        g[:, 1:] += t[:, :-1]
        g[:, :-1] += t[:, 1:]
    return g


def langtons_ant(n, steps):
    grid = np.zeros((n, n), dtype=np.int8)
    x = y = n // 2
    dx, dy = 0, -1
    for _ in range(steps):
        if grid[y, x] == 0:
            dx, dy = -dy, dx
        else:
            dx, dy = dy, -dx
        grid[y, x] ^= 1
        x = (x + dx) % n
        y = (y + dy) % n
    return grid, (x, y)


def rule110(cells, steps):
    rule = 110
    table = np.array([(rule >> i) & 1 for i in range(8)], dtype=np.uint8)
    history = np.zeros((steps + 1, len(cells)), dtype=np.uint8)
    history[0] = cells
    cur = cells.copy()
    for t in range(1, steps + 1):
        left = np.roll(cur, 1)
        right = np.roll(cur, -1)
        idx = 4 * left + 2 * cur + right
        cur = table[idx]
        history[t] = cur
    return history


def game_of_life(board, generations):
    b = board.copy()
    rows, cols = b.shape
    for g in range(generations):
        new = np.zeros_like(b)
        for r in range(rows):
            for c in range(cols):
                n = 0
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        if dr == 0 and dc == 0:
                            continue
                        n += b[(r + dr) % rows, (c + dc) % cols]
                if b[r, c] == 1 and n in (2, 3):
                    new[r, c] = 1
                elif b[r, c] == 0 and n == 3:
                    new[r, c] = 1
        b = new
    return b


def mandelbrot_counts(xs, ys, maxit):
    counts = np.zeros((len(ys), len(xs)), dtype=int)
    for i, y in enumerate(ys):
        for j, x in enumerate(xs):
            c = complex(x, y)
            z = 0j
            for k in range(maxit):
                z = z * z + c
                if abs(z) > 2:
                    break
            counts[i, j] = k
    return counts


def lcg_uint64(seed, n):
    a = np.uint64(6364136223846793005)
    c = np.uint64(1442695040888963407)
    out = np.empty(n, dtype=np.uint64)
    x = np.uint64(seed)
    for i in range(n):
        x = a * x + c
        out[i] = x
    return out


def xorshift32(state, n):
    out = np.zeros(n, dtype=np.uint32)
    x = np.uint32(state)
    for i in range(n):
        x ^= np.uint32(x << np.uint32(13))
        x ^= np.uint32(x >> np.uint32(17))
        x ^= np.uint32(x << np.uint32(5))
        out[i] = x
    return out


def fib_matrix_power(n):
    M = np.array([[1, 1], [1, 0]], dtype=np.int64)
    result = np.eye(2, dtype=np.int64)
    while n > 0:
        if n % 2 == 1:
            result = result @ M
        M = M @ M
        n //= 2
    return result[0, 1]


def collatz_lengths(starts):
    lengths = np.zeros_like(starts)
    for i in range(len(starts)):
        n = starts[i]
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        lengths[i] = steps
    return lengths


def gcd_array(a, b):
    out = np.empty_like(a)
    for i in range(len(a)):
        x, y = a[i], b[i]
        while y:
            x, y = y, x % y
        out[i] = x
    return out


# --- NumPy's own semantics in such kernels -------------------------------------------------------

def naive_row_swap(M):
    """The classic view trap: both rows end up equal in NumPy."""
    M[0], M[1] = M[1], M[0]
    return M


def rows_through_views(A):
    for i, row in enumerate(A):
        row *= i + 1
    for row in A:
        row[:] = row - row.mean()
    return A


def int32_accumulate(x):
    acc = np.zeros(len(x), dtype=np.int32)
    total = np.int32(0)
    for i in range(len(x)):
        total += x[i]
        acc[i] = total
    return acc, total


def float32_accumulate(x):
    s = np.float32(0.0)
    sq = np.float32(0.0)
    for v in x:
        s += v
        sq += v * v
    mean = s / len(x)
    return mean, sq / len(x) - mean * mean


def classify_points(pts):
    labels = np.empty(len(pts), dtype=np.int64)
    for i, (px, py) in enumerate(pts):
        if px >= 0 and py >= 0:
            labels[i] = 1
        elif px < 0 and py >= 0:
            labels[i] = 2
        elif px < 0:
            labels[i] = 3
        else:
            labels[i] = 4
    return labels


def normalize_inplace(v):
    n = np.linalg.norm(v)
    if n > 0:
        v /= n
    return n


def normalize_all(V):
    norms = np.zeros(V.shape[0])
    for i in range(V.shape[0]):
        norms[i] = normalize_inplace(V[i])
    return norms


def leaky_bucket(inflow, capacity, leak):
    level = 0.0
    spilled = 0.0
    levels = np.zeros_like(inflow)
    for t, q in enumerate(inflow):
        level = max(level - leak, 0.0) + q
        if level > capacity:
            spilled += level - capacity
            level = capacity
        levels[t] = level
    return levels, spilled



# --- refused: what np2ref cannot keep exact (tests/third_party/test_filters_graphs_stats.py REFUSED) -----------

def bellman_ford(W, src):
    n = W.shape[0]
    dist = np.full(n, np.inf)
    pred = -np.ones(n, dtype=int)
    dist[src] = 0.0
    for _ in range(n - 1):
        updated = False
        for u in range(n):
            for v in range(n):
                w = W[u, v]
                if w != 0 and dist[u] + w < dist[v]:
                    dist[v] = dist[u] + w
                    pred[v] = u
                    updated = True
        if not updated:
            break
    for u in range(n):
        for v in range(n):
            if W[u, v] != 0 and dist[u] + W[u, v] < dist[v]:
                raise ValueError("negative cycle")
    return dist, pred


def sandpile(grid, max_topples=10000):
    g = grid.copy()
    topples = 0
    while True:
        unstable = np.argwhere(g >= 4)
        if len(unstable) == 0:
            break
        for i, j in unstable:
            g[i, j] -= 4
            if i > 0:
                g[i - 1, j] += 1
            if i < g.shape[0] - 1:
                g[i + 1, j] += 1
            if j > 0:
                g[i, j - 1] += 1
            if j < g.shape[1] - 1:
                g[i, j + 1] += 1
            topples += 1
        if topples > max_topples:
            break
    return g, topples


def sieve(n):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(n ** 0.5) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    return np.nonzero(is_prime)[0]


def knn_predict(Xtr, ytr, Xte, k):
    preds = np.empty(Xte.shape[0], dtype=ytr.dtype)
    for i in range(Xte.shape[0]):
        d = np.sqrt(((Xtr - Xte[i]) ** 2).sum(axis=1))
        nn = np.argsort(d, kind="stable")[:k]
        votes = np.bincount(ytr[nn], minlength=int(ytr.max()) + 1)
        preds[i] = np.argmax(votes)
    return preds


def zero_crossings(x):
    count = 0
    idx = []
    for i in range(1, len(x)):
        if (x[i - 1] < 0) != (x[i] < 0):
            count += 1
            idx.append(i)
    return count, np.array(idx, dtype=int)


def random_walk_2d(steps):
    """steps: integers 0..3 chosen in advance."""
    moves = {0: (1, 0), 1: (-1, 0), 2: (0, 1), 3: (0, -1)}
    pos = np.zeros((len(steps) + 1, 2), dtype=int)
    for i, s in enumerate(steps):
        dx, dy = moves[int(s)]
        pos[i + 1] = pos[i] + (dx, dy)
    dist = np.sqrt((pos ** 2).sum(axis=1))
    return pos, dist.max()


def grid_search(xs, ys):
    best = None
    best_val = np.inf
    for x in xs:
        for y in ys:
            val = (x - 0.3) ** 2 + (y + 0.2) ** 2
            if val < best_val:
                best_val = val
                best = (x, y)
    return best, best_val


def hist_equalize_uint8(img):
    hist = np.zeros(256, dtype=np.int64)
    for v in img.ravel():
        hist[v] += 1
    cdf = np.cumsum(hist)
    cdf_min = cdf[cdf > 0][0]
    total = img.size
    lut = np.zeros(256, dtype=np.uint8)
    for k in range(256):
        if cdf[k] >= cdf_min:
            lut[k] = round((cdf[k] - cdf_min) / (total - cdf_min) * 255)
    return lut[img]



# --- not translated yet (xfail in tests/third_party/test_filters_graphs_stats.py) ------------------------------

def newton_system(x0, tol=1e-12, maxit=30):
    """Newton for x^2 + y^2 = 4, x*y = 1."""
    x = x0.astype(float).copy()
    for it in range(maxit):
        F = np.array([x[0] ** 2 + x[1] ** 2 - 4.0, x[0] * x[1] - 1.0])
        J = np.array([[2 * x[0], 2 * x[1]], [x[1], x[0]]])
        dx = np.linalg.solve(J, -F)
        x += dx
        if np.linalg.norm(dx) < tol:
            return x, it + 1, True
    return x, maxit, False


def jacobi_tol(A, b, tol=1e-10, maxiter=500):
    D = np.diag(A)
    R = A - np.diagflat(D)
    x = np.zeros_like(b)
    for k in range(maxiter):
        x_new = (b - R @ x) / D
        if np.linalg.norm(x_new - x, ord=np.inf) < tol:
            return x_new, k + 1
        x = x_new
    return x, maxiter


def kahn_toposort(adj):
    n = adj.shape[0]
    indeg = adj.sum(axis=0).astype(int)
    order = np.full(n, -1)
    done = np.zeros(n, dtype=bool)
    for pos in range(n):
        ready = (indeg == 0) & ~done
        u = np.argmax(ready)
        if not ready[u]:
            return order, False
        order[pos] = u
        done[u] = True
        indeg -= adj[u].astype(int)
    return order, True


def damped_oscillator(t, y):
    return np.array([y[1], -0.5 * y[1] - 4.0 * y[0]])


def rk4_system(f, y0, t0, t1, n):
    h = (t1 - t0) / n
    t = t0
    y = np.array(y0, dtype=float)
    ys = np.empty((n + 1, len(y0)))
    ys[0] = y
    for i in range(n):
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += h
        ys[i + 1] = y
    return ys


def rk4_oscillator(y0, t1, n):
    return rk4_system(damped_oscillator, y0, 0.0, t1, n)


def welford(x):
    n = 0
    mean = 0.0
    M2 = 0.0
    for xi in x:
        n += 1
        delta = xi - mean
        mean += delta / n
        delta2 = xi - mean
        M2 += delta * delta2
    if n < 2:
        return mean, float("nan")
    return mean, M2 / (n - 1)


def bfs_layers_matrix(adj, src):
    n = adj.shape[0]
    level = np.full(n, -1)
    frontier = np.zeros(n, dtype=bool)
    frontier[src] = True
    level[src] = 0
    depth = 0
    while frontier.any():
        depth += 1
        reach = (adj.T.astype(int) @ frontier.astype(int)) > 0
        frontier = reach & (level < 0)
        level[frontier] = depth
    return level


def accumulate_stats(x, stats=None):
    if stats is None:
        stats = {"n": 0, "sum": 0.0, "max": -np.inf}
    for v in x:
        stats["n"] += 1
        stats["sum"] += v
        if v > stats["max"]:
            stats["max"] = v
    return stats
