"""A hanging cloth of point masses: position Verlet with `pos, prev = new, pos` style rebinding
done in place (`prev[:] = pos` from a copy), gravity and wind, structural springs as distance
constraints relaxed Gauss-Seidel edge by edge in a loop (`pos[i] += ...; pos[j] -= ...`), pinned
corners reset after each pass, a floor by a masked store, float32 positions with Python-float
parameters, stretch statistics printed while it runs.
"""
import numpy as np

NX, NY = 6, 5
REST = 0.1
DT = 0.01
DAMP = 0.99
GRAVITY = np.array([0.0, -9.81], dtype=np.float32)


def make_cloth(nx, ny, dtype=np.float32):
    ii, jj = np.meshgrid(np.arange(nx), np.arange(ny), indexing="xy")
    pos = np.stack([ii.ravel() * REST, 1.0 - jj.ravel() * REST], axis=1).astype(dtype)
    edges = []
    for j in range(ny):
        for i in range(nx):
            k = j * nx + i
            if i + 1 < nx:
                edges.append((k, k + 1))
            if j + 1 < ny:
                edges.append((k, k + nx))
    return pos, np.array(edges, dtype=np.int32)


def satisfy(pos, edges, rest, pinned, anchors, iterations):
    for _ in range(iterations):
        for e in range(edges.shape[0]):
            i, j = edges[e, 0], edges[e, 1]
            d = pos[j] - pos[i]
            length = np.sqrt(d @ d)
            corr = 0.5 * (length - rest) / length * d
            pos[i] += corr
            pos[j] -= corr
        pos[pinned] = anchors


def verlet(pos, prev, accel, dt, damp):
    velocity = (pos - prev) * damp
    prev[:] = pos
    pos += velocity + accel * (dt * dt)


def stretch(pos, edges, rest):
    d = (pos[edges[:, 1]] - pos[edges[:, 0]]).astype(np.float64)
    lengths = np.sqrt((d * d).sum(axis=1))
    return (lengths / rest - 1.0).max(), lengths.mean()


def simulate(pos, edges, steps, wind, iterations=3):
    prev = pos.copy()
    pinned = np.array([0, NX - 1])
    anchors = pos[pinned].copy()
    log = np.zeros((steps, 2), dtype=pos.dtype)
    for t in range(steps):
        accel = GRAVITY + wind * np.float32(np.sin(0.5 * t))
        verlet(pos, prev, accel, DT, DAMP)
        satisfy(pos, edges, REST, pinned, anchors, iterations)
        low = pos[:, 1] < 0.55
        pos[low, 1] = 0.55
        log[t] = stretch(pos, edges, REST)
    return log


CHECKS = {
    "simulate": lambda: (*make_cloth(4, 3), 5, np.array([1.5, 0.0], dtype=np.float32)),
    "simulate#f64": lambda: (*make_cloth(3, 3, np.float64), 4, np.array([0.5, 0.2]), 2),
    "satisfy": lambda: (make_cloth(3, 2)[0] * np.float32(1.1), make_cloth(3, 2)[1], REST, np.array([0]),
                        np.array([[0.0, 1.0]], dtype=np.float32), 2),
    "stretch": lambda: (make_cloth(3, 3, np.float64)[0] * 1.2, make_cloth(3, 3)[1], REST),
}

if __name__ == "__main__":
    pos, edges = make_cloth(NX, NY)
    print(pos.dtype, edges.shape)
    wind = np.array([2.0, 0.0], dtype=np.float32)
    for block in range(3):
        log = simulate(pos, edges, 4, wind)
        print(block, repr(float(log[-1, 0])), repr(float(log[-1, 1])), pos.dtype)
    print(np.round(pos[-NX:], 4))
