"""The Sun and the giant planets integrated for a few centuries, in the pattern of the classic
n-body benchmark and planetary-dynamics course codes: masses in solar units with G = 4 pi^2
(AU, years), positions and velocities from a table of orbital radii at module level, the
barycentre removed by moving the Sun (`vel[0] -= ...`), pairwise accelerations by explicit
double loops over i < j (the benchmark's style, writing both bodies), kick-drift-kick leapfrog,
the total energy summed term by term with Kahan's compensated summation (a running sum and its
lost low part; no float128), the angular momentum by np.cross, and the relative energy error
printed every so many years; Jupiter's orbital period measured from sign changes of its y.
"""
import numpy as np

G = 4.0 * np.pi ** 2
NAMES = ["Sun", "Jupiter", "Saturn", "Uranus", "Neptune"]
MASS = np.array([1.0, 9.5479e-4, 2.8588e-4, 4.3662e-5, 5.1514e-5])
RADIUS = [0.0, 5.2044, 9.5826, 19.2184, 30.110]
PHASE = [0.0, 0.3, 2.1, 4.0, 5.5]


def initial_state():
    n = len(MASS)
    pos = np.zeros((n, 3))
    vel = np.zeros((n, 3))
    for i in range(1, n):
        r, ph = RADIUS[i], PHASE[i]
        pos[i] = r * np.cos(ph), r * np.sin(ph), 0.01 * r * np.sin(2 * ph)
        speed = np.sqrt(G * (1.0 + MASS[i]) / r)
        vel[i] = -speed * np.sin(ph), speed * np.cos(ph), 0.0
    vel[0] -= (MASS[:, None] * vel).sum(axis=0) / MASS[0]
    return pos, vel


def accelerations(pos, mass, acc):
    acc[:] = 0.0
    n = mass.size
    for i in range(n):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            inv3 = 1.0 / (d @ d) ** 1.5
            acc[i] -= G * mass[j] * inv3 * d
            acc[j] += G * mass[i] * inv3 * d


def kahan_energy(pos, vel, mass):
    total = 0.0
    comp = 0.0
    terms = [0.5 * mass[i] * (vel[i] @ vel[i]) for i in range(mass.size)]
    for i in range(mass.size):
        for j in range(i + 1, mass.size):
            terms.append(-G * mass[i] * mass[j] / np.sqrt(((pos[i] - pos[j]) ** 2).sum()))
    for t in terms:
        y = t - comp
        s = total + y
        comp = (s - total) - y
        total = s
    return total


def angular_momentum(pos, vel, mass):
    return (mass[:, None] * np.cross(pos, vel)).sum(axis=0)


def leapfrog_list(pos, vel, mass, dt, steps, every):
    acc = np.zeros_like(pos)
    accelerations(pos, mass, acc)
    e0 = kahan_energy(pos, vel, mass)
    l0 = angular_momentum(pos, vel, mass)
    crossings = []
    y_prev = pos[1, 1] - pos[0, 1]
    for n in range(1, steps + 1):
        vel += 0.5 * dt * acc
        pos += dt * vel
        accelerations(pos, mass, acc)
        vel += 0.5 * dt * acc
        y = pos[1, 1] - pos[0, 1]
        if y_prev < 0.0 <= y:
            crossings.append(n * dt)
        y_prev = y
        if n % every == 0:
            err = (kahan_energy(pos, vel, mass) - e0) / abs(e0)
            dl = np.abs(angular_momentum(pos, vel, mass) - l0).max()
            print("year", round(n * dt, 2), "dE/E", "%.3e" % err, "dL small", bool(dl < 1e-12))
    return crossings


def leapfrog(pos, vel, mass, dt, steps, every):
    acc = np.zeros_like(pos)
    accelerations(pos, mass, acc)
    e0 = kahan_energy(pos, vel, mass)
    l0 = angular_momentum(pos, vel, mass)
    crossings = np.zeros(steps // 100 + 2)  # the hint's form of leapfrog_list: an array and a count
    nc = 0
    y_prev = pos[1, 1] - pos[0, 1]
    for n in range(1, steps + 1):
        vel += 0.5 * dt * acc
        pos += dt * vel
        accelerations(pos, mass, acc)
        vel += 0.5 * dt * acc
        y = pos[1, 1] - pos[0, 1]
        if y_prev < 0.0 <= y and nc < crossings.size:
            crossings[nc] = n * dt
            nc += 1
        y_prev = y
        if n % every == 0:
            err = (kahan_energy(pos, vel, mass) - e0) / abs(e0)
            dl = np.abs(angular_momentum(pos, vel, mass) - l0).max()
            print("year", round(n * dt, 2), "dE/E", "%.3e" % err, "dL small", bool(dl < 1e-12))
    return crossings, nc


CHECKS = {
    "initial_state": lambda: (),
    "accelerations": lambda: (*initial_state()[:1], MASS, np.ones((5, 3))),
    "kahan_energy": lambda: (*initial_state(), MASS),
    "angular_momentum": lambda: (*initial_state(), MASS),
    "leapfrog_list": lambda: (*initial_state(), MASS, 0.05, 240, 80),
    "leapfrog": lambda: (*initial_state(), MASS, 0.05, 240, 80),
    "leapfrog#two_bodies": lambda: (*(a[:2].copy() for a in initial_state()), MASS[:2].copy(), 0.1, 150, 50),
}

if __name__ == "__main__":
    pos, vel = initial_state()
    print("momentum", np.abs((MASS[:, None] * vel).sum(axis=0)).max() < 1e-15)
    print("energy", "%.12e" % kahan_energy(pos, vel, MASS), "naive", "%.12e" % (0.5 * (MASS * (vel * vel).sum(axis=1)).sum()
          - sum(G * MASS[i] * MASS[j] / np.linalg.norm(pos[i] - pos[j]) for i in range(5) for j in range(i + 1, 5))))
    crossings, nc = leapfrog(pos, vel, MASS, 0.02, 3000, 1000)
    periods = np.diff(crossings[:nc])
    print("Jupiter periods", np.round(periods, 2), "mean", round(float(np.mean(periods)), 3))
    print("Neptune at", np.round(pos[4], 4))
