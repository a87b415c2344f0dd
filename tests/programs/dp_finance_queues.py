"""Third-party-style probes: dynamic programming with traceback, textbook algorithms on
arrays, finance and Monte Carlo on pre-generated draws, sequence kernels, queueing and inventory
simulations, written as course notebooks, Rosetta Code and answers on Q&A sites write them
(tests/third_party/test_dp_finance_queues.py runs each against NumPy)."""
import numpy as np


# --- dynamic programming --------------------------------------------------------------------

def levenshtein_two_rows(s, t):
    """Levenshtein distance keeping only two rows (a classic memory optimisation)."""
    if len(s) < len(t):
        return levenshtein_two_rows(t, s)
    if len(t) == 0:
        return len(s)
    previous = np.arange(len(t) + 1)
    for i in range(len(s)):
        current = np.zeros(len(t) + 1, dtype=previous.dtype)
        current[0] = i + 1
        for j in range(len(t)):
            insertions = previous[j + 1] + 1
            deletions = current[j] + 1
            substitutions = previous[j] + (s[i] != t[j])
            current[j + 1] = min(insertions, deletions, substitutions)
        previous = current
    return previous[-1]


def damerau_levenshtein(a, b):
    n, m = len(a), len(b)
    d = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(n + 1):
        d[i, 0] = i
    for j in range(m + 1):
        d[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i, j] = min(d[i, j], d[i - 2, j - 2] + cost)
    return int(d[n, m])


def lcs_traceback(x, y):
    """The longest common subsequence itself, as a list of symbols."""
    n, m = len(x), len(y)
    c = np.zeros((n + 1, m + 1), dtype=int)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if x[i - 1] == y[j - 1]:
                c[i, j] = c[i - 1, j - 1] + 1
            else:
                c[i, j] = max(c[i - 1, j], c[i, j - 1])
    out = []
    i, j = n, m
    while i > 0 and j > 0:
        if x[i - 1] == y[j - 1]:
            out.append(int(x[i - 1]))
            i -= 1
            j -= 1
        elif c[i - 1, j] > c[i, j - 1]:
            i -= 1
        else:
            j -= 1
    out.reverse()
    return c[n, m], out


def knapsack_table(weights, values, capacity):
    n = len(weights)
    K = np.zeros((n + 1, capacity + 1))
    for i, (w, v) in enumerate(zip(weights, values), start=1):
        K[i] = K[i - 1]
        for cap in range(w, capacity + 1):
            K[i, cap] = max(K[i, cap], K[i - 1, cap - w] + v)
    return K


def knapsack_01(weights, values, capacity):
    n = len(weights)
    K = knapsack_table(weights, values, capacity)
    chosen = []
    c = capacity
    for i in range(n, 0, -1):
        if K[i, c] != K[i - 1, c]:
            chosen.append(i - 1)
            c -= weights[i - 1]
    return K[n, capacity], sorted(chosen)


def knapsack_1d(weights, values, capacity):
    """The one-row version: iterate capacities downwards so each item is used once."""
    best = np.zeros(capacity + 1)
    for w, v in zip(weights, values):
        for c in range(capacity, w - 1, -1):
            if best[c - w] + v > best[c]:
                best[c] = best[c - w] + v
    return best


def needleman_wunsch(a, b, match=1, mismatch=-1, gap=-2):
    n, m = len(a), len(b)
    F = np.zeros((n + 1, m + 1))
    F[:, 0] = gap * np.arange(n + 1)
    F[0, :] = gap * np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = match if a[i - 1] == b[j - 1] else mismatch
            F[i, j] = max(F[i - 1, j - 1] + s, F[i - 1, j] + gap, F[i, j - 1] + gap)
    # traceback: aligned sequences with -1 for a gap
    al_a, al_b = [], []
    i, j = n, m
    while i > 0 or j > 0:
        s = match if (i > 0 and j > 0 and a[i - 1] == b[j - 1]) else mismatch
        if i > 0 and j > 0 and F[i, j] == F[i - 1, j - 1] + s:
            al_a.append(a[i - 1])
            al_b.append(b[j - 1])
            i -= 1
            j -= 1
        elif i > 0 and F[i, j] == F[i - 1, j] + gap:
            al_a.append(a[i - 1])
            al_b.append(-1)
            i -= 1
        else:
            al_a.append(-1)
            al_b.append(b[j - 1])
            j -= 1
    return F[n, m], np.array(al_a[::-1]), np.array(al_b[::-1])


def lis_quadratic(seq):
    """Longest strictly increasing subsequence, O(n^2) with predecessor links."""
    n = len(seq)
    length = np.ones(n, dtype=np.int64)
    prev = -np.ones(n, dtype=np.int64)
    for i in range(n):
        for j in range(i):
            if seq[j] < seq[i] and length[j] + 1 > length[i]:
                length[i] = length[j] + 1
                prev[i] = j
    k = int(np.argmax(length))
    out = []
    while k != -1:
        out.append(seq[k])
        k = prev[k]
    return length.max(), np.array(out[::-1])


def lis_patience(seq):
    """O(n log n): tails[k] is the smallest tail of an increasing subsequence of length k+1."""
    tails = np.zeros(len(seq))
    size = 0
    for x in seq:
        lo, hi = 0, size
        while lo < hi:
            mid = (lo + hi) // 2
            if tails[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        tails[lo] = x
        if lo == size:
            size += 1
    return size, tails[:size]


def coin_change_min(coins, amount):
    INF = amount + 1
    dp = np.full(amount + 1, INF, dtype=np.int64)
    dp[0] = 0
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a and dp[a - c] + 1 < dp[a]:
                dp[a] = dp[a - c] + 1
    return -1 if dp[amount] > amount else int(dp[amount])


def coin_change_ways(coins, amount):
    ways = np.zeros(amount + 1, dtype=np.int64)
    ways[0] = 1
    for c in coins:
        ways[c:] += 0  # no-op slice update some people leave in
        for a in range(c, amount + 1):
            ways[a] += ways[a - c]
    return ways[amount]


def matrix_chain_order(p):
    n = len(p) - 1
    m = np.zeros((n, n))
    s = np.zeros((n, n), dtype=int)
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            m[i, j] = np.inf
            for k in range(i, j):
                q = m[i, k] + m[k + 1, j] + p[i] * p[k + 1] * p[j + 1]
                if q < m[i, j]:
                    m[i, j] = q
                    s[i, j] = k
    return m[0, n - 1], s


def parenthesize(s, i, j):
    if i == j:
        return "A" + str(i + 1)
    k = s[i, j]
    return "(" + parenthesize(s, i, k) + parenthesize(s, k + 1, j) + ")"


def matrix_chain_string(p):
    cost, s = matrix_chain_order(p)
    return cost, parenthesize(s, 0, len(p) - 2)


def viterbi_loops(obs, start_p, trans_p, emit_p):
    """Viterbi in probability space with explicit loops over states (the Wikipedia version)."""
    n_states = len(start_p)
    T = len(obs)
    V = np.zeros((T, n_states))
    back = np.zeros((T, n_states), dtype=int)
    for s in range(n_states):
        V[0, s] = start_p[s] * emit_p[s, obs[0]]
    for t in range(1, T):
        for s in range(n_states):
            best_prob = -1.0
            best_prev = 0
            for r in range(n_states):
                prob = V[t - 1, r] * trans_p[r, s]
                if prob > best_prob:
                    best_prob = prob
                    best_prev = r
            V[t, s] = best_prob * emit_p[s, obs[t]]
            back[t, s] = best_prev
    last = int(np.argmax(V[T - 1]))
    path = [last]
    for t in range(T - 1, 0, -1):
        last = back[t, last]
        path.insert(0, int(last))
    return path, V[T - 1].max()


def forward_algorithm(obs, pi, A, B):
    """HMM likelihood with per-step scaling."""
    T = len(obs)
    alpha = pi * B[:, obs[0]]
    c = alpha.sum()
    alpha = alpha / c
    loglik = np.log(c)
    for t in range(1, T):
        alpha = (alpha @ A) * B[:, obs[t]]
        c = alpha.sum()
        alpha /= c
        loglik += np.log(c)
    return loglik, alpha


def dtw_window(s, t, w):
    n, m = len(s), len(t)
    w = max(w, abs(n - m))
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0
    for i in range(1, n + 1):
        for j in range(max(1, i - w), min(m, i + w) + 1):
            cost = (s[i - 1] - t[j - 1]) ** 2
            D[i, j] = cost + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return np.sqrt(D[n, m])


def rod_cutting(prices, n):
    r = np.zeros(n + 1)
    cut = np.zeros(n + 1, dtype=np.int64)
    for j in range(1, n + 1):
        q = -np.inf
        for i in range(1, j + 1):
            if q < prices[i - 1] + r[j - i]:
                q = prices[i - 1] + r[j - i]
                cut[j] = i
        r[j] = q
    pieces = []
    while n > 0:
        pieces.append(int(cut[n]))
        n -= cut[n]
    return r, pieces


# --- classic algorithms on arrays ---------------------------------------------------------

def bubble_sort(arr):
    a = arr.copy()
    n = len(a)
    for i in range(n):
        swapped = False
        for j in range(0, n - i - 1):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
                swapped = True
        if not swapped:
            break
    return a


def shell_sort(a):
    """Shell sort with the gap halved (Knuth's textbook form), in place."""
    n = len(a)
    gap = n // 2
    while gap > 0:
        for i in range(gap, n):
            temp = a[i]
            j = i
            while j >= gap and a[j - gap] > temp:
                a[j] = a[j - gap]
                j -= gap
            a[j] = temp
        gap //= 2


def selection_sort_with_swaps(a):
    n = len(a)
    swaps = 0
    for i in range(n - 1):
        m = i
        for j in range(i + 1, n):
            if a[j] < a[m]:
                m = j
        if m != i:
            tmp = a[i]
            a[i] = a[m]
            a[m] = tmp
            swaps += 1
    return swaps


def binary_search(arr, target):
    lo, hi = 0, len(arr) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if arr[mid] == target:
            return mid
        elif arr[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def search_many(arr, targets):
    return [binary_search(arr, t) for t in targets]


def integral_image_queries(img, boxes):
    S = np.zeros((img.shape[0] + 1, img.shape[1] + 1))
    S[1:, 1:] = img.cumsum(axis=0).cumsum(axis=1)
    out = np.empty(len(boxes))
    for k, (r0, c0, r1, c1) in enumerate(boxes):
        out[k] = S[r1, c1] - S[r0, c1] - S[r1, c0] + S[r0, c0]
    return out


def sieve_count(n):
    flags = np.ones(n + 1, dtype=np.int8)
    flags[0] = flags[1] = 0
    p = 2
    while p * p <= n:
        if flags[p]:
            for k in range(p * p, n + 1, p):
                flags[k] = 0
        p += 1
    return int(flags.sum())


def kadane(a):
    best = a[0]
    cur = a[0]
    start = best_start = best_end = 0
    for i in range(1, len(a)):
        if cur < 0:
            cur = a[i]
            start = i
        else:
            cur += a[i]
        if cur > best:
            best = cur
            best_start, best_end = start, i
    return best, best_start, best_end


def two_sum_sorted(a, target):
    i, j = 0, len(a) - 1
    while i < j:
        s = a[i] + a[j]
        if s == target:
            return i, j
        if s < target:
            i += 1
        else:
            j -= 1
    return None


def count_pairs_below(a, limit):
    a = np.sort(a)
    i, j = 0, len(a) - 1
    count = 0
    while i < j:
        if a[i] + a[j] < limit:
            count += j - i
            i += 1
        else:
            j -= 1
    return count


def histogram_loop(data, nbins, lo, hi):
    counts = np.zeros(nbins, dtype=int)
    width = (hi - lo) / nbins
    for x in data:
        if x < lo or x > hi:
            continue
        k = int((x - lo) / width)
        if k == nbins:
            k -= 1
        counts[k] += 1
    return counts


def run_length_encode(a):
    values = []
    lengths = []
    i = 0
    n = len(a)
    while i < n:
        j = i
        while j + 1 < n and a[j + 1] == a[i]:
            j += 1
        values.append(a[i])
        lengths.append(j - i + 1)
        i = j + 1
    return values, lengths


def run_length_decode(values, lengths):
    out = np.zeros(int(np.sum(lengths)), dtype=np.asarray(values).dtype)
    pos = 0
    for v, L in zip(values, lengths):
        out[pos:pos + L] = v
        pos += L
    return out


def rotate_inplace(m):
    """Rotate a square matrix 90 degrees clockwise, layer by layer."""
    n = m.shape[0]
    for layer in range(n // 2):
        first, last = layer, n - 1 - layer
        for i in range(first, last):
            offset = i - first
            top = m[first, i]
            m[first, i] = m[last - offset, first]
            m[last - offset, first] = m[last, last - offset]
            m[last, last - offset] = m[i, last]
            m[i, last] = top
    return m


def transpose_then_flip(m):
    n = m.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            m[i, j], m[j, i] = m[j, i], m[i, j]
    for i in range(n):
        m[i] = m[i][::-1]


def pascal_triangle(n):
    T = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        T[i, 0] = 1
        for j in range(1, i + 1):
            T[i, j] = T[i - 1, j - 1] + T[i - 1, j]
    return T


def pascal_rows(n):
    rows = [np.array([1])]
    for _ in range(n - 1):
        prev = rows[-1]
        row = np.ones(len(prev) + 1, dtype=prev.dtype)
        row[1:-1] = prev[:-1] + prev[1:]
        rows.append(row)
    return rows


def life_roll(board, steps):
    for _ in range(steps):
        neighbours = sum(np.roll(np.roll(board, i, 0), j, 1)
                         for i in (-1, 0, 1) for j in (-1, 0, 1) if (i != 0 or j != 0))
        board = ((neighbours == 3) | (board & (neighbours == 2))).astype(board.dtype)
    return board


def life_padded(grid, steps):
    g = grid.copy()
    n, m = g.shape
    for _ in range(steps):
        p = np.zeros((n + 2, m + 2), dtype=g.dtype)
        p[1:-1, 1:-1] = g
        nb = (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:]
              + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:])
        birth = (nb == 3) & (g == 0)
        survive = ((nb == 2) | (nb == 3)) & (g == 1)
        g[...] = 0
        g[birth | survive] = 1
    return g


def flood_fill(img, r0, c0, new):
    """Four-neighbour flood fill with an explicit stack (the textbook paint bucket)."""
    old = img[r0, c0]
    if old == new:
        return 0
    rows, cols = img.shape
    stack = [(r0, c0)]
    filled = 0
    while stack:
        r, c = stack.pop()
        if r < 0 or r >= rows or c < 0 or c >= cols:
            continue
        if img[r, c] != old:
            continue
        img[r, c] = new
        filled += 1
        stack.append((r + 1, c))
        stack.append((r - 1, c))
        stack.append((r, c + 1))
        stack.append((r, c - 1))
    return filled


def spiral_order(m):
    out = []
    top, bottom, left, right = 0, m.shape[0] - 1, 0, m.shape[1] - 1
    while top <= bottom and left <= right:
        for j in range(left, right + 1):
            out.append(m[top, j])
        top += 1
        for i in range(top, bottom + 1):
            out.append(m[i, right])
        right -= 1
        if top <= bottom:
            for j in range(right, left - 1, -1):
                out.append(m[bottom, j])
            bottom -= 1
        if left <= right:
            for i in range(bottom, top - 1, -1):
                out.append(m[i, left])
            left += 1
    return np.array(out)


def merge_sorted(a, b):
    out = np.empty(len(a) + len(b), dtype=np.result_type(a, b))
    i = j = k = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out[k] = a[i]
            i += 1
        else:
            out[k] = b[j]
            j += 1
        k += 1
    while i < len(a):
        out[k] = a[i]
        i += 1
        k += 1
    while j < len(b):
        out[k] = b[j]
        j += 1
        k += 1
    return out


def counting_sort(a, k):
    count = np.zeros(k, dtype=np.int64)
    for x in a:
        count[x] += 1
    for i in range(1, k):
        count[i] += count[i - 1]
    out = np.empty_like(a)
    for x in a[::-1]:
        count[x] -= 1
        out[count[x]] = x
    return out


def quickselect(a, k):
    a = a.copy()
    lo, hi = 0, len(a) - 1
    while True:
        pivot = a[hi]
        store = lo
        for i in range(lo, hi):
            if a[i] < pivot:
                a[i], a[store] = a[store], a[i]
                store += 1
        a[store], a[hi] = a[hi], a[store]
        if store == k:
            return a[store]
        elif store < k:
            lo = store + 1
        else:
            hi = store - 1


# --- finance / Monte Carlo (draws passed in) ----------------------------------------------

def binomial_american_put(S0, K, T, r, sigma, N):
    dt = T / N
    u = np.exp(sigma * np.sqrt(dt))
    d = 1 / u
    p = (np.exp(r * dt) - d) / (u - d)
    disc = np.exp(-r * dt)
    S = S0 * d ** np.arange(N, -1, -1) * u ** np.arange(0, N + 1)
    V = np.maximum(K - S, 0)
    for i in range(N - 1, -1, -1):
        S = S0 * d ** np.arange(i, -1, -1) * u ** np.arange(0, i + 1)
        V[:i + 1] = disc * (p * V[1:i + 2] + (1 - p) * V[0:i + 1])
        V = V[:-1]
        V = np.maximum(V, K - S)
    return V[0]


def binomial_european_loops(S0, K, T, r, sigma, N):
    dt = T / N
    u = np.exp(sigma * np.sqrt(dt))
    d = 1.0 / u
    q = (np.exp(r * dt) - d) / (u - d)
    C = np.zeros(N + 1)
    for j in range(N + 1):
        C[j] = max(S0 * u ** j * d ** (N - j) - K, 0.0)
    for i in range(N - 1, -1, -1):
        for j in range(i + 1):
            C[j] = np.exp(-r * dt) * (q * C[j + 1] + (1 - q) * C[j])
    return C[0]


def gbm_paths(S0, mu, sigma, T, Z):
    n_paths, n_steps = Z.shape
    dt = T / n_steps
    S = np.zeros((n_paths, n_steps + 1))
    S[:, 0] = S0
    for t in range(1, n_steps + 1):
        S[:, t] = S[:, t - 1] * np.exp((mu - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * Z[:, t - 1])
    return S


def asian_call_mc(S0, K, r, sigma, T, Z):
    n_paths, n_steps = Z.shape
    dt = T / n_steps
    payoffs = np.empty(n_paths)
    for p in range(n_paths):
        s = S0
        total = 0.0
        for t in range(n_steps):
            s *= np.exp((r - 0.5 * sigma * sigma) * dt + sigma * np.sqrt(dt) * Z[p, t])
            total += s
        payoffs[p] = max(total / n_steps - K, 0.0)
    price = np.exp(-r * T) * payoffs.mean()
    stderr = np.exp(-r * T) * payoffs.std(ddof=1) / np.sqrt(n_paths)
    return price, stderr


def historical_var(returns, alpha=0.05):
    sorted_r = np.sort(returns)
    idx = int(np.floor(alpha * len(sorted_r)))
    var = -sorted_r[idx]
    cvar = -sorted_r[:idx + 1].mean()
    return var, cvar


def portfolio_var(returns, weights, alpha):
    port = returns @ weights
    losses = -port
    var = np.percentile(losses, 100 * (1 - alpha))
    tail = losses[losses >= var]
    return {"var": var, "es": tail.mean(), "worst": losses.max()}


def bootstrap_from_indices(x, idx):
    """Bootstrap means where the resample indices were drawn beforehand."""
    B = idx.shape[0]
    means = np.empty(B)
    for b in range(B):
        means[b] = x[idx[b]].mean()
    lo, hi = np.percentile(means, [2.5, 97.5])
    return means.mean(), lo, hi


def random_walk_first_passage(steps, level):
    pos = 0
    path = np.zeros(len(steps) + 1, dtype=np.int64)
    for t, s in enumerate(steps):
        pos += s
        path[t + 1] = pos
        if abs(pos) >= level:
            return t + 1, path[:t + 2]
    return -1, path


def max_drawdown(prices):
    peak = prices[0]
    mdd = 0.0
    for p in prices:
        if p > peak:
            peak = p
        dd = (peak - p) / peak
        if dd > mdd:
            mdd = dd
    return mdd


def sma_crossover_backtest(prices, short, long):
    n = len(prices)
    cash = 1000.0
    shares = 0.0
    trades = 0
    for t in range(long, n):
        s = prices[t - short:t].mean()
        l = prices[t - long:t].mean()
        if s > l and shares == 0:
            shares = cash / prices[t]
            cash = 0.0
            trades += 1
        elif s < l and shares > 0:
            cash = shares * prices[t]
            shares = 0.0
            trades += 1
    return cash + shares * prices[-1], trades


def ewma_volatility(returns, lam=0.94):
    var = np.empty_like(returns)
    var[0] = returns[:10].var()
    for t in range(1, len(returns)):
        var[t] = lam * var[t - 1] + (1 - lam) * returns[t - 1] ** 2
    return np.sqrt(var)


# --- bioinformatics / text ----------------------------------------------------------------

def kmer_counts(seq, k):
    """seq holds 0..3 for A,C,G,T; the k-mer's code is its base-4 number."""
    counts = np.zeros(4 ** k, dtype=np.int64)
    code = 0
    for i in range(len(seq)):
        code = (code * 4 + seq[i]) % (4 ** k)
        if i >= k - 1:
            counts[code] += 1
    return counts


def kmer_counts_rolling(seq, k):
    counts = {}
    for i in range(len(seq) - k + 1):
        code = 0
        for c in seq[i:i + k]:
            code = 4 * code + int(c)
        counts[code] = counts.get(code, 0) + 1
    return counts


def gc_windows(seq, window, step):
    gc = (seq == 1) | (seq == 2)
    out = []
    for start in range(0, len(seq) - window + 1, step):
        out.append(gc[start:start + window].mean())
    return np.array(out)


def gc_skew_cumulative(seq):
    skew = np.zeros(len(seq) + 1)
    for i, b in enumerate(seq):
        if b == 2:
            skew[i + 1] = skew[i] + 1
        elif b == 1:
            skew[i + 1] = skew[i] - 1
        else:
            skew[i + 1] = skew[i]
    return skew, int(np.argmin(skew))


def reverse_complement(seq):
    rc = np.empty_like(seq)
    n = len(seq)
    for i in range(n):
        rc[n - 1 - i] = 3 - seq[i]
    return rc


def motif_positions(seq, motif, max_mismatch):
    hits = []
    k = len(motif)
    for i in range(len(seq) - k + 1):
        mism = 0
        for j in range(k):
            if seq[i + j] != motif[j]:
                mism += 1
                if mism > max_mismatch:
                    break
        if mism <= max_mismatch:
            hits.append(i)
    return hits


def position_weight_matrix(seqs, pseudo=1.0):
    n, L = seqs.shape
    counts = np.full((4, L), pseudo)
    for s in seqs:
        for j in range(L):
            counts[s[j], j] += 1
    freqs = counts / counts.sum(axis=0)
    return np.log2(freqs / 0.25)


# --- queueing / inventory simulations -----------------------------------------------------

def mm1_lindley(interarrival, service):
    n = len(interarrival)
    wait = np.zeros(n)
    for i in range(1, n):
        wait[i] = max(0.0, wait[i - 1] + service[i - 1] - interarrival[i])
    return wait.mean(), wait.max(), np.mean(wait > 0)


def multi_server_queue(arrivals, service, c):
    free_at = np.zeros(c)
    starts = np.empty(len(arrivals))
    which = np.empty(len(arrivals), dtype=int)
    for i in range(len(arrivals)):
        k = np.argmin(free_at)
        start = max(arrivals[i], free_at[k])
        starts[i] = start
        which[i] = k
        free_at[k] = start + service[i]
    waits = starts - arrivals
    return waits, which, free_at.max()


def inventory_sS(demand, s, S, lead, hold, short, order_cost):
    inv = S
    pipeline = np.zeros(lead + 1)
    cost = 0.0
    lost = 0
    history = []
    for t in range(len(demand)):
        inv += pipeline[0]
        pipeline[:-1] = pipeline[1:]
        pipeline[-1] = 0
        d = demand[t]
        if d > inv:
            lost += d - inv
            cost += short * (d - inv)
            inv = 0
        else:
            inv -= d
        position = inv + pipeline.sum()
        if position <= s:
            pipeline[lead - 1] += S - position
            cost += order_cost
        cost += hold * inv
        history.append(inv)
    return cost, lost, np.array(history)


def sir_discrete(N, I0, beta, gamma, days, dt=0.1):
    S, I, R = N - I0, float(I0), 0.0
    steps = int(days / dt)
    out = np.zeros((steps + 1, 3))
    out[0] = S, I, R
    for k in range(steps):
        new_inf = beta * S * I / N * dt
        new_rec = gamma * I * dt
        S -= new_inf
        I += new_inf - new_rec
        R += new_rec
        out[k + 1] = (S, I, R)
    peak_day = np.argmax(out[:, 1]) * dt
    return out, peak_day


def bank_tellers(arrivals, service, n_tellers, max_wait):
    busy_until = [0.0] * n_tellers
    balked = 0
    served = 0
    total_wait = 0.0
    for a, s in zip(arrivals, service):
        k = int(np.argmin(busy_until))
        wait = max(0.0, busy_until[k] - a)
        if wait > max_wait:
            balked += 1
            continue
        busy_until[k] = a + wait + s
        served += 1
        total_wait += wait
    return served, balked, total_wait / max(served, 1)


# --- variants of the programs above that np2ref refused or crashed on -----------------------

def knapsack_items(weights, values, capacity):
    """knapsack_01 with the chosen items as a mask: `c` is a range loop's variable and then the
    capacity left, decremented (was NPR204: a view of a written array)."""
    n = len(weights)
    K = np.zeros((n + 1, capacity + 1))
    for i in range(1, n + 1):
        w = weights[i - 1]
        v = values[i - 1]
        for c in range(capacity + 1):
            if w <= c:
                K[i, c] = max(K[i - 1, c], K[i - 1, c - w] + v)
            else:
                K[i, c] = K[i - 1, c]
    chosen = np.zeros(n, dtype=bool)
    c = capacity
    for i in range(n, 0, -1):
        if K[i, c] != K[i - 1, c]:
            chosen[i - 1] = True
            c -= weights[i - 1]
    return K[n, capacity], chosen, c


def smith_waterman_end(a, b, match=3, mismatch=-3, gap=-2):
    """The traceback's start and length: `i, j = bi, bj` then `i -= 1` of Python ints (was
    NPR204 and NPR011: the literal 0 shared by bi and i made `i -= 1` look like an in-place write)."""
    n, m = len(a), len(b)
    H = np.zeros((n + 1, m + 1), dtype=np.int64)
    best, bi, bj = 0, 0, 0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            diag = H[i - 1, j - 1] + (match if a[i - 1] == b[j - 1] else mismatch)
            H[i, j] = max(0, diag, H[i - 1, j] + gap, H[i, j - 1] + gap)
            if H[i, j] > best:
                best, bi, bj = H[i, j], i, j
    i, j = bi, bj
    steps = 0
    while i > 0 and j > 0 and H[i, j] > 0:
        steps += 1
        diag = H[i - 1, j - 1] + (match if a[i - 1] == b[j - 1] else mismatch)
        if H[i, j] == diag:
            i, j = i - 1, j - 1
        elif H[i, j] == H[i - 1, j] + gap:
            i -= 1
        else:
            j -= 1
    return best, i, j, steps


def loops_named_alike(a, b, n):
    """`for j` loops, one inside a data-dependent `if` and one inside a data-dependent `while`:
    each reads its own j (the if and the while carried j, read before any loop bound it:
    UnboundLocalError, as spiral_order met)."""
    for j in range(n):
        a[j] += 1.0
    if a[0] > 0:
        for j in range(n):
            b[j] += a[j]
    k = 0
    while a[k] < 4 and k < n - 1:
        for j in range(n):
            b[j] *= 0.5
        k += 1
    return k


# --- NumPy's own semantics inside such programs ------------------------------------------


def coin_ways_vectorized(coins, amount):
    ways = np.zeros(amount + 1, dtype=np.int64)
    ways[0] = 1
    for c in coins:
        ways[c:] += ways[:-c]          # NumPy: buffered, as if the right side were copied
    return ways


def row_swap_tuple(a):
    """The classic row swap by tuple assignment: with views it copies one row into both."""
    for k in range(a.shape[0] - 1):
        p = np.argmax(np.abs(a[k:, k])) + k
        if p != k:
            a[k], a[p] = a[p], a[k]
    return a


def rotate_slice_assign(m):
    m[:] = m[::-1].T
    return m


def uint8_checksum(data):
    s = np.uint8(0)
    for b in data:
        s += b
    t = 0
    for b in data:
        t = (t + int(b)) % 256
    return s, t


def int32_dp_overflow(n):
    f = np.zeros(n, dtype=np.int32)
    f[0] = f[1] = 1
    for i in range(2, n):
        f[i] = f[i - 1] + f[i - 2]
    return f


def trunc_vs_floor(x, width):
    a = np.zeros(len(x), dtype=np.int64)
    b = np.zeros(len(x), dtype=np.int64)
    for i in range(len(x)):
        a[i] = int(x[i] / width)
        b[i] = int(np.floor(x[i] / width))
    return a, b


def running_total_types(a):
    total = 0
    for i in range(len(a)):
        total += a[i]
    half = total // 2
    avg = total / len(a)
    return total, half, avg


def pascal_mod(n, p):
    row = np.zeros(n + 1, dtype=np.int64)
    row[0] = 1
    for i in range(1, n + 1):
        row[1:i + 1] = (row[1:i + 1] + row[0:i]) % p
    return row


def edit_distance_rows(a, b):
    prev = np.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        cur = np.empty_like(prev)
        cur[0] = i
        sub = prev[:-1] + (a[i - 1] != b)
        cur[1:] = np.minimum(prev[1:] + 1, sub)
        for j in range(1, len(b) + 1):
            cur[j] = min(cur[j], cur[j - 1] + 1)
        prev = cur
    return prev[-1]


def circular_buffer(x, size):
    buf = np.zeros(size)
    idx = 0
    out = np.zeros(len(x))
    for t in range(len(x)):
        buf[idx] = x[t]
        idx = (idx - 1) % size
        out[t] = buf.mean()
    return out, idx


def loop_variable_names_an_array(x):
    for c in range(3):
        x[c] += c * 2
    c = np.zeros(3)
    c[1] = x[0]
    return c


def running_element(a):
    """`cur = a[0]` ... `cur += a[i]`: a scalar for a 1-D a (op= rebinds it), a view of row 0
    for a 2-D one (op= writes a): the second is refused (NPR205), not translated as a scalar."""
    cur = a[0]
    best = a[0]
    for i in range(1, len(a)):
        if cur < best:
            cur = a[i]
        else:
            cur += a[i]
    return cur, a


def first_negative_index(x):
    for i in range(len(x)):
        if x[i] < 0:
            return i
    return -1


def clamp_first_negative(a, floor):
    """Process until a condition, then stop: a bare `return` in the loop."""
    for i in range(len(a)):
        if a[i] < floor:
            a[i] = floor
            return
        a[i] *= 2.0
    a[0] = -1.0


def return_at_step(a, n, stop_at):
    """A return under a test of the loop index: the loop stays Python's, its test concrete."""
    for k in range(n):
        a[k % len(a)] += k
        if k == stop_at:
            return 1.5
    return 0


def number_then_row(a):
    """`t = 0.0; t += a[0]` makes t a new array (a 2-D a); `u = t` shares it, so `t -= 1.0`
    writes u too (a wrong answer after round 7 took the literal's site for a number only)."""
    t = 0.0
    u = 0.0
    t += a[0]
    u = t
    t -= 1.0
    return t, u


def chained_numbers_then_row(a):
    x = y = 0.0
    x += a[0]
    y = x
    x *= 2.0
    return x, y


def prev_total(a):
    total = 0.0
    d = np.zeros(len(a))
    for i in range(len(a)):
        prev = total
        total += a[i]
        d[i] = total - prev
    return total, d


def tuple_state_while(x):
    best = (0, 0)
    i = 0
    while x[i] > 0:
        best = (i, i + 1)
        i += 1
    return best
