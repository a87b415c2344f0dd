"""QR factorisation by modified Gram-Schmidt, in place, with
re-orthogonalisation, used for least-squares polynomial fitting.

Domain: numerical linear algebra as it appears in data fitting. The columns
of a Vandermonde-like design matrix are orthonormalised one by one: each
column is normalised in place and its component is removed from every later
column (modified GS, row of R filled as it goes); a second pass
("twice is enough") restores orthogonality lost to cancellation. The
least-squares coefficients then come from back substitution with R.
"""
import numpy as np

ENTRY = "lstsq_fit"


def mgs(Q, R):
    """Overwrite Q (m x n) with orthonormal columns; fill R (n x n)."""
    m, n = Q.shape
    R[...] = 0.0
    for k in range(n):
        R[k, k] = np.linalg.norm(Q[:, k])
        Q[:, k] /= R[k, k]
        for j in range(k + 1, n):
            R[k, j] = np.dot(Q[:, k], Q[:, j])
            Q[:, j] -= R[k, j] * Q[:, k]


def reorthogonalise(Q, R):
    """A second classical pass; folds the corrections into R."""
    m, n = Q.shape
    for k in range(n):
        for j in range(k):
            c = np.dot(Q[:, j], Q[:, k])
            Q[:, k] -= c * Q[:, j]
            R[j, k:] += c * R[k, k:]
        nrm = np.linalg.norm(Q[:, k])
        Q[:, k] /= nrm
        R[k, k:] *= nrm


def back_substitute(R, y, coef):
    n = R.shape[0]
    for i in range(n - 1, -1, -1):
        coef[i] = (y[i] - np.dot(R[i, i + 1:], coef[i + 1:])) / R[i, i]


def lstsq_fit(A, b, R, coef):
    """Least-squares fit A coef ~ b; A is overwritten by Q, R and coef are
    filled. Returns the residual norm and the orthogonality error of Q."""
    mgs(A, R)
    reorthogonalise(A, R)
    y = A.T @ b
    back_substitute(R, y, coef)
    n = A.shape[1]
    ortho = np.max(np.abs(A.T @ A - np.eye(n)))
    return np.linalg.norm(b - A @ y), ortho


def make_inputs(size="small"):
    rng = np.random.default_rng(3)
    m, n = (12, 4) if size == "small" else (4000, 40)
    t = np.linspace(-1.0, 1.0, m)
    A = np.vander(t, n, increasing=True)
    b = np.cos(3.0 * t) + 0.01 * rng.standard_normal(m)
    return dict(A=A, b=b, R=np.zeros((n, n)), coef=np.zeros(n))


if __name__ == "__main__":
    inputs = make_inputs("large")
    res, ortho = lstsq_fit(**inputs)
    print(f"residual    = {res:.6e}")
    print(f"orthogonal  = {ortho:.3e}")
    print(f"coef[:4]    = {inputs['coef'][:4]}")
