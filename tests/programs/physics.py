"""Reduced reproducers from physics and numerics kernels in the style of published scientific
codes (N-body, molecular dynamics, FDTD, Ising, dynamic programming, escape-time fractals,
finite volumes, a from-scratch MLP, image filters, particle-in-cell) that np2ref answered
wrongly, refused without cause or failed on before: tests/third_party/test_physics.py runs each
against NumPy."""
import numpy as np


def mlp_fit(X, y, W, b, W2, b2, reg, step_size, niter):
    """A two-layer network trained with backprop, CS231n style: `probs[range(N), y]` (a range
    as an index crashed inside JAX) and a progress line formatted with `%` (refused, NPR031/127)."""
    N = X.shape[0]
    losses = []
    for i in range(niter):
        hidden_layer = np.maximum(0, np.dot(X, W) + b)
        scores = np.dot(hidden_layer, W2) + b2
        scores -= np.max(scores, axis=1, keepdims=True)
        exp_scores = np.exp(scores)
        probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)
        correct_logprobs = -np.log(probs[range(N), y])
        data_loss = np.sum(correct_logprobs) / N
        reg_loss = 0.5 * reg * np.sum(W * W) + 0.5 * reg * np.sum(W2 * W2)
        loss = data_loss + reg_loss
        if i % 5 == 0:
            print("iteration %d: loss %f" % (i, loss))
        losses.append(loss)
        dscores = probs
        dscores[range(N), y] -= 1
        dscores /= N
        dW2 = np.dot(hidden_layer.T, dscores)
        db2 = np.sum(dscores, axis=0, keepdims=True)
        dhidden = np.dot(dscores, W2.T)
        dhidden[hidden_layer <= 0] = 0
        dW = np.dot(X.T, dhidden)
        db = np.sum(dhidden, axis=0, keepdims=True)
        dW2 += reg * W2
        dW += reg * W
        W += -step_size * dW
        b += -step_size * db
        W2 += -step_size * dW2
        b2 += -step_size * db2
    predicted_class = np.argmax(scores, axis=1)
    return losses, np.mean(predicted_class == y)


def range_indices(p, y, k):
    N = p.shape[0]
    return p[range(N), y], p[range(N - 1, -1, -2)], p[range(k), range(k)], p[1, range(0)]


def progress_lines(x, n):
    for i in range(n):
        e = float(np.sum(x * x))
        x *= 0.5
        print("step %3d: energy %.6e" % (i, e))
        print("step %d" % i, "max {:.4f} at {}".format(x.max(), x.argmax()))
        print("%s|%r" % (x[0], x[:2]))
    return x


def leapfrog_clock(pos, vel, acc, t, dt, Nt):
    """Mocz's N-body time loop: `t = 0` (a Python int) then `t += dt` in the loop: NumPy rebinds
    t to a float; the carried int was stored into in place (a UFuncOutputCastingError)."""
    for i in range(Nt):
        vel += acc * dt / 2.0
        pos += vel * dt
        vel += acc * dt / 2.0
        t += dt
    return t


def scaled_cells(x, s, a):
    """`x * s + a` that decides, with s and a scalars: the product went into an FMA (the fence
    selected on the broadcast `a`, which LLVM hoisted out of the loop)."""
    return np.floor(x * s + a).astype(np.int64), x * s - a >= 0


def mandelbrot(h, w, maxit=20, r=2):
    """numpy.org's escape-time example: np.linspace under jit was XLA's `i * step + start`
    contracted into one FMA (half the grid one ulp off), so c = -2 + 0j escaped."""
    x = np.linspace(-2.5, 1.5, 4 * h + 1)
    y = np.linspace(-1.5, 1.5, 3 * w + 1)
    A, B = np.meshgrid(x, y)
    C = A + B * 1j
    z = np.zeros_like(C)
    divtime = maxit + np.zeros(z.shape, dtype=int)
    for i in range(maxit):
        z = z**2 + C
        diverge = abs(z) > r
        div_now = diverge & (divtime == maxit)
        divtime[div_now] = i
        z[diverge] = r
    return divtime


def grids(a, b, n):
    return np.linspace(a, b, n), np.linspace(a, b, n, endpoint=False), np.linspace(a, b, n, retstep=True)


def report_peak(x, rng):
    """A print and a draw whose values come from a program big enough for XLA to run it on its
    own thread: JAX made float64 operands float32 there (that thread's x64 setting), so the
    printed peak and the mean of the draw were float32-rounded."""
    peak = x.max()
    print("peak", peak, f"{float(peak)!r}", "sum %d" % (x > 0.5).sum())
    return rng.normal(peak, 1e-12, 2), peak


def metropolis_imported_draws(s, beta):
    """`from numpy.random import rand` (the Ising scripts' import): planning the draw read
    `rand.attr` of a bare name (AttributeError)."""
    from numpy.random import rand, randint
    for i in range(s.shape[0]):
        a = randint(0, s.shape[0])
        if rand() < np.exp(-beta * s[a]):
            s[a] *= -1
    return s
