"""Finance as a spreadsheet script writes it: a mortgage amortisation table with np.round to cents
(half-even: 0.125 -> 0.12), a final payment fixed up after the loop, returns compounded by
cumprod, the drawdown by np.maximum.accumulate and its argmin, and a rolling Sharpe over windows.
"""
import numpy as np


def amortise(principal, annual_rate, months):
    r = annual_rate / 12
    pay = np.round(principal * r / (1 - (1 + r) ** -months), 2)
    table = np.zeros((months, 3))
    bal = principal
    for m in range(months):
        interest = np.round(bal * r, 2)
        princ = pay - interest
        if princ > bal:
            princ = bal
        bal = np.round(bal - princ, 2)
        table[m] = interest, princ, bal
        if m % 12 == 11:
            print("year", m // 12 + 1, bal)
        if bal <= 0:
            break
    return table, pay, bal


def drawdown(returns):
    wealth = np.cumprod(1 + returns)
    peak = np.maximum.accumulate(wealth)
    dd = wealth / peak - 1
    worst = int(np.argmin(dd))
    start = int(np.argmax(wealth[:worst + 1])) if worst > 0 else 0
    return wealth, dd, worst, start, dd.min()


def rolling_sharpe(returns, w):
    out = np.full(returns.shape[0], np.nan)
    for i in range(w, returns.shape[0] + 1):
        seg = returns[i - w:i]
        sd = seg.std(ddof=1)
        out[i - 1] = seg.mean() / sd * np.sqrt(252) if sd > 0 else 0.0
    return out


def half_even():
    x = np.array([0.125, 0.135, 2.5, 3.5, -0.5, -1.5, 1234.565])
    return np.round(x, 2), np.round(x), np.around(x * 10, -1)


def make_returns():
    rng = np.random.default_rng(21)
    return rng.normal(0.0005, 0.01, 80)


CHECKS = {"amortise": lambda: (10000.0, 0.06, 36), "drawdown": lambda: (make_returns(),),
          "rolling_sharpe": lambda: (make_returns(), 20), "half_even": lambda: ()}

if __name__ == "__main__":
    t, pay, bal = amortise(10000.0, 0.06, 36)
    print(repr(pay), repr(bal), t[-1], repr(t[:, 0].sum()))
    w, dd, worst, start, mn = drawdown(make_returns())
    print(worst, start, repr(mn), repr(w[-1]))
    rs = rolling_sharpe(make_returns(), 20)
    print(np.isnan(rs).sum(), repr(np.nanmean(rs)))
    print(*half_even())
