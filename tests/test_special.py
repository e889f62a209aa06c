"""arraycore.special, driven by the op table: every entry (arraycore/_core/ops/special_*.py)
gets these tests by being registered.

- values against SciPy on random points of its domain (TestInfo.domains), float32 and float64;
- layouts: transposed, strided, reversed, broadcast (stride 0), 0-d, empty and size-1 inputs
  give bit-for-bit the contiguous result;
- Python scalars, NumPy scalars and integer arrays, with NumPy 2's promotion;
- IEEE special values (NaN, +-inf, +-0 and the usual poles) against SciPy, including the sign
  of zeros and infinities;
- errors: complex input, wrong number of arguments.
The names (SciPy's 91, the extras, PyTorch's) and SciPy's dispatch to arraycore.special are
checked at the end.  Accuracy in ulps against mpmath: tests/test_special_accuracy.py.
"""

from __future__ import annotations

import importlib
import itertools
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

import arraycore as ac
from arraycore._core.ops.special import special_ops

OPS = special_ops()
IDS = [op.name for op in OPS]
DTYPES = ("float32", "float64")


def scipy_ref(op):
    mod, attr = op.test.ref.rsplit(".", 1)
    return getattr(importlib.import_module(mod), attr)


def domain(op, i):
    t = op.test
    return t.domains[i] if t.domains else t.domain


def draw(op, i, shape, rng, dtype):
    """Random values of operand i inside its domain."""
    if i in op.test.int_args:
        lo, hi = domain(op, i)
        lo = 0 if lo is None else math.ceil(lo)
        hi = 12 if hi is None else math.floor(hi)
        return rng.integers(lo, hi + 1, shape).astype(dtype)
    lo, hi = domain(op, i)
    if lo is not None and hi is not None:
        v = rng.uniform(lo, hi, shape)
    elif lo is not None:
        v = lo + 10.0 ** rng.uniform(-3, 1.5, shape)
    elif hi is not None:
        v = hi - 10.0 ** rng.uniform(-3, 1.5, shape)
    else:
        v = rng.choice([-1.0, 1.0], shape) * 10.0 ** rng.uniform(-3, 1.2, shape)
    return v.astype(dtype)


def call_ref(op, args, dtype):
    """SciPy on NumPy arrays of `dtype` (its own float32 loops where it has them, as the
    values test compares float32 results with float32 references)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(scipy_ref(op)(*[np.asarray(a, dtype=dtype) for a in args]))


def ac_call(op, args):
    return np.asarray(getattr(ac.special, op.name)(*[ac.asarray(a) for a in args]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_values_match_scipy(op, dtype):
    rng = np.random.default_rng(sum(map(ord, op.name)))
    args = [draw(op, i, (64,), rng, dtype) for i in range(op.arity)]
    got = ac_call(op, args)
    assert got.dtype == np.dtype(dtype)
    # float32 against SciPy in float64 on the same (float32) points, rounded: SciPy's own
    # float32 loops are often computed in double too.
    want = call_ref(op, [a.astype(np.float64) for a in args], np.float64)
    rtol = op.test.rtol if dtype == "float32" else op.test.rtol64
    np.testing.assert_allclose(got, want.astype(dtype), rtol=rtol, atol=op.test.atol,
                               equal_nan=True, err_msg=f"{op.name} {dtype}")


def _layouts(a):
    """(name, view with a's values) for non-contiguous views of a 2-D array a."""
    yield "transposed", ac.matrix_transpose(ac.asarray(np.ascontiguousarray(a.T)))
    wide = np.repeat(a, 2, axis=-1)
    yield "strided", ac.asarray(wide)[:, ::2]
    yield "reversed", ac.flip(ac.asarray(a[:, ::-1].copy()), axis=-1)


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_layouts_give_the_contiguous_result(op):
    rng = np.random.default_rng(1)
    dtype = "float64"
    args = [draw(op, i, (3, 5), rng, dtype) for i in range(op.arity)]
    fn = getattr(ac.special, op.name)
    want = np.asarray(fn(*[ac.asarray(a) for a in args]))
    for k in range(op.arity):
        for name, view in _layouts(args[k]):
            call = [ac.asarray(a) for a in args]
            call[k] = view
            np.testing.assert_array_equal(np.asarray(fn(*call)), want, err_msg=name)
    # broadcasting: the first operand's first row against every row (stride 0), as a
    # broadcast view and (for several operands) by broadcasting in the call
    row = ac.asarray(args[0][:1])
    full = [np.broadcast_to(args[0][:1], args[0].shape)] + args[1:]
    want_b = np.asarray(fn(*[ac.asarray(np.ascontiguousarray(a)) for a in full]))
    rest = [ac.asarray(a) for a in args[1:]]
    np.testing.assert_array_equal(
        np.asarray(fn(ac.broadcast_to(row, args[0].shape), *rest)), want_b)
    if op.arity > 1:
        np.testing.assert_array_equal(np.asarray(fn(row, *rest)), want_b)
    # 0-d, empty, size 1
    zero_d = fn(*[ac.asarray(a[0, 0]) for a in args])
    assert zero_d.shape == ()
    assert float(zero_d) == want[0, 0] or (math.isnan(float(zero_d)) and np.isnan(want[0, 0]))
    assert fn(*[ac.asarray(a[:0]) for a in args]).shape == (0, 5)
    assert fn(*[ac.asarray(a[:1, :1]) for a in args]).shape == (1, 1)


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_scalars_and_integer_promotion(op):
    rng = np.random.default_rng(2)
    fn = getattr(ac.special, op.name)
    args = [draw(op, i, (4,), rng, "float32") for i in range(op.arity)]
    base = np.asarray(fn(*[ac.asarray(a) for a in args]))
    # A Python scalar (weak) keeps float32; a NumPy float64 scalar promotes to float64.
    for k in range(op.arity):
        call = [ac.asarray(a) for a in args]
        call[k] = float(args[k][0])
        want = np.asarray(fn(*[ac.asarray(np.broadcast_to(a[:1], (4,)).copy()) if i == k
                               else ac.asarray(a) for i, a in enumerate(args)]))
        if op.arity > 1:
            out = fn(*call)
            assert out.dtype == ac.float32, f"{op.name}: Python scalar operand {k}"
            np.testing.assert_array_equal(np.asarray(out), want)
        npcall = list(call)
        npcall[k] = np.float64(args[k][0])
        out = fn(*npcall)
        assert out.dtype == ac.float64, f"{op.name}: NumPy float64 scalar operand {k}"
    # Integer arrays are computed in float64 (as SciPy's ufuncs do).
    ints = [np.clip(np.round(a), *(b if b is not None else s for b, s in
                                   zip(domain(op, i), (-5, 5)))).astype(np.int64)
            for i, a in enumerate(args)]
    out = fn(*[ac.asarray(a) for a in ints])
    assert out.dtype == ac.float64
    np.testing.assert_array_equal(np.asarray(out),
                                  np.asarray(fn(*[ac.asarray(a.astype(np.float64))
                                                  for a in ints])))
    assert base.dtype == np.float32


SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0, 1e-30, 1e30]


def _reference_exclusions():
    """Points where the SciPy reference itself hangs or is wrong, declared by the families
    in tests/special_exclusions_<family>.py as EXCLUDE = {name: (predicate, reason)}, with
    predicate(*operands) -> bool mask.  arraycore is still evaluated there (it must return,
    and return NaN or a value); only the comparison is skipped."""
    out = {}
    for fam in ("erf_gamma", "elementary", "bessel", "incomplete", "integrals_polynomials"):
        try:
            mod = importlib.import_module(f"special_exclusions_{fam}")
        except ModuleNotFoundError as e:
            if e.name != f"special_exclusions_{fam}":
                raise
            continue
        out.update(mod.EXCLUDE)
    return out


EXCLUDE = _reference_exclusions()


def _near_integer_below(v, m):
    """v within 1e-3 of an integer n (or of -n-1) with n < |m|: lpmv's Gamma-ratio form for
    negative orders is at or near a pole there (special_integrals_polynomials_hyp.cpp)."""
    with np.errstate(invalid="ignore"):
        k = np.round(v)
        n = np.where(k >= 0, k, -k - 1)
        return (np.abs(v - k) < 1e-3) & (n < np.abs(m))


# Special values where arraycore departs from SciPy on purpose, because SciPy's value there is
# wrong, NaN where the value exists, or incoherent; {name: (predicate(*operands) -> mask,
# reason)}.  arraycore's own values at these points are checked against mpmath and the
# limits in tests/test_special_integrals_polynomials.py (test_hyp1f1_*, test_lpmv_*).
SPECIAL_VALUE_DEPARTURES = {
    "hyp1f1": (lambda a, b, x: ~np.isfinite(a) | ~np.isfinite(b) | ~np.isfinite(x)
               | (np.abs(a) >= 1e30) | (np.abs(x) >= 1e30),
               "infinite arguments: arraycore returns the limits (1F1(-1; 1; inf) = -inf, "
               "1F1(0.5; 3; -inf) = +0, NaN where the limit depends on the path), SciPy "
               "(Boost) NaN, the wrong sign or a value that depends on x (1F1(inf; inf; x) = "
               "e^x at x = -2 but 1 at -0.25); |a| or x = 1e30: SciPy NaN where the value "
               "overflows (1F1(1; 1; 1e30) = e^1e30)"),
    "lpmv": (lambda m, v, x: ~np.isfinite(m) | ~np.isfinite(v)
             | ((np.abs(x) > 1) & ((v != np.floor(v)) | ~np.isfinite(x) | (np.abs(v) >= 1e7)))
             | ((x == -1) & (m != 0))
             | ((m < 0) & _near_integer_below(v, m))
             | ((m < 0) & (x == 1) & (np.abs(v) >= 1e7))
             | ((np.abs(x) > 0) & (np.abs(x) <= 1e-20)),
             "infinite order or degree: NaN (no limit), SciPy +-inf; |x| > 1 with a "
             "non-integer degree: NaN, SciPy a value off in the third digit (lpmv(0, 0.5, 3) "
             "= 1.5958 against 1.5974); x = -1 with m != 0: NaN where P diverges with "
             "either sign, inf for P_n^-m with n < m, SciPy +inf or NaN; negative orders "
             "with degrees at or near an integer below the order: SciPy NaN or 1e270 where "
             "P_1e-30^-1(0) = 1; tiny x: SciPy -0.0 where P_1(1e-30) = 1e-30"),
}
# Functions whose exact zeros SciPy returns with arbitrary signs (lpmv(0, 1, 0) = -0.0 where
# P_1(x) = x; 1F1(-1; -2; -2) = -0.0 for 1 + x/2): the sign of a zero result is not compared.
UNSIGNED_ZEROS = {"hyp1f1", "lpmv"}


def _special_value_params():
    return [pytest.param(op, dtype, id=f"{op.name}-{dtype}") for op in OPS for dtype in DTYPES]


@pytest.mark.parametrize("op,dtype", _special_value_params())
def test_special_values_match_scipy(op, dtype):
    """Every combination of the special values: NaN positions, infinities (with sign) and
    the sign of zeros as SciPy (in float64, rounded to the dtype); finite values to the
    values test's tolerance."""
    grid = [np.array(p, dtype=dtype) for p in
            zip(*itertools.product(SPECIALS, repeat=op.arity))]
    got = ac_call(op, grid)
    for skip in (EXCLUDE, SPECIAL_VALUE_DEPARTURES):
        if op.name in skip:
            keep = ~np.asarray(skip[op.name][0](*grid), dtype=bool)
            grid = [g[keep] for g in grid]
            got = got[keep]
    # The reference is SciPy in float64 rounded to the dtype: SciPy's own float32 loops of
    # several functions compute in float and are off by more than arraycore's bound
    # (scipy.special.fdtr(1, 0.5, 1) in float32 is 0.397755 where the true value is
    # 0.3977568), and underflow to 0 or NaN earlier.
    with np.errstate(all="ignore"):
        want = call_ref(op, [g.astype(np.float64) for g in grid], np.float64).astype(dtype)
    where = [", ".join(f"{g[k]!r}" for g in grid) for k in range(len(grid[0]))]
    bad = [f"({w}): got {g!r}, scipy {r!r}" for w, g, r in zip(where, got, want)
           if not _same_special(g, r, op, dtype)]
    assert not bad, f"{op.name} {dtype}: {len(bad)} mismatches:\n" + "\n".join(bad[:20])


def _same_special(g, r, op, dtype):
    if np.isnan(r) or np.isnan(g):
        return bool(np.isnan(r) and np.isnan(g))
    if np.isinf(r) or np.isinf(g) or r == 0 or g == 0:
        signs = op.name in UNSIGNED_ZEROS and g == 0 or np.signbit(g) == np.signbit(r)
        return g == r and signs
    rtol = op.test.rtol if dtype == "float32" else op.test.rtol64
    return abs(g - r) <= rtol * abs(r) + op.test.atol


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_bad_input_raises_clearly(op):
    fn = getattr(ac.special, op.name)
    args = [ac.asarray([0.5, 0.25])] * op.arity
    if not (op.arity > 1 and op.extra.get("last_optional")):  # zeta(x) is Riemann's
        with pytest.raises(TypeError, match=op.name):
            fn(*args[:-1] if op.arity > 1 else [])
    with pytest.raises(TypeError, match=op.name):
        fn(*([ac.asarray([0.5 + 1j])] + args[1:]))
    with pytest.raises(TypeError, match=op.name):
        fn(*(["x"] + args[1:]))
    if op.arity > 1:
        with pytest.raises(ValueError):
            fn(*([ac.asarray([0.5, 0.25, 0.125])] + args[1:]))


# --- names -------------------------------------------------------------------------------------

SCIPY_NAMES = """bdtr bdtrc bdtri betainc betaincc betaincinv betaln binom boxcox boxcox1p cbrt
chdtr chdtrc chdtri cosdg cosm1 cotdg ellipk ellipkm1 entr erf erfc erfcx erfinv exp1 exp10
exp2 exprel expi expit expn fdtr fdtrc fdtri gamma gammainc gammaincc gammainccinv
gammaincinv gammaln gammasgn gdtr gdtrc huber hyp1f1 inv_boxcox inv_boxcox1p i0 i0e i1 i1e
j0 j1 k0 k0e k1 k1e kl_div log_ndtr loggamma logit lpmv multigammaln nbdtr nbdtrc nbdtri ndtr
ndtri pdtr pdtrc pdtri poch pseudo_huber polygamma psi radian rel_entr rgamma sinc sindg
spence stdtr stdtrit tandg xlog1py xlogy y0 y1 yn zeta zetac""".split()
EXTRA_NAMES = "logsumexp softmax log_softmax erfcinv log_expit ndtri_exp".split()
TORCH_NAMES = """airy_ai bessel_j0 bessel_j1 bessel_y0 bessel_y1 modified_bessel_i0
modified_bessel_i1 modified_bessel_k0 modified_bessel_k1 scaled_modified_bessel_k0
scaled_modified_bessel_k1 spherical_bessel_j0 digamma gammaln i0 i0e i1 i1e
chebyshev_polynomial_t chebyshev_polynomial_u chebyshev_polynomial_v chebyshev_polynomial_w
shifted_chebyshev_polynomial_t shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v
shifted_chebyshev_polynomial_w hermite_polynomial_h hermite_polynomial_he
laguerre_polynomial_l legendre_polynomial_p log_ndtr ndtr ndtri entr erfcx xlog1py xlogy zeta
multigammaln sinc logit expit round""".split()


@pytest.mark.parametrize("name", SCIPY_NAMES + EXTRA_NAMES + TORCH_NAMES)
def test_name_is_public_and_documented(name):
    assert name in ac.special.__all__, f"ac.special.{name} is missing"
    assert getattr(ac.special, name).__doc__


def test_scipy_has_these_91_names():
    assert len(SCIPY_NAMES) == 91
    from scipy.special import _support_alternative_backends as sab
    assert sorted(SCIPY_NAMES) == sorted(f.name for f in sab._special_funcs)


_DISPATCH = r"""
import os, json
os.environ["SCIPY_ARRAY_API"] = "1"
import numpy as np, scipy.special as sp
from scipy.special import _support_alternative_backends as sab
import arraycore as ac
out = {}
for info in sab._special_funcs:
    f = info._wrapper_for(ac)
    out[info.name] = f is getattr(ac.special, info.name, None)
x = ac.asarray([0.25, 0.5])
r = sp.erf(x)
out["__call_returns_arraycore__"] = type(r) is ac.Array
print(json.dumps(out))
"""


def test_scipy_dispatches_to_arraycore_special():
    """With SCIPY_ARRAY_API=1, SciPy resolves each of its 91 array-API special functions
    to arraycore.special.<name> for arraycore arrays (its resolution, not just the values)."""
    import json

    from conftest import child_process_options
    r = subprocess.run([sys.executable, "-c", _DISPATCH], capture_output=True, text=True,
                       timeout=300, **child_process_options())
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res.pop("__call_returns_arraycore__")
    missing = sorted(k for k, v in res.items() if not v)
    assert not missing, f"SciPy does not resolve to arraycore.special for: {missing}"
