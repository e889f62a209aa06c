"""Statistics (sum, prod, max, min, mean, std, var, cumulative_*) and utility (all, any, diff)
functions against NumPy: every accepted dtype, every layout the reduction driver walks
differently (0-d, empty, size-1, non-contiguous, transposed, negative strides, stride 0,
large enough to use every worker), axes/keepdims/dtype/correction/include_initial, special
values and errors."""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
from arraycore.native import _native

from conftest import DTYPE_NAMES, assert_matches_numpy

REAL_NAMES = [n for n in DTYPE_NAMES if n not in ("bool", "complex64", "complex128")]
NUMERIC_NAMES = [n for n in DTYPE_NAMES if n != "bool"]
FLOATING = ["float32", "float64", "complex64", "complex128"]


def rand(shape, dtype, rng, low=-50, high=50):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(low, info.min), min(high, info.max), size=shape,
                            endpoint=True).astype(dt)
    real = rng.uniform(low, high, size=shape)
    if dt.kind == "f":
        return real.astype(dt)
    return (real + 1j * rng.uniform(low, high, size=shape)).astype(dt)


def to_ac(a):
    return ac.asarray(np.array(a, order="C"), copy=True)


def mirror(base_np, view_np, base_ac):
    """The arraycore view of base_ac that view_np is of base_np (same strides and offset)."""
    isz = base_np.itemsize
    off = (view_np.__array_interface__["data"][0] - base_np.__array_interface__["data"][0])
    return base_ac._view(view_np.shape, tuple(s // isz for s in view_np.strides), off // isz)


# name -> (view builder on a base array, base shape); each a distinct walk of the driver.
LAYOUTS = {
    "contig": (lambda a: a, (6, 5, 4)),
    "transposed": (lambda a: a.transpose(2, 0, 1), (6, 5, 4)),
    "strided": (lambda a: a[::2, :, 1::2], (6, 5, 6)),
    "negative": (lambda a: a[::-1, :, ::-2], (6, 5, 6)),
    "stride0": (lambda a: np.broadcast_to(a[:, :1, :], (6, 5, 4)), (6, 1, 4)),
    "size1": (lambda a: a[:, 1:2, :], (6, 3, 4)),
}
AXES = [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2), ()]


def layout_pair(name, dtype, rng, **kw):
    build, shape = LAYOUTS[name]
    base = rand(shape, dtype, rng, **kw)
    if name == "stride0":
        v = np.broadcast_to(base, (6, 5, 4))
        return v, _native.broadcast_to(to_ac(base), (6, 5, 4))
    v = build(base)
    return v, mirror(base, v, to_ac(base))


def tol(dtype):
    return 1e-5 if dtype in ("float32", "complex64") else 1e-12


# --- sum / prod ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("fn", ["sum", "prod"])
def test_sum_prod_dtypes_axes(fn, dtype, rng):
    kw = dict(low=-3, high=3) if fn == "prod" else {}
    if fn == "prod" and np.dtype(dtype).kind in "fc":
        kw = dict(low=0.5, high=1.5)
    for shape in [(), (0,), (1,), (7,), (3, 0, 2), (3, 4, 5)]:
        a = rand(shape, dtype, rng, **kw)
        x = to_ac(a)
        for axis in [None, ()] + [i for i in range(-len(shape), len(shape))] + \
                ([(0, 2)] if len(shape) == 3 else []):
            for keepdims in (False, True):
                got = getattr(ac, fn)(x, axis=axis, keepdims=keepdims)
                want = getattr(np, fn)(a, axis=axis, keepdims=keepdims)
                assert_matches_numpy(got, want, rtol=tol(dtype))


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex128", "bool"])
def test_sum_layouts(layout, dtype, rng):
    v, x = layout_pair(layout, dtype, rng)
    for axis in AXES:
        for keepdims in (False, True):
            assert_matches_numpy(ac.sum(x, axis=axis, keepdims=keepdims),
                                 np.sum(v, axis=axis, keepdims=keepdims), rtol=tol(dtype))


@pytest.mark.parametrize("dtype,out", [("int8", "int8"), ("int32", "float64"),
                                       ("float32", "float64"), ("float64", "float32"),
                                       ("uint16", "int32"), ("bool", "int16"),
                                       ("complex64", "complex128"), ("int64", "uint64"),
                                       ("float64", "int32")])
def test_sum_prod_dtype_argument(dtype, out, rng):
    a = rand((4, 9), dtype, rng, low=-3, high=3)
    x = to_ac(a)
    for fn in ("sum", "prod"):
        for axis in (None, 0, 1):
            got = getattr(ac, fn)(x, axis=axis, dtype=getattr(ac, out))
            want = getattr(np, fn)(a, axis=axis, dtype=out)
            assert_matches_numpy(got, want, rtol=tol(out))


def test_float_sum_accuracy_and_large(rng):
    a = rng.random(3_000_001).astype(np.float32)
    x = to_ac(a)
    exact = np.sum(a.astype(np.float64))
    assert abs(float(ac.sum(x)) - exact) / exact < 2e-6
    m = rng.random((1500, 1700)).astype(np.float32)
    y = to_ac(m)
    for axis in (0, 1):
        ref = np.sum(m.astype(np.float64), axis=axis)
        np.testing.assert_allclose(np.asarray(ac.sum(y, axis=axis)), ref, rtol=2e-6)
    # many rows reduced along a non-contiguous axis: blocked accumulation stays accurate
    t = rng.random((200_000, 3)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(ac.sum(to_ac(t), axis=0)),
                               t.astype(np.float64).sum(axis=0), rtol=2e-6)


@pytest.mark.parametrize("dtype", ["float64", "int64", "complex64"])
def test_large_reductions_all_layouts_and_threads(dtype, rng):
    a = rand((300, 257, 3), dtype, rng)
    x = to_ac(a)
    views = [(a, x), (a.transpose(1, 2, 0), mirror(a, a.transpose(1, 2, 0), x)),
             (a[::-1, ::2], mirror(a, a[::-1, ::2], x))]
    old = ac.get_num_threads() if hasattr(ac, "get_num_threads") else _native.get_num_threads()
    try:
        for v, xv in views:
            for axis in (None, 0, 1, 2, (0, 1), (1, 2), (0, 2)):
                _native.set_num_threads(1)
                one = np.asarray(ac.sum(xv, axis=axis)).copy()
                _native.set_num_threads(4)
                four = np.asarray(ac.sum(xv, axis=axis))
                np.testing.assert_array_equal(one, four)  # deterministic across threads
                # complex64: against the complex128 sum (ours is more accurate than NumPy's)
                want = (np.sum(v.astype(np.complex128), axis=axis).astype(np.complex64)
                        if dtype == "complex64" else np.sum(v, axis=axis))
                assert_matches_numpy(ac.sum(xv, axis=axis), want, rtol=1e-5,
                                     atol=1e-2 if dtype == "complex64" else 0.0)
                if dtype != "complex64":
                    assert_matches_numpy(ac.max(xv, axis=axis), np.max(v, axis=axis))
    finally:
        _native.set_num_threads(old)


@pytest.mark.parametrize("shape,axes", [
    ((5, 7, 9), (0, 1)), ((130, 3, 6), (0,)), ((2, 129, 5), (0, 1)), ((3, 6, 4, 5), (0, 2)),
    ((257, 40), (0,)), ((4, 33, 70), (1,)), ((9, 2, 300), (0, 1))])
@pytest.mark.parametrize("view", ["contiguous", "sliced", "reversed"])
def test_outer_reductions_visit_every_row_once(shape, axes, view, rng):
    """Reductions over leading axes walk rows four at a time with an odometer over the reduced
    dims: integer sums are exact, so any row missed or added twice shows."""
    a = rng.integers(-1000, 1000, size=shape).astype(np.int64)
    if view == "sliced":
        a = a[..., ::2]
    elif view == "reversed":
        a = a[::-1]
    x = ac.asarray(a)
    np.testing.assert_array_equal(np.asarray(ac.sum(x, axis=axes)), a.sum(axis=axes))
    np.testing.assert_array_equal(np.asarray(ac.max(x, axis=axes)), a.max(axis=axes))
    f = a.astype(np.float32)
    np.testing.assert_allclose(np.asarray(ac.sum(ac.asarray(f), axis=axes)), f.sum(axis=axes),
                               rtol=1e-6)


def test_sum_nan_inf():
    a = np.array([[1.0, np.nan, 2.0], [np.inf, 1.0, -np.inf], [np.inf, 1.0, 2.0]])
    for axis in (None, 0, 1):
        assert_matches_numpy(ac.sum(to_ac(a), axis=axis), np.sum(a, axis=axis))
        assert_matches_numpy(ac.prod(to_ac(a), axis=axis), np.prod(a, axis=axis))


def test_integer_wraparound():
    a = np.array([2**62, 2**62, 2**62], dtype=np.int64)
    assert_matches_numpy(ac.sum(to_ac(a)), np.sum(a))
    b = np.full(40, 255, dtype=np.uint8)
    assert_matches_numpy(ac.sum(to_ac(b)), np.sum(b))
    assert_matches_numpy(ac.prod(to_ac(b)), np.prod(b))


# --- max / min -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL_NAMES)
def test_max_min_dtypes(dtype, rng):
    for shape in [(), (1,), (7,), (3, 4, 5), (100, 33)]:
        a = rand(shape, dtype, rng, low=-100, high=100)
        if np.dtype(dtype).kind == "f":
            a[a == 0] = 1  # the sign of a zero maximum is not specified
        x = to_ac(a)
        for axis in [None, ()] + list(range(-len(shape), len(shape))):
            for keepdims in (False, True):
                for fn in ("max", "min"):
                    assert_matches_numpy(getattr(ac, fn)(x, axis=axis, keepdims=keepdims),
                                         getattr(np, fn)(a, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_max_min_layouts(layout, rng):
    v, x = layout_pair(layout, "float32", rng)
    for axis in AXES:
        assert_matches_numpy(ac.max(x, axis=axis), np.max(v, axis=axis))
        assert_matches_numpy(ac.min(x, axis=axis), np.min(v, axis=axis))


def test_max_min_nan_inf_extremes():
    a = np.array([[1.0, np.nan, 2.0], [np.inf, 1.0, -np.inf], [-np.inf, -np.inf, -np.inf]])
    for axis in (None, 0, 1):
        assert_matches_numpy(ac.max(to_ac(a), axis=axis), np.max(a, axis=axis))
        assert_matches_numpy(ac.min(to_ac(a), axis=axis), np.min(a, axis=axis))
    big = np.full(5000, 1.0, np.float32)
    big[4321] = np.nan
    assert np.isnan(float(ac.max(to_ac(big))))
    assert np.isnan(float(ac.min(to_ac(big))))
    for dt in ("int8", "uint64", "int64"):
        info = np.iinfo(dt)
        a = np.array([info.min, info.max, 0], dtype=dt)
        assert_matches_numpy(ac.max(to_ac(a)), np.max(a))
        assert_matches_numpy(ac.min(to_ac(a)), np.min(a))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_min_nan_anywhere(dtype, rng):
    """A NaN in the vector body, the scalar tail, or any segment of a long line makes max/min
    NaN; without one the result is exact."""
    for n in (7, 33, 1000, 70_001):
        base = rng.standard_normal(n).astype(dtype)
        assert float(ac.max(ac.asarray(base))) == base.max()
        assert float(ac.min(ac.asarray(base))) == base.min()
        for pos in {0, n // 3, n - 1}:
            a = base.copy()
            a[pos] = np.nan
            assert np.isnan(float(ac.max(ac.asarray(a)))), (n, pos)
            assert np.isnan(float(ac.min(ac.asarray(a)))), (n, pos)


def test_max_min_empty_errors():
    x = ac.zeros((3, 0))
    with pytest.raises(ValueError, match="^max"):
        ac.max(x)
    with pytest.raises(ValueError, match="^min"):
        ac.min(x, axis=1)
    assert ac.max(x, axis=0).shape == (0,)  # nothing reduced over an empty axis
    assert ac.max(ac.zeros((0, 3)), axis=1).shape == (0,)


# --- mean / var / std ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", NUMERIC_NAMES + ["bool"])
def test_mean_var_std_dtypes(dtype, rng):
    a = rand((5, 6, 3), dtype, rng)
    x = to_ac(a)
    rt = 1e-4 if dtype in ("float32", "complex64") else 1e-10
    for axis in (None, 0, -1, (0, 2), ()):
        for keepdims in (False, True):
            assert_matches_numpy(ac.mean(x, axis=axis, keepdims=keepdims),
                                 np.mean(a, axis=axis, keepdims=keepdims), rtol=rt)
            if dtype == "bool":
                continue
            for corr in (0, 1, 0.5):
                assert_matches_numpy(
                    ac.var(x, axis=axis, correction=corr, keepdims=keepdims),
                    np.var(a, axis=axis, ddof=corr, keepdims=keepdims), rtol=rt, atol=1e-6)
                assert_matches_numpy(
                    ac.std(x, axis=axis, correction=corr, keepdims=keepdims),
                    np.std(a, axis=axis, ddof=corr, keepdims=keepdims), rtol=rt, atol=1e-6)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_mean_var_layouts(layout, rng):
    v, x = layout_pair(layout, "float64", rng)
    for axis in AXES:
        assert_matches_numpy(ac.mean(x, axis=axis), np.mean(v, axis=axis))
        assert_matches_numpy(ac.var(x, axis=axis, correction=1) if axis != () else
                             ac.var(x, axis=axis),
                             np.var(v, axis=axis, ddof=1) if axis != () else np.var(v, axis=axis),
                             rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 31, 8193, 2 ** 20 + 5, 3 * 2 ** 20 + 1])
def test_var_of_a_whole_contiguous_array(n, dtype, rng):
    """Whole contiguous real arrays take a one-read second pass (sum_squared_deviations:
    pairwise blocks, fixed chunks over the pool); it matches NumPy and the composed path that
    strided views take, also with a large offset (two passes, no cancellation), several
    chunks and any thread count."""
    a = (rng.standard_normal(n) * 3 + 1e4).astype(dtype)
    x = to_ac(a)
    rt = 2e-5 if dtype == "float32" else 1e-12
    strided = to_ac(np.repeat(a, 2))[::2]  # the same values, not contiguous
    for corr in (0, 1):
        assert_matches_numpy(ac.var(x, correction=corr), np.var(a, ddof=corr), rtol=rt)
        assert_matches_numpy(ac.std(x, correction=corr, keepdims=True),
                             np.std(a, ddof=corr, keepdims=True), rtol=rt)
        np.testing.assert_allclose(float(ac.var(x, correction=corr)),
                                   float(ac.var(strided, correction=corr)), rtol=rt)
    two_d = to_ac(a.reshape(1, -1))
    assert_matches_numpy(ac.var(two_d, keepdims=True), np.var(a.reshape(1, -1), keepdims=True),
                         rtol=rt)
    threads = ac.get_num_threads()
    try:
        ac.set_num_threads(1)
        one = float(ac.var(x))
        ac.set_num_threads(2)
        assert float(ac.var(x)) == one
    finally:
        ac.set_num_threads(threads)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,axis", [((5, 6, 3), -1), ((5, 6, 3), (1, 2)), ((4, 1000), 1),
                                        ((3, 2 ** 20 + 3), -1), ((2, 3, 4), (-2, -1)),
                                        ((6, 1), -1)])
def test_var_over_trailing_axes_of_a_contiguous_array(shape, axis, dtype, rng):
    """Trailing axes of a contiguous array take the same one-read pass per row (the rows'
    means from the keepdims mean); leading or middle axes keep the composed path."""
    a = (rng.standard_normal(shape) * 3 + 50).astype(dtype)
    x = to_ac(a)
    rt = 3e-5 if dtype == "float32" else 1e-12
    for keepdims in (False, True):
        for corr in (0, 1):
            assert_matches_numpy(ac.var(x, axis=axis, correction=corr, keepdims=keepdims),
                                 np.var(a, axis=axis, ddof=corr, keepdims=keepdims), rtol=rt)
            assert_matches_numpy(ac.std(x, axis=axis, correction=corr, keepdims=keepdims),
                                 np.std(a, axis=axis, ddof=corr, keepdims=keepdims), rtol=rt)
    strided = to_ac(np.repeat(a, 2, axis=-1))[..., ::2]
    np.testing.assert_allclose(np.asarray(ac.var(x, axis=axis)),
                               np.asarray(ac.var(strided, axis=axis)), rtol=rt)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,axis", [((300, 7), 0), ((5, 6, 3), (0, 1)), ((1000, 3000), 0),
                                        ((129, 1), 0), ((1, 5), 0), ((257, 2, 3), 0)])
def test_var_over_leading_axes_of_a_contiguous_array(shape, axis, dtype, rng):
    """Leading axes of a contiguous array (column statistics) take a one-read pass against one
    mean per column (sum_squared_deviations_leading: blocks of 128 rows, column ranges of 2048
    on the pool): against NumPy in float64 (tighter than NumPy's own float32 sum, which is
    sequential over rows), the composed path on a strided copy, and the same bits on 1 and 3
    threads."""
    a = (rng.standard_normal(shape) * 3 + 50).astype(dtype)
    x = to_ac(a)
    rt = 2e-6 if dtype == "float32" else 1e-12
    for keepdims in (False, True):
        for corr in (0, 1):
            want = np.var(a.astype(np.float64), axis=axis, ddof=corr, keepdims=keepdims)
            got = np.asarray(ac.var(x, axis=axis, correction=corr, keepdims=keepdims))
            assert got.dtype == a.dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=rt)
            np.testing.assert_allclose(
                np.asarray(ac.std(x, axis=axis, correction=corr, keepdims=keepdims)),
                np.sqrt(want), rtol=rt)
    strided = to_ac(np.repeat(a, 2, axis=-1))[..., ::2]
    np.testing.assert_allclose(np.asarray(ac.var(x, axis=axis)),
                               np.asarray(ac.var(strided, axis=axis)), rtol=rt)
    threads = ac.get_num_threads()
    try:
        ac.set_num_threads(1)
        one = np.asarray(ac.var(x, axis=axis))
        ac.set_num_threads(3)
        np.testing.assert_array_equal(np.asarray(ac.var(x, axis=axis)), one)
    finally:
        ac.set_num_threads(threads)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_mean_var_degenerate():
    e = np.zeros((0, 3))
    assert_matches_numpy(ac.mean(to_ac(e), axis=0), np.mean(e, axis=0))
    one = np.array([2.5])
    assert_matches_numpy(ac.var(to_ac(one), correction=1), np.var(one, ddof=1))
    assert_matches_numpy(ac.std(to_ac(one), correction=2), np.std(one, ddof=2))
    big = np.full(10_000, 1e8) + np.arange(10_000) % 3
    assert_matches_numpy(ac.var(to_ac(big)), np.var(big), rtol=1e-9)


# --- cumulative ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_cumulative_dtypes(dtype, rng):
    kind = np.dtype(dtype).kind
    for fn in ("cumulative_sum", "cumulative_prod"):
        kw = dict(low=-3, high=3) if fn == "cumulative_prod" else {}
        if fn == "cumulative_prod" and kind in "fc":
            kw = dict(low=0.9, high=1.1)
        for shape, axes in [((), [None]), ((0,), [None]), ((1,), [0]), ((9,), [None, -1]),
                            ((4, 0), [0, 1]), ((4, 5, 3), [0, 1, 2, -1])]:
            a = rand(shape, dtype, rng, **kw)
            x = to_ac(a)
            for axis in axes:
                for ii in (False, True):
                    got = getattr(ac, fn)(x, axis=axis, include_initial=ii)
                    want = getattr(np, fn)(a, axis=axis, include_initial=ii)
                    assert_matches_numpy(got, want, rtol=tol(dtype),
                                         atol=1e-5 if tol(dtype) > 1e-6 else 0.0)


@pytest.mark.parametrize("layout", ["transposed", "negative", "stride0"])
def test_cumulative_layouts(layout, rng):
    v, x = layout_pair(layout, "float64", rng)
    for axis in (0, 1, 2):
        assert_matches_numpy(ac.cumulative_sum(x, axis=axis), np.cumulative_sum(v, axis=axis))


def test_cumulative_large_and_dtype(rng):
    a = rng.random(1_000_003)
    for dt in ("float64", "float32"):
        b = a.astype(dt)
        np.testing.assert_allclose(np.asarray(ac.cumulative_sum(to_ac(b))),
                                   np.cumsum(b.astype(np.float64)), rtol=2e-5 if dt == "float32"
                                   else 1e-12)
    i = rng.integers(-100, 100, size=(3, 100_001)).astype(np.int32)
    xi = to_ac(i)
    for axis in (0, 1):
        assert_matches_numpy(ac.cumulative_sum(xi, axis=axis, include_initial=True),
                             np.cumulative_sum(i, axis=axis, include_initial=True))
    assert_matches_numpy(ac.cumulative_sum(xi, axis=1, dtype=ac.int16),
                         np.cumulative_sum(i, axis=1, dtype=np.int16))
    assert_matches_numpy(ac.cumulative_prod(to_ac(a[:50] + 0.5), dtype=ac.float32),
                         np.cumulative_prod(a[:50] + 0.5, dtype=np.float32), rtol=1e-5)


def test_cumulative_errors():
    x = ac.zeros((2, 3))
    with pytest.raises(ValueError, match="^cumulative_sum"):
        ac.cumulative_sum(x)
    with pytest.raises(ValueError, match="^cumulative_prod"):
        ac.cumulative_prod(x, axis=2)
    with pytest.raises(TypeError, match="^cumulative_sum"):
        ac.cumulative_sum(x, axis=(0,))
    with pytest.raises(TypeError, match="^cumulative_sum"):
        ac.cumulative_sum([1, 2])


# --- all / any -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_all_any_dtypes(dtype, rng):
    for shape in [(), (0,), (1,), (8,), (3, 0), (4, 5, 3), (3, 2000)]:
        a = rand(shape, dtype, rng, low=-1, high=1)
        if np.dtype(dtype).kind in "fc":
            a = np.round(a)
        x = to_ac(a)
        for axis in [None, ()] + list(range(-len(shape), len(shape))):
            for keepdims in (False, True):
                for fn in ("all", "any"):
                    assert_matches_numpy(getattr(ac, fn)(x, axis=axis, keepdims=keepdims),
                                         getattr(np, fn)(a, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_all_any_layouts(layout, rng):
    v, x = layout_pair(layout, "int8", rng, low=0, high=3)
    for axis in AXES:
        assert_matches_numpy(ac.all(x, axis=axis), np.all(v, axis=axis))
        assert_matches_numpy(ac.any(x, axis=axis), np.any(v, axis=axis))


def test_all_any_special():
    a = np.array([np.nan, 0.0, -0.0])
    assert_matches_numpy(ac.all(to_ac(a)), np.all(a))
    assert_matches_numpy(ac.any(to_ac(a)), np.any(a))
    c = np.array([0j, 1j, 0.0 + 0j])
    assert_matches_numpy(ac.any(to_ac(c)), np.any(c))
    assert_matches_numpy(ac.all(to_ac(c)), np.all(c))
    big = np.zeros(1_000_000, bool)
    big[-1] = True
    assert bool(ac.any(to_ac(big))) and not bool(ac.all(to_ac(big)))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8"])
def test_all_any_of_bytes_find_the_one_element(dtype):
    """Contiguous one-byte lines take memchr (all) and an 8-byte-word OR in blocks of 4096
    (any; reduce_loops.h): a single deciding element at every kind of position (first, last,
    either side of a block or word edge, the tail after the last whole block), nonzero bytes
    other than 1 (int8 -1, uint8 2) counting as true, and lines along a row of a 2-d array."""
    for n in (1, 7, 8, 9, 4095, 4096, 4097, 8200, 20000):
        for k in sorted({0, n - 1, min(n - 1, 7), min(n - 1, 8), min(n - 1, 4095),
                         min(n - 1, 4096), min(n - 1, 8191), min(n - 1, 8192)}):
            ones = np.full(n, 2 if dtype == "uint8" else (-1 if dtype == "int8" else 1), dtype)
            ones[k] = 0
            zeros = np.zeros(n, dtype)
            zeros[k] = ones[(k + 1) % n] if n > 1 else 1
            assert not bool(ac.all(to_ac(ones))) and bool(ac.any(to_ac(zeros))), (n, k)
            if n > 1:
                assert bool(ac.any(to_ac(ones))) and not bool(ac.all(to_ac(zeros))), (n, k)
        m = np.ones((3, n), dtype)
        m[1, n // 2] = 0
        assert_matches_numpy(ac.all(to_ac(m), axis=1), np.all(m, axis=1))
        assert_matches_numpy(ac.any(to_ac(1 - m.astype(np.int8)), axis=1),
                             np.any(1 - m.astype(np.int8), axis=1))


# --- diff ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_diff_dtypes(dtype, rng):
    a = rand((4, 6), dtype, rng)
    x = to_ac(a)
    for axis in (0, 1, -1):
        for n in (0, 1, 2, 7):
            assert_matches_numpy(ac.diff(x, axis=axis, n=n), np.diff(a, axis=axis, n=n))


def test_diff_prepend_append(rng):
    a = rand((3, 5), "int32", rng)
    p = rand((3, 2), "int32", rng)
    q = rand((3, 1), "float32", rng)
    x = to_ac(a)
    assert_matches_numpy(ac.diff(x, prepend=to_ac(p), append=to_ac(q)),
                         np.diff(a, prepend=p, append=q))
    # Python scalars are weak (they take x's dtype when their kind fits)
    assert_matches_numpy(ac.diff(x, axis=0, prepend=0, n=2),
                         np.diff(a, axis=0, prepend=np.int32(0), n=2))
    assert_matches_numpy(ac.diff(x, append=1.5), np.diff(a, append=1.5))
    v = a[:, ::-2]
    assert_matches_numpy(ac.diff(mirror(a, v, x)), np.diff(v))
    with pytest.raises(ValueError, match="^diff"):
        ac.diff(x, prepend=to_ac(p), axis=0)
    with pytest.raises(ValueError, match="^diff"):
        ac.diff(ac.asarray(1.0))
    with pytest.raises(ValueError, match="^diff"):
        ac.diff(x, n=-1)
    with pytest.raises(TypeError, match="^diff"):
        ac.diff(x, n=1.0)


# --- errors --------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["sum", "prod", "max", "min", "mean", "var", "std", "all", "any"])
def test_axis_errors(fn):
    x = ac.zeros((2, 3))
    f = getattr(ac, fn)
    with pytest.raises(ValueError, match=f"^{fn}"):
        f(x, axis=2)
    with pytest.raises(ValueError, match=f"^{fn}"):
        f(x, axis=-3)
    with pytest.raises(ValueError, match=f"^{fn}"):
        f(x, axis=(0, -2))
    with pytest.raises(TypeError, match=f"^{fn}"):
        f(x, axis=1.0)
    with pytest.raises(TypeError, match=f"^{fn}"):
        f([1.0, 2.0])
    with pytest.raises(ValueError, match=f"^{fn}"):
        f(ac.asarray(1.0), axis=0)


def test_dtype_errors():
    for fn in ("max", "min"):
        with pytest.raises(TypeError, match=f"^{fn}"):
            getattr(ac, fn)(ac.asarray([1j]))
        with pytest.raises(TypeError, match=f"^{fn}"):
            getattr(ac, fn)(ac.asarray([True]))
    with pytest.raises(TypeError, match="^sum"):
        ac.sum(ac.asarray([1.0]), dtype="float64")
    with pytest.raises(TypeError, match="^var"):
        ac.var(ac.asarray([1.0]), correction="1")


def test_results_are_arrays_and_0d():
    x = ac.asarray([[1.0, 2.0], [3.0, 4.0]])
    for fn in ("sum", "prod", "max", "min", "mean", "var", "std", "all", "any"):
        r = getattr(ac, fn)(x)
        assert isinstance(r, ac.Array) and r.shape == ()


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("shape,axis", [((0, 3), 0), ((2, 0, 3), 1), ((0, 5), 0), ((3, 0), 1)])
def test_cumulative_empty_axis_with_include_initial(fn, shape, axis):
    """An empty scanned axis gives just the initial row (this once wrote past the output)."""
    x = np.zeros(shape, dtype=np.float64)
    got = np.asarray(getattr(ac, fn)(ac.asarray(x), axis=axis, include_initial=True))
    want_shape = list(shape)
    want_shape[axis] += 1
    assert got.shape == tuple(want_shape)
    assert np.all(got == (0.0 if fn == "cumulative_sum" else 1.0))
