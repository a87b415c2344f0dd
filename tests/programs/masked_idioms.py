"""Boolean-mask and data-dependent-shape idioms as third-party NumPy code writes them: class-
conditional statistics (LDA, k-means, naive Bayes), thresholding then reductions, the first or
last element of a selection, NaN handling by hand, outlier removal, masked selections sorted or
taken a percentile of (tests/masks/test_masked_idioms.py runs each against NumPy)."""
import numpy as np


# --- class-conditional statistics -----------------------------------------------------------

def class_means(X, y, k):
    """LDA / nearest-centroid: the mean of each class's rows."""
    means = np.zeros((k, X.shape[1]))
    for c in range(k):
        means[c] = X[y == c].mean(axis=0)
    return means


def class_sums_counts(X, y, k):
    sums = np.zeros((k, X.shape[1]))
    counts = np.zeros(k)
    for c in range(k):
        sums[c] = X[y == c].sum(axis=0)
        counts[c] = len(X[y == c])
    return sums, counts


def class_priors(y, k):
    """Naive Bayes priors: the fraction of samples in each class."""
    priors = np.zeros(k)
    for c in range(k):
        priors[c] = X_count(y, c) / y.shape[0]
    return priors


def X_count(y, c):
    return y[y == c].shape[0]


def gaussian_nb_fit(X, y, k):
    theta = np.zeros((k, X.shape[1]))
    var = np.zeros((k, X.shape[1]))
    for c in range(k):
        Xc = X[y == c]
        theta[c] = Xc.mean(axis=0)
        var[c] = Xc.var(axis=0)
    return theta, var


def class_std(X, y, k):
    out = np.zeros((k, X.shape[1]))
    for c in range(k):
        out[c] = X[y == c].std(axis=0)
    return out


def class_max(X, y, k):
    out = np.zeros((k, X.shape[1]))
    for c in range(k):
        out[c] = X[y == c].max(axis=0)
    return out


def kmeans_update(X, labels, centers):
    """k-means: each center moves to its cluster's mean (an empty cluster keeps its center)."""
    new = centers.copy()
    for j in range(centers.shape[0]):
        members = X[labels == j]
        if len(members) > 0:
            new[j] = members.mean(axis=0)
    return new


def kmeans_step(X, centers):
    d = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d, axis=1)
    for j in range(centers.shape[0]):
        centers[j] = X[labels == j].mean(axis=0)
    return labels


def class_mean_literal(X, y):
    return X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)


def np_mean_axis(X, y):
    return np.mean(X[y > 0], axis=0)


def within_class_scatter(X, y, k):
    d = X.shape[1]
    Sw = np.zeros((d, d))
    for c in range(k):
        Xc = X[y == c]
        mc = Xc.mean(axis=0)
        Sw += (Xc - mc).T @ (Xc - mc)
    return Sw


# --- first / last element of a selection ----------------------------------------------------

def first_positive_cdf(cdf):
    return cdf[cdf > 0][0]


def last_below(x, t):
    return x[x < t][-1]


def first_index_nonzero(m):
    return np.nonzero(m)[0][0]


def first_index_where(x, t):
    return np.where(x > t)[0][0]


def first_argwhere(x, t):
    return np.argwhere(x > t)[0]


def sample_from_cdf(p, u):
    """Inverse-CDF sampling: the first bin whose cumulative probability exceeds u."""
    cdf = np.cumsum(p)
    return np.where(cdf > u)[0][0]


def cumsum_masked_first(x, t):
    c = np.cumsum(x)
    return c[c > t][0]


# --- thresholding then reductions -----------------------------------------------------------

def positive_sum(a):
    return a[a > 0].sum()


def mean_of_mask(x, m):
    return np.mean(x[m])


def double_masked(x):
    x[x > 0.5] = x[x > 0.5] * 2
    return x


def count_nonzero_mask(x, t):
    return np.count_nonzero(x > t), (x > t).sum()


def mask_sum_ratio(x):
    m = x > 0
    return m.sum() / m.size


def bincount_minlength(y, k):
    return np.bincount(y, minlength=k)


def unique_counts(y):
    vals, counts = np.unique(y, return_counts=True)
    return vals, counts


def searchsorted_cdf(p, u):
    cdf = np.cumsum(p)
    return np.searchsorted(cdf, u)


def cumsum_mask_select_sum(x, t):
    return np.cumsum(x)[x > t].sum()


def nanmean_by_hand(x):
    return x[~np.isnan(x)].mean()


def finite_sum(x):
    return x[np.isfinite(x)].sum()


def replace_nan(x):
    x[np.isnan(x)] = 0.0
    return x


def clip_then_mask(x):
    y = np.clip(x, -1.0, 1.0)
    return y[np.abs(y) < 1.0].mean()


def zscore_outliers(x):
    z = (x - x.mean()) / x.std()
    return x[np.abs(z) < 2.0].mean()


def zscore_keep_count(x):
    z = (x - x.mean()) / x.std()
    keep = np.abs(z) < 2.0
    return x[keep].std(), keep.sum()


def masked_median(x, t):
    return np.median(x[x > t])


def masked_percentile(x, t):
    return np.percentile(x[x > t], 90)


def sorted_selection(x, t):
    return np.sort(x[x > t])


def masked_max_min(x, m):
    return x[m].max() - x[m].min()


def int_masked_sum(k):
    return k[k % 2 == 0].sum()


def masked_rows_sum(A, t):
    return A[A[:, 0] > t].sum(axis=0)


def masked_rows_count(A, t):
    return A[A[:, 0] > t].shape[0]


def masked_2d_mean(A):
    return A[A > 0].mean()


def float32_class_means(X, y):
    return X[y == 1].mean(axis=0)


def int_class_means(X, y):
    return X[y == 1].mean(axis=0)


def masked_any_all(x, t):
    return np.any(x[x > t] > 2 * t), np.all(x[x > t] > t)


def accuracy(pred, y):
    return (pred == y).mean(), np.sum(pred[y == 1] == 1) / np.sum(y == 1)


def threshold_energy(x, t):
    e = x ** 2
    return e[e > t].sum() / e.sum()


# --- more forms of the same idioms ----------------------------------------------------------

def class_means_positional_axis(X, y):
    return X[y == 1].mean(0), np.mean(X[y == 0], 0)


def np_sum_max_axis(X, y):
    return np.sum(X[y == 1], axis=0), np.max(X[y == 1], axis=0)


def mask_with_slice_mean(X, y):
    return X[y == 1, :].mean(axis=0)


def masked_columns_sum(X, t):
    return X[:, X[0] > t].sum(axis=1)


def masked_row_means_axis1(X, y):
    return X[y == 1].mean(axis=1)


def masked_argmax(x, t):
    return x[x > t].argmax()


def masked_cumsum(x, t):
    return x[x > t].cumsum()


def deviation_max(x, m):
    return np.abs(x[m] - x[m].mean()).max()


def count_in_selection(x, t):
    return (x[x > t] > 2 * t).sum(), np.count_nonzero(x[x > t] > 2 * t)


def weighted_masked_average(x, w):
    m = x > 0
    return np.average(x[m], weights=w[m])


def sum_squares_axis0(X, y):
    return np.sum(X[y == 1] ** 2, axis=0)


def astype_masked_sum(x, t):
    return x[x > t].astype(int).sum()


def fill_nan_with_mean(x):
    x[np.isnan(x)] = np.nanmean(x)
    return x


def zero_non_finite(x):
    x[~np.isfinite(x)] = 0
    return x


def count_where(x, t):
    return len(np.where(x > t)[0]), np.nonzero(x > t)[0].size


def empty_check_branch(x, t):
    sel = x[x > t]
    if sel.size == 0:
        return 0.0
    return sel.mean()


def bool_rows_sum(B, y):
    return B[y == 1].sum(axis=0)


def keepdims_masked_sum(X, y):
    return X[y == 1].sum(axis=0, keepdims=True)


def masked_slice_head(x, t):
    return x[x > t][:3]


def masked_median_axis0(X, y):
    return np.median(X[y == 1], axis=0)


def sqrt_masked_pow(x):
    x[x > 0] **= 0.5
    return x


def ifexp_masked_mean(x, t):
    m = x > t
    return np.mean(x[m]) if m.any() else 0.0


def len_selection_rows(X, y, k):
    counts = np.zeros(k, dtype=int)
    for c in range(k):
        counts[c] = X[y == c].shape[0]
    return counts


def masked_ptp(x, t):
    sel = x[x > t]
    return sel.max() - sel.min(), sel.shape[0]


def first_above_in_loop(x, ts):
    out = np.zeros(len(ts))
    for i in range(len(ts)):
        out[i] = x[x > ts[i]][0]
    return out


def items_of_selections(x, M, t):
    return (x[x > t][-2], x[x > t][1], M[M > t][2], x.reshape(3, 2)[x[:3] > t][1],
            np.nonzero(M > t)[1][1], np.argwhere(M > t)[1], np.flatnonzero(M > t)[-1], M[M[:, 0] > t][0])


def first_kept_after_store(x):
    """An element of a selection of an array the function writes (its read a reference form)."""
    x[x > 1] = 0.0
    return x[x > -1][0], x[x < 0.5][-1]


def kmeans_empty_checks(X, labels, centers):
    """Branches on the size of a selection: `len(X[m])`, `np.where(m)[0].size`, `X[m].shape[0]`."""
    new = centers.copy()
    for j in range(centers.shape[0]):
        if len(X[labels == j]) > 0:
            new[j] = X[labels == j].mean(axis=0)
        if np.where(labels == j)[0].size == 0:
            new[j] = -1.0
        if X[labels == j].shape[0] >= 2:
            new[j] *= 2.0
    return new


def first_crossing(x, t):
    """Peak finding as scripts write it: the indices above a threshold, then the first and last."""
    above = np.where(x > t)[0]
    if len(above) == 0:
        return -1, -1, 0
    return above[0], above[-1], above.size


def first_crossings_flat(A, t):
    idx = np.flatnonzero(A > t)
    return idx[0], len(idx), A.ravel()[idx].sum()


def one_axis_selection_along_axis0(x, A, t):
    """axis=0 of a 1-d selection (a 1-d x, or a mask over all of A's axes): the whole reduction."""
    return x[x > t].sum(axis=0), np.mean(x[x > t], 0), x[x > t].max(-1), x[x > t].std(0), A[A > t].sum(axis=0)


def class_stats_with_slices(X, y):
    """`X[y == c, :]`, as LDA notebooks write it: the rows, the full slice after the mask."""
    Xc = X[y == 1, :]
    return X[y == 1, :].mean(axis=0), np.sum(X[y == 0, :], axis=0), Xc.var(axis=0), Xc.shape[0], X[y == 1, :].size


def ifexp_on_selection_length(x, t):
    m = x > t
    return x[m].sum() if len(x[m]) > 0 else x[0]


def masked_arg_extremes(x, m):
    """The position of the best among the valid entries, in the selection."""
    return x[m].argmax(), np.argmin(x[m])
