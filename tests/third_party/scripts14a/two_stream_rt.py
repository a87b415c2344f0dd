"""Solar radiation through a layered cloudy atmosphere by the two-stream approximation, in the
pattern of climate-model radiation codes: per-layer optical depth, single-scattering albedo and
asymmetry from set-up lists (a cloud in two layers), delta-Eddington scaling written in place
into the caller's arrays, Eddington-type coefficients (gamma1, gamma2) computed under
`np.errstate` with the conservative-scattering limit patched by a mask, a banded system for the
diffuse fluxes at every interface assembled into three diagonals and solved by the Thomas
algorithm (a forward sweep and a back substitution, element by element, into preallocated
arrays), the direct beam by the cumulative optical depth, heating rates by layer differences,
and a sweep over solar zenith angles with an early return for the sun below the horizon.
"""
import numpy as np

TAU = [0.02, 0.03, 0.05, 2.0, 3.0, 0.05, 0.02]
OMEGA = [0.2, 0.3, 0.5, 0.999999, 1.0, 0.6, 0.4]
ASYM = [0.0, 0.1, 0.2, 0.85, 0.85, 0.3, 0.2]
SURF_ALBEDO = 0.15
S0 = 1361.0


def delta_scale(tau, omega, g):
    f = g * g
    tau *= 1.0 - omega * f
    omega *= (1.0 - f) / (1.0 - omega * f)
    g[:] = g / (1.0 + g)


def coefficients(omega, g):
    g1 = (7.0 - omega * (4.0 + 3.0 * g)) / 4.0
    g2 = -(1.0 - omega * (4.0 - 3.0 * g)) / 4.0
    with np.errstate(invalid="ignore", divide="ignore"):
        lam = np.sqrt(g1 * g1 - g2 * g2)
        gam = g2 / (g1 + lam)
    conservative = lam < 1e-8
    lam[conservative] = 0.0
    gam[conservative] = -1.0
    return g1, g2, lam, gam


def thomas(a, b, c, d, x):
    n = d.size
    cp = np.zeros(n)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]


def fluxes(tau, omega, g, mu0, albedo):
    """Up and down diffuse fluxes at the nz + 1 interfaces by a discretised two-stream system."""
    nz = tau.size
    tau_cum = np.concatenate([[0.0], np.cumsum(tau)])
    direct = mu0 * S0 * np.exp(-tau_cum / mu0)
    g1, g2, lam, gam = coefficients(omega, g)
    n = 2 * (nz + 1)
    a, b, c, d = np.zeros(n), np.ones(n), np.zeros(n), np.zeros(n)
    for k in range(nz):
        t = np.exp(-2.0 * tau[k])
        r = omega[k] * (1.0 - g[k]) * (1.0 - t) / 2.0
        src = omega[k] * 0.5 * (direct[k] - direct[k + 1])
        a[2 * k + 2] = -t
        c[2 * k + 1] = -(t + r)
        b[2 * k + 2] = 1.0
        d[2 * k + 2] = src * (1.0 + g[k]) * 0.5
        d[2 * k + 1] = src * (1.0 - g[k]) * 0.5
    a[-1] = -albedo
    d[-1] = albedo * direct[-1]
    x = np.empty(n)
    thomas(a, b, c, d, x)
    return x[0::2], x[1::2], direct, lam


def heating(net, dp):
    return -(net[1:] - net[:-1]) / dp * 9.81 / 1004.0 * 86400.0


def column(mu0, tau0, omega0, g0, albedo=SURF_ALBEDO):
    if mu0 <= 0.0:
        return None, 0.0
    tau, omega, g = np.array(tau0), np.array(omega0), np.array(g0)
    delta_scale(tau, omega, g)
    down, up, direct, lam = fluxes(tau, omega, g, mu0, albedo)
    net = down + direct - up
    absorbed = net[0] - net[-1]
    return heating(net, np.full(tau.size, 1.0e4)), float(absorbed)


CHECKS = {
    "delta_scale": lambda: (np.array(TAU), np.array(OMEGA), np.array(ASYM)),
    "coefficients": lambda: (np.array(OMEGA), np.array(ASYM)),
    "thomas": lambda: (np.array([0.0, 1.0, 1.0, 1.0]), np.array([4.0, 4.0, 4.0, 4.0]), np.array([1.0, 1.0, 1.0, 0.0]),
                       np.array([5.0, 6.0, 6.0, 5.0]), np.zeros(4)),
    "fluxes": lambda: (np.array(TAU), np.array(OMEGA), np.array(ASYM), 0.5, SURF_ALBEDO),
    "heating": lambda: (np.array([400.0, 390.0, 370.0, 365.0]), np.full(3, 1.0e4)),
    "column": lambda: (0.7, TAU, OMEGA, ASYM),
    "column#night": lambda: (-0.1, TAU, OMEGA, ASYM),
}

if __name__ == "__main__":
    g1, g2, lam, gam = coefficients(np.array(OMEGA), np.array(ASYM))
    print("conservative layers", np.flatnonzero(lam == 0.0), "gamma", np.round(gam, 6))
    for zenith in [0.0, 30.0, 60.0, 85.0, 95.0]:
        mu0 = float(np.cos(np.deg2rad(zenith)))
        rates, absorbed = column(mu0, TAU, OMEGA, ASYM)
        if rates is None:
            print("zenith", zenith, "sun below the horizon")
            continue
        print("zenith", zenith, "absorbed", "%.6f" % absorbed, "max heating", "%.6f" % rates.max(), "at layer", int(np.argmax(rates)))
