"""A distributed glacier surface energy and mass balance over an elevation grid, in the pattern of
glaciology teaching models: daily air temperature lapsed from a station (a list of monthly means
from set-up code, interpolated by day), precipitation split into snow and rain by a temperature
threshold with a linear ramp (`np.clip`), snow albedo decaying with the age of the surface
snow and reset by fresh snow through masks, melt from a temperature-index plus radiation model
limited to the available snow first and then ice (`np.minimum`, masks written in place),
refreezing of a fraction in the cold content, snow depth and cumulative balance in float32,
and int16 day counters of snow cover; annual balances and the equilibrium-line altitude (the
lowest cell with a positive balance, -1 where there is none) printed at the end of each year.
"""
import numpy as np

NY, NX = 10, 12
LAPSE = -0.0065
T_SNOW, T_RAIN = 0.0, 2.0
DDF_SNOW, DDF_ICE = np.float32(3.0e-3), np.float32(6.0e-3)
MONTHLY_T = [-10.0, -9.0, -6.0, -2.0, 1.0, 5.0, 8.0, 7.0, 3.0, -1.0, -6.0, -9.0]
MONTHLY_P = [3.0, 3.0, 2.5, 2.0, 2.0, 2.5, 3.0, 3.0, 2.5, 2.5, 3.0, 3.0]
rng = np.random.default_rng(11)
ELEV = (2700.0 + 110.0 * np.arange(NY)[:, None] + 15.0 * rng.random((NY, NX))).astype(np.float32)
STATION_Z = 2500.0


def daily_series(monthly, days=365):
    mid = (np.arange(12) + 0.5) * days / 12.0
    return np.interp(np.arange(days), mid, monthly, period=days)


def snow_fraction(temp):
    frac = (T_RAIN - temp) / (T_RAIN - T_SNOW)
    return np.clip(frac, 0.0, 1.0)


def albedo(age, snow):
    a = 0.5 + 0.35 * np.exp(-age / 6.0)
    a[snow <= 0.0] = 0.3
    return a


def step(swe, age, cover_days, balance, temp, precip, sw_in):
    fresh = precip * snow_fraction(temp)
    swe += fresh.astype(np.float32)
    age += 1.0
    age[fresh > 0.002] = 0.0
    melt_pot = np.maximum(temp, 0.0) * DDF_SNOW + (1.0 - albedo(age, swe)) * sw_in * 1e-4
    snow_melt = np.minimum(melt_pot, swe)
    swe -= snow_melt
    ice_melt = np.where(swe <= 0.0, (melt_pot - snow_melt) * (DDF_ICE / DDF_SNOW), 0.0)
    refreeze = np.where(temp < -2.0, 0.0, 0.1 * snow_melt)
    swe += refreeze
    balance += fresh - snow_melt - ice_melt + refreeze
    cover_days[swe > 0.01] += 1
    return float(snow_melt.mean()), float(ice_melt.max())


def ela(balance, elev):
    positive = balance > 0.0
    if not positive.any():
        return -1.0
    return float(elev[positive].min())


def run_years(years, temps, precs, sw, elev, every=120):
    # (first a dict of the four arrays handed to step: NPR207, containers of written arrays)
    swe, age = np.zeros((NY, NX), np.float32), np.zeros((NY, NX))
    cover, balance = np.zeros((NY, NX), np.int16), np.zeros((NY, NX), np.float32)
    annual = np.zeros(years)
    for year in range(years):
        balance[:] = 0.0
        for d in range(temps.size):
            t = temps[d] + LAPSE * (elev - STATION_Z)
            melt, ice = step(swe, age, cover, balance, t, precs[d], sw[d])
            if (d + 1) % every == 0:
                print("year", year, "day", d + 1, "mean swe", "%.3f" % swe.mean(), "ice melt max", "%.3f" % ice)
        annual[year] = balance.mean(dtype=np.float64)
        print("year", year, "balance", "%.3f" % annual[year], "ELA", ela(balance, elev), "cover days max", int(cover.max()))
    return annual, swe, cover, balance


CHECKS = {
    "daily_series": lambda: (MONTHLY_T, 48),
    "snow_fraction": lambda: (np.array([-3.0, 0.0, 0.5, 2.0, 5.0, -0.0]),),
    "albedo": lambda: (np.array([0.0, 3.0, 30.0, 1.0]), np.array([0.1, 0.0, 0.5, -0.0])),
    "step": lambda: (np.full((2, 3), 0.01, np.float32), np.array([[0.0, 5.0, 9.0], [1.0, 0.0, 2.0]]), np.zeros((2, 3), np.int16),
             np.zeros((2, 3), np.float32), np.array([[-3.0, 0.5, 1.0], [2.5, -0.0, 4.0]]), 0.004, 250.0),
    "ela": lambda: (np.array([[-1.0, -0.5], [0.2, 0.4]], np.float32), ELEV[:2, :2]),
    "ela#none": lambda: (np.full((2, 2), -0.1, np.float32), ELEV[:2, :2]),
    "run_years": lambda: (1, daily_series(MONTHLY_T, 40) + 2.0, daily_series(MONTHLY_P, 40) * 1e-3,
                          200.0 + 100.0 * np.sin(np.arange(40) / 7.0), ELEV, 20),
}

if __name__ == "__main__":
    temps = daily_series(MONTHLY_T)
    precs = daily_series(MONTHLY_P) * 1e-3 * (rng.random(365) < 0.4) * 5.0
    sw = 150.0 + 120.0 * np.cos(2 * np.pi * (np.arange(365) - 172) / 365)
    annual, swe, cover, balance = run_years(2, temps, precs, sw, ELEV)
    print("annual", np.round(annual, 3), "dtypes", swe.dtype, cover.dtype, balance.dtype)
    print("cells snow covered all year", int((cover >= 2 * 365).sum()))
