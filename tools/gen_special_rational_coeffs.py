"""Rational minimax fits for the float32 special-function kernels
(arraycore/native/src/kernels/special_erf_gamma_rational.h).

    python tools/gen_special_rational_coeffs.py            # prints the C++ tables

Each fit is f(x) ~ g(x) P(u) / Q(u) with u a simple function of x, P and Q polynomials
(Q(0) = 1), minimizing the maximum relative error on a Chebyshev-distributed grid.  The
method: linearized least squares (minimize |P - f Q| / |f Q_prev|, Loeb's iteration) with
Lawson's reweighting toward the minimax solution; references from mpmath at 40 digits.  The
kernels evaluate the fits in double and round once to float32, so only the fit's own error
matters: it is printed with each table and checked on a dense grid of float32 arguments.
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 40


def fit_rational(xs, f, u, p_deg, q_deg, iters=80):
    """Coefficients (lowest degree first) of P (p_deg) and Q (q_deg, Q(0) = 1) with
    f ~ P(u)/Q(u) on the points xs (f, u: arrays of the target and the variable)."""
    A = np.vander(u, p_deg + 1, increasing=True)
    B = np.vander(u, q_deg + 1, increasing=True)
    w = np.ones(len(xs))
    q_prev = np.ones(len(xs))
    best = None
    for _ in range(iters):
        scale = 1.0 / (f * q_prev)
        M = np.hstack([A, -(f[:, None] * B[:, 1:])]) * scale[:, None]
        rhs = f * scale
        sw = np.sqrt(w)
        sol = np.linalg.lstsq(M * sw[:, None], rhs * sw, rcond=None)[0]
        p = sol[:p_deg + 1]
        q = np.concatenate([[1.0], sol[p_deg + 1:]])
        Q = B @ q
        err = np.abs((A @ p) / Q / f - 1)
        if best is None or err.max() < best[0]:
            best = (err.max(), p.copy(), q.copy())
        q_prev = Q
        w = np.maximum(w * err / err.mean(), 1e-300)
    return best


def table(name, coeffs, comment):
    vals = ", ".join(float(v).hex() for v in reversed(coeffs))  # highest degree first
    return f"// {comment}\ninline constexpr double {name}[] = {{{vals}}};\n"


def erf_f32():
    """erf(x) = x P(u)/Q(u), u = x^2/16, |x| <= 3.92 (erf rounds to 1 in float32 beyond)."""
    X = 3.92
    M = 3000
    k = np.arange(M)
    xs = np.sort((X / 2) * (1 - np.cos(np.pi * (k + 0.5) / M)))
    f = np.array([float(mp.erf(mp.mpf(v)) / mp.mpf(v)) for v in xs])
    err, p, q = fit_rational(xs, f, xs * xs / 16, 7, 5)
    # Check: the fit in double, rounded to float32, against mpmath, on float32 arguments.
    x32 = np.concatenate([np.linspace(0, X, 20001), 2.0 ** np.arange(-40, 2, 0.05)])
    x32 = x32.astype(np.float32).astype(np.float64)
    u = x32 * x32 / 16
    r = (x32 * np.polyval(p[::-1], u) / np.polyval(q[::-1], u)).astype(np.float32)
    ref = np.array([float(mp.erf(mp.mpf(v))) for v in x32])
    ulp = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
    max_ulp = np.max(np.abs(r.astype(np.float64) - ref) / ulp)
    comment = (f"erf(x)/x = P(u)/Q(u), u = x^2/16, |x| <= {X}: max rel. error {err:.1e}; "
               f"rounded to float32: {max_ulp:.2f} ulp")
    return table("kErfRatP", p, "P of " + comment) + table("kErfRatQ", q, "Q of the same")


if __name__ == "__main__":
    print(erf_f32())
