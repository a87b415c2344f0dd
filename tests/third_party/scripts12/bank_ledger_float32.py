"""A small bank's month-end ledger in the shape of business simulation scripts: float32 balances
(as a spreadsheet export gives them) and int32 transaction counts, deposits and withdrawals drawn
per day with np.random.seed, withdrawals refused when they would overdraw (an int counter of
refusals per account, `refused[acct] += 1`), fees charged through a masked store
`bal[low] -= FEE`, daily interest compounding in float32 (`bal *= np.float32(1 + RATE / 365)`),
a teller queue's waiting times by the Lindley recursion in a Python loop, statements printed
every 10 days, the interest kept in a float64 total, the rate table a list handed in.
"""
import numpy as np

ACCOUNTS = 5
FEE = np.float32(2.5)
MIN_BAL = np.float32(100.0)
RATES = [0.01, 0.02, 0.015, 0.03, 0.0]
np.random.seed(11)
START = (np.random.rand(ACCOUNTS) * 500.0).astype(np.float32)
DAYS = 30
DRAWS = np.random.rand(DAYS, 8, 3)


def post(bal, counts, refused, acct, amount):
    if amount < 0 and bal[acct] + amount < 0:
        refused[acct] += 1
        return 0
    bal[acct] += amount
    counts[acct] += 1
    return 1


def month(bal, counts, refused, draws, rates):
    rates = np.asarray(rates, dtype=np.float32)
    interest_total = 0.0
    posted = 0
    for day in range(draws.shape[0]):
        for k in range(draws.shape[1]):
            acct = int(draws[day, k, 0] * ACCOUNTS)
            amount = np.float32(draws[day, k, 1] * 200.0 - 100.0)
            posted += post(bal, counts, refused, acct, amount)
        before = bal.copy()
        bal *= 1 + rates / np.float32(365.0)
        interest_total += float((bal - before).sum())
        low = bal < MIN_BAL
        bal[low] -= FEE
        if day % 10 == 9:
            print("day", day + 1, "total", np.float32(bal.sum()), "low", int(low.sum()))
    return posted, interest_total


def teller_waits(arrivals, services):
    waits = np.zeros(arrivals.shape[0])
    for i in range(1, arrivals.shape[0]):
        gap = arrivals[i] - arrivals[i - 1]
        waits[i] = max(0.0, waits[i - 1] + services[i - 1] - gap)
    return waits


CHECKS = {
    "month": lambda: (START.copy(), np.zeros(ACCOUNTS, dtype=np.int32), np.zeros(ACCOUNTS, dtype=np.int32),
                      DRAWS[:12].copy(), RATES[:]),
    "month#tuple": lambda: (START.copy(), np.zeros(ACCOUNTS, dtype=np.int32), np.zeros(ACCOUNTS, dtype=np.int32),
                            DRAWS[:5].copy(), tuple(RATES)),
    "post": lambda: (START.copy(), np.zeros(ACCOUNTS, dtype=np.int32), np.zeros(ACCOUNTS, dtype=np.int32), 2,
                     np.float32(-1000.0)),
    "post#ok": lambda: (START.copy(), np.zeros(ACCOUNTS, dtype=np.int32), np.zeros(ACCOUNTS, dtype=np.int32), 2,
                        np.float32(25.5)),
    "teller_waits": lambda: (np.cumsum(DRAWS[:, 0, 2] * 3.0), DRAWS[:, 1, 2] * 2.5),
}

if __name__ == "__main__":
    bal = START.copy()
    counts = np.zeros(ACCOUNTS, dtype=np.int32)
    refused = np.zeros(ACCOUNTS, dtype=np.int32)
    posted, interest = month(bal, counts, refused, DRAWS, RATES)
    print("posted", posted, "refused", refused.tolist(), "counts", counts.tolist())
    print("interest", repr(round(interest, 4)), bal.dtype)
    print(np.round(bal, 2))
    waits = teller_waits(np.cumsum(DRAWS[:, 0, 2] * 3.0), DRAWS[:, 1, 2] * 2.5)
    print("mean wait", repr(round(float(waits.mean()), 9)), "max", repr(round(float(waits.max()), 9)))
