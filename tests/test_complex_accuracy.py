"""Complex accuracy of the main namespace's transcendental functions (issue 9, part 7):
per component, relative to |f|, against mpmath; at most max(stated ulp bound, NumPy's error
on the same points).  tests/complex_accuracy.py is the checker (and prints the table).
Default: 40 points per (region, dtype); --runslow: 2000."""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
import complex_accuracy as ca

SPECS = ca.specs()


@pytest.mark.parametrize("dtype", ca.DTYPES)
@pytest.mark.parametrize("spec", SPECS, ids=[f"{s.name}[{s.text}]" for s in SPECS])
def test_complex_error_within_bound(spec, dtype, request):
    n = 2000 if request.config.getoption("--runslow") else 40
    err, at, np_err = ca.measure(spec, dtype, n)
    limit = max(ca.bound(spec, dtype), np_err)
    assert err <= limit, (f"{spec.name} {dtype} [{spec.text}]: {err:.3g} ulp of |f| > "
                          f"{limit:.3g} (NumPy {np_err:.3g}) at {at}")


def test_log1p_complex64_near_minus_one_issue_value():
    """The issue's example: NumPy's complex64 has relative error 2.3e-4 there."""
    import mpmath
    z = np.complex64(-0.9983 + 0.00124j)
    got = complex(np.asarray(ac.log1p(ac.asarray(z))))
    with mpmath.workdps(40):
        want = complex(mpmath.log1p(mpmath.mpc(complex(z))))
    assert abs(got - want) / abs(want) < 2e-7


def _same(a, b):
    """Bitwise equal components, any NaN equal to any NaN."""
    for u, v in ((a.real, b.real), (a.imag, b.imag)):
        nan = np.isnan(u) & np.isnan(v)
        assert np.array_equal(np.isnan(u), np.isnan(v))
        assert np.array_equal(u[~nan], v[~nan])
        assert np.array_equal(np.signbit(u[~nan]), np.signbit(v[~nan]))


def test_complex64_log1p_expm1_pow_are_the_double_results_rounded():
    """complex64 log1p/expm1/pow evaluate in double: on every IEEE special value (and a few
    ordinary ones) the result is the complex128 result rounded once, so the special values
    are the complex128 path's (NumPy's, tests/test_elementwise.py)."""
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, np.inf, -np.inf, np.nan, 1e-30, 1e30]
    # the complex64 points themselves (1e30 is not a float32 number)
    z = np.array([complex(a, b) for a in vals for b in vals]).astype(np.complex64)
    z = z.astype(np.complex128)
    for fn in ("log1p", "expm1"):
        f = getattr(ac, fn)
        got = np.asarray(f(ac.asarray(z.astype(np.complex64))))
        with np.errstate(all="ignore"):
            want = np.asarray(f(ac.asarray(z))).astype(np.complex64)
        _same(got, want)
    w = np.array([2.0, 3.0, -1.0, 0.5 + 0.5j, -1.5, 0.0, 1j, 7.0])
    zz, ww = z[:, None], w[None, :]
    got = np.asarray(ac.pow(ac.asarray(zz.astype(np.complex64)),
                            ac.asarray(ww.astype(np.complex64))))
    with np.errstate(all="ignore"):
        want = np.asarray(ac.pow(ac.asarray(zz), ac.asarray(ww))).astype(np.complex64)
    _same(got, want)
