"""NumPy scalars (np.float64(2.0), np.int8(3), np.bool_(True), ...) and NumPy arrays mixed
with arraycore arrays, compared with NumPy 2 (arraycore/_core/numpy_scalars.py):

- as operands (operators, binary functions, where, result_type) a NumPy scalar is a 0-d array
  of its dtype (NEP 50): float32 array + np.float64(1) is float64;
- as stored values (setitem, full, full_like, clip bounds, in-place right operands) it counts
  by its value, as a Python scalar of its kind;
- NumPy's operators defer to arraycore's: `np.float64(2) * x` and `np.ones(3) + x` are
  arraycore arrays; NumPy functions called explicitly (np.add(x, 1)) stay NumPy's.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest

import arraycore as ac
from conftest import DTYPE_NAMES, assert_matches_numpy

SCALAR_TYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                np.uint32, np.uint64, np.float32, np.float64, np.complex64, np.complex128]
SCALAR_IDS = [np.dtype(t).name for t in SCALAR_TYPES]


def scalar_of(t, kind_value=None):
    """A representative NumPy scalar of type `t` (nonzero, small: no overflow in products)."""
    k = np.dtype(t).kind
    return t({"b": True, "i": 3, "u": 3, "f": 1.5, "c": 1.5 - 0.5j}[k])


def numpy_array(name, rng, low=-20, high=20):
    dt = np.dtype(name)
    if dt.kind == "b":
        return rng.random(5) < 0.5
    if dt.kind == "u":
        return rng.integers(1, high, size=5).astype(dt)
    if dt.kind == "i":
        v = rng.integers(low, high, size=5)
        v[v == 0] = 1
        return v.astype(dt)
    if dt.kind == "f":
        return rng.uniform(low, high, size=5).astype(dt)
    return (rng.uniform(low, high, 5) + 1j * rng.uniform(low, high, 5)).astype(dt)


def numpy_result(f, *args):
    """NumPy's result, or the exception type it raises (TypeError for unsupported dtypes)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(*args)
        except (TypeError, ValueError) as e:
            return type(e)


def check_like_numpy(got_fn, expected, what):
    """`got_fn()` matches NumPy's `expected` (an array, or an exception type)."""
    if isinstance(expected, type) and issubclass(expected, Exception):
        with pytest.raises(Exception) as info:
            got_fn()
        assert isinstance(info.value, (TypeError, ValueError)), what
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = got_fn()
    try:
        assert_matches_numpy(got, np.asarray(expected))
    except AssertionError as e:
        raise AssertionError(f"{what}: {e}") from None


# Operators whose NumPy 2 result arraycore reproduces on every dtype pair it accepts.  (bool
# arithmetic is an error in arraycore, where NumPy computes a logical result: the standard
# leaves arithmetic on bool undefined; checked separately below.)
ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul,
              "/": operator.truediv, "//": operator.floordiv, "%": operator.mod,
              "**": operator.pow}
COMPARISON = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
              ">": operator.gt, ">=": operator.ge}
BITWISE = {"&": operator.and_, "|": operator.or_, "^": operator.xor,
           "<<": operator.lshift, ">>": operator.rshift}


def _skip_pair(symbol, array_dtype, scalar_type):
    kinds = {np.dtype(array_dtype).kind, np.dtype(scalar_type).kind}
    if symbol in ("<<", ">>") and "b" in kinds:
        return True  # shifts take integers only (the standard); NumPy shifts bools as ints
    if symbol in ARITHMETIC and kinds == {"b"}:
        return True  # bool arithmetic: NumPy's logical result vs arraycore's TypeError
    if symbol in ("//", "%") and "c" in kinds:
        return True  # NumPy: TypeError; arraycore too (checked by the error test)
    if symbol in COMPARISON and symbol not in ("==", "!=") and ("c" in kinds
                                                                 or kinds == {"b"}):
        return True  # complex/bool ordering: NumPy orders them, the standard does not
    return False


@pytest.mark.parametrize("symbol", list(ARITHMETIC) + list(COMPARISON) + list(BITWISE))
def test_operators_promote_as_numpy_2(symbol, rng):
    """array <op> scalar and scalar <op> array for every NumPy scalar type and every array
    dtype: an arraycore array with NumPy 2's dtype and values."""
    f = {**ARITHMETIC, **COMPARISON, **BITWISE}[symbol]
    for name in DTYPE_NAMES:
        a_np = numpy_array(name, rng, 0 if symbol in ("<<", ">>", "**") else -20,
                           6 if symbol in ("<<", ">>", "**") else 20)
        a = ac.asarray(a_np)
        for t in SCALAR_TYPES:
            if _skip_pair(symbol, name, t):
                continue
            s = scalar_of(t)
            if symbol in ("<<", ">>", "**") and np.dtype(t).kind in "iu":
                s = t(2)
            for order, (lhs_np, rhs_np, lhs, rhs) in (
                    ("array op scalar", (a_np, s, a, s)), ("scalar op array", (s, a_np, s, a))):
                expected = numpy_result(f, lhs_np, rhs_np)
                if (isinstance(expected, np.ndarray) and expected.dtype.kind == "f"
                        and expected.dtype.itemsize == 2):
                    continue  # float16 result (int8 / uint8 with float16 rules): no float16
                if (symbol == "**" and isinstance(expected, np.ndarray)
                        and expected.dtype == np.complex64):
                    # arraycore's complex64 pow is computed in double (0.5 ulp); NumPy's
                    # loses ~15 ulp, so the reference is NumPy in complex128, rounded.
                    with np.errstate(all="ignore"):
                        expected = f(np.asarray(lhs_np, dtype=np.complex128),
                                     np.asarray(rhs_np, dtype=np.complex128)
                                     ).astype(np.complex64)
                what = f"{name} array, {np.dtype(t).name} scalar, {order} {symbol}"
                check_like_numpy(lambda: f(lhs, rhs), expected, what)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum",
                                  "minimum", "equal", "less", "atan2", "hypot", "pow",
                                  "logaddexp", "copysign", "nextafter"])
def test_binary_functions_take_numpy_scalars(name, rng):
    """ac.<f>(x, np_scalar) and ac.<f>(np_scalar, x): NumPy 2's dtype and values."""
    np_name = {"atan2": "arctan2", "pow": "power"}.get(name, name)
    if not hasattr(ac, name):
        pytest.skip(f"ac.{name} not in this build")
    f, g = getattr(ac, name), getattr(np, np_name)
    # (Integer inputs of the float-only functions become float64 in arraycore, NumPy picks
    # the smallest float: a rule of those functions, not of NumPy scalars.)
    float_only = name in ("atan2", "hypot", "logaddexp", "copysign", "nextafter")
    for dname in ["int8", "int64", "uint8", "float32", "float64", "complex64"]:
        if float_only and dname[0] != "f":
            continue
        a_np = numpy_array(dname, rng, 1, 6)
        a = ac.asarray(a_np)
        for t in SCALAR_TYPES:
            s = t(2) if np.dtype(t).kind != "b" else t(True)
            expected = numpy_result(g, a_np, s)
            if isinstance(expected, np.ndarray) and expected.dtype == np.float16:
                continue
            if "c" in (a_np.dtype.kind, np.dtype(t).kind) and name in (
                    "maximum", "minimum", "less"):
                continue  # complex ordering is not defined by the standard
            if not isinstance(expected, np.ndarray) or a_np.dtype.kind == "b":
                continue  # (errors: test_errors_name_the_function)
            check_like_numpy(lambda: f(a, s), expected, f"{name}({dname} array, {t.__name__})")
            check_like_numpy(lambda: f(s, a), g(s, a_np), f"{name}({t.__name__}, {dname} array)")


def test_float32_with_float64_scalar_is_float64():
    """The headline rule (NEP 50): a NumPy scalar is not weak."""
    x = ac.asarray([1.0, 2.0], dtype=ac.float32)
    assert (x + np.float64(1)).dtype == ac.float64
    assert (np.float64(1) + x).dtype == ac.float64
    assert (x + np.float32(1)).dtype == ac.float32
    assert (x + 1.0).dtype == ac.float32  # a Python float stays weak
    i8 = ac.asarray([1, 2], dtype=ac.int8)
    assert (i8 + np.int64(1)).dtype == ac.int64
    assert (np.int64(1) * i8).dtype == ac.int64
    assert (i8 + 1).dtype == ac.int8
    assert (i8 + np.int8(1)).dtype == ac.int8
    assert (i8 + np.uint64(1)).dtype == ac.float64  # int8 with uint64: float64, as NumPy
    assert (ac.asarray([True]) + np.int16(1)).dtype == ac.int16
    assert (ac.asarray([1.0], dtype=ac.float32) * np.complex64(1j)).dtype == ac.complex64
    assert (ac.asarray([1.0], dtype=ac.float32) * np.complex128(1j)).dtype == ac.complex128
    assert ac.result_type(x, np.float64(1)) == ac.float64
    assert ac.result_type(i8, np.int16(1), 1) == ac.int16


def test_numpy_operators_defer_to_arraycore():
    """NumPy scalars and arrays on the left: NumPy returns NotImplemented and the Array's
    reflected operator answers (an arraycore array), for every operator."""
    x = ac.asarray([1.0, 2.0, 4.0])
    for s in (np.float64(2), np.float32(2), np.int64(2), np.uint8(2), np.bool_(True),
              np.complex128(2)):
        for f in (operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
                  operator.eq, operator.ne):
            r = f(s, x)
            assert type(r) is ac.Array, (f, type(s))
            assert_matches_numpy(r, f(s, np.asarray(x)))
        if np.dtype(type(s)).kind != "c":
            for f in (operator.lt, operator.le, operator.gt, operator.ge, operator.floordiv,
                      operator.mod):
                r = f(s, x)
                assert type(r) is ac.Array
                assert_matches_numpy(r, f(s, np.asarray(x)))
    n = ac.asarray([1, 6, 3], dtype=ac.int32)
    for f in (operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift):
        r = f(np.int16(5), n)
        assert type(r) is ac.Array
        assert_matches_numpy(r, f(np.int16(5), np.asarray(n)))


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0, 3)])
def test_numpy_array_operands(shape, rng):
    """np.ndarray <op> Array and Array <op> np.ndarray are arraycore arrays computed with
    arraycore's promotion (the ndarray is imported zero-copy); so is 0-d."""
    x_np = rng.uniform(1, 2, size=(3,)).astype(np.float32)
    x = ac.asarray(x_np)
    for dt in (np.float32, np.float64, np.int64, np.bool_):
        a = np.ones(shape, dtype=dt) * (2 if dt is not np.bool_ else True)
        if a.ndim and a.shape[-1] != 3:
            continue
        for f in (operator.add, operator.mul, operator.truediv, operator.lt, operator.eq):
            for lhs, rhs, lhs_np, rhs_np in ((a, x, a, x_np), (x, a, x_np, a)):
                r = f(lhs, rhs)
                assert type(r) is ac.Array, (f, dt, shape)
                assert_matches_numpy(r, f(lhs_np, rhs_np))
    m = rng.uniform(size=(3, 3))
    assert_matches_numpy(m @ ac.asarray(m), m @ m)
    assert_matches_numpy(ac.asarray(m) @ m, m @ m)
    assert type(np.ones((3, 3)) @ x) is ac.Array


def test_numpy_functions_stay_numpy():
    """np.add(x, 1), np.exp(x): NumPy's functions on NumPy's zero-copy view, NumPy results
    (the documented choice: no __array_ufunc__/__array_wrap__); np.asarray is zero-copy."""
    x = ac.asarray([1.0, 2.0, 3.0])
    for r in (np.add(x, 1), np.exp(x), np.multiply(np.float64(2), x)):
        assert type(r) is np.ndarray
    # NumPy's reductions call the array's own method when it has one (x.sum(axis=None,
    # out=None), as for PyTorch tensors): those give arraycore results.
    s = np.sum(x)
    assert type(s) is ac.Array and float(s) == 6.0
    assert float(np.max(x)) == 3.0 and int(np.argmax(x)) == 2
    np.testing.assert_allclose(float(np.std(x, ddof=1)), 1.0)
    np.testing.assert_array_equal(np.add(x, 1), [2.0, 3.0, 4.0])
    v = np.asarray(x)
    assert np.shares_memory(v, np.asarray(x))
    x[0] = 7.0
    assert v[0] == 7.0


@pytest.mark.parametrize("array_dtype", DTYPE_NAMES)
def test_setitem_stores_numpy_scalar_values(array_dtype):
    """x[i] = np_scalar: stored by value when a Python scalar of its kind could be, TypeError
    otherwise (a float into an integer array, a complex into a real one)."""
    d = np.dtype(array_dtype)
    order = "biufc"
    for t in SCALAR_TYPES:
        s = scalar_of(t)
        sk = np.dtype(t).kind
        x = ac.zeros(4, dtype=getattr(ac, array_dtype))
        allowed = (sk == "b" or (sk in "iu" and d.kind in "iufc")
                   or (sk == "f" and d.kind in "fc") or (sk == "c" and d.kind == "c"))
        if not allowed:
            with pytest.raises(TypeError, match="__setitem__"):
                x[1] = s
            continue
        x[1] = s
        x[np.int64(2)] = s
        x[ac.asarray([False, False, False, True])] = s
        expected = np.zeros(4, dtype=d)
        expected[1:] = s
        assert_matches_numpy(x, expected)
    assert order  # (kinds in promotion order)


def test_setitem_extremes():
    x = ac.zeros(2, dtype=ac.uint64)
    x[0] = np.uint64(2**64 - 1)
    assert int(x[0]) == 2**64 - 1
    y = ac.zeros(2, dtype=ac.int8)
    with pytest.raises(OverflowError):
        y[0] = np.int64(300)
    z = ac.zeros(2, dtype=ac.float32)
    z[0] = np.float64(0.1)
    assert np.asarray(z)[0] == np.float32(0.1)


@pytest.mark.parametrize("t", SCALAR_TYPES, ids=SCALAR_IDS)
def test_full_and_full_like(t):
    s = scalar_of(t)
    assert_matches_numpy(ac.full((2, 3), s), np.full((2, 3), s))
    assert_matches_numpy(ac.full(3, s, dtype=ac.complex128), np.full(3, s, dtype=np.complex128))
    for name in ("float32", "float64", "complex64", "int16", "bool"):
        like = ac.zeros(3, dtype=getattr(ac, name))
        k, dk = np.dtype(t).kind, np.dtype(name).kind
        fits = not (k in "fc" and dk in "biu") and not (k == "c" and dk == "f")
        if fits:
            assert_matches_numpy(ac.full_like(like, s), np.full(3, s, dtype=name))
        else:
            with pytest.raises(TypeError, match="full"):
                ac.full_like(like, s)


@pytest.mark.parametrize("t", SCALAR_TYPES, ids=SCALAR_IDS)
def test_where_promotes_as_numpy(t, rng):
    c_np = rng.random(5) < 0.5
    c = ac.asarray(c_np)
    s = scalar_of(t)
    for name in ("int8", "int64", "uint32", "float32", "float64", "complex64"):
        a_np = numpy_array(name, rng)
        a = ac.asarray(a_np)
        assert_matches_numpy(ac.where(c, a, s), np.where(c_np, a_np, s))
        assert_matches_numpy(ac.where(c, s, a), np.where(c_np, s, a_np))
    assert_matches_numpy(ac.where(c, s, 0), np.where(c_np, s, np.asarray(0).astype(
        np.result_type(s, 0))))


@pytest.mark.parametrize("name", ["int8", "int64", "uint16", "float32", "float64"])
def test_clip_with_numpy_scalar_bounds(name, rng):
    """clip's bounds count by value (the result keeps x's dtype, as with Python bounds)."""
    a_np = numpy_array(name, rng)
    a = ac.asarray(a_np)
    for lo_t, hi_t in ((np.int64, np.int64), (np.int8, np.uint8), (np.float64, np.float32)):
        if np.dtype(name).kind in "iu" and np.dtype(lo_t).kind == "f":
            with pytest.raises(TypeError):
                ac.clip(a, lo_t(1), hi_t(5))
            continue
        lo, hi = lo_t(1), hi_t(5)
        assert_matches_numpy(ac.clip(a, lo, hi), np.clip(a_np, lo, hi).astype(a_np.dtype))
        assert_matches_numpy(ac.clip(a, min=lo), np.maximum(a_np, lo).astype(a_np.dtype))
        assert_matches_numpy(ac.clip(a, max=hi), np.minimum(a_np, hi).astype(a_np.dtype))


def test_in_place_operators_take_numpy_scalar_values():
    """x op= np_scalar: the value, as a Python scalar of its kind (NumPy keeps x's dtype in
    place too); a kind that does not fit is a TypeError."""
    for name, s in (("float32", np.float64(0.5)), ("float32", np.int64(3)),
                    ("float64", np.float32(1.5)), ("int8", np.int64(3)), ("int32", np.uint8(2)),
                    ("complex64", np.complex128(1 + 1j)), ("uint8", np.bool_(True))):
        for f in (operator.iadd, operator.isub, operator.imul):
            a_np = np.arange(1, 5).astype(name)
            x = ac.asarray(a_np.copy())
            before = x
            x = f(x, s)
            assert x is before
            expected = f(a_np.copy(), s)
            assert_matches_numpy(x, expected)
    x = ac.ones(3, dtype=ac.float32)
    x /= np.float64(4)
    assert_matches_numpy(x, np.full(3, 0.25, dtype=np.float32))
    with pytest.raises(TypeError):
        y = ac.ones(3, dtype=ac.int32)
        y += np.float64(1.5)
    with pytest.raises(TypeError):
        y = ac.ones(3, dtype=ac.float64)
        y *= np.complex64(1j)
    z = ac.ones(3)
    z += np.ones(3)  # a NumPy array on the right: an arraycore array of its dtype
    assert_matches_numpy(z, np.full(3, 2.0))


def test_asarray_and_creation_arguments():
    for t in SCALAR_TYPES:
        s = scalar_of(t)
        assert_matches_numpy(ac.asarray(s), np.asarray(s))
        # Lists of NumPy scalars keep their dtypes, as in NumPy; Python scalars among them
        # count as their kind's default dtype.
        assert_matches_numpy(ac.asarray([s, s]), np.asarray([s, s]))
        assert_matches_numpy(ac.asarray([[s], [s]]), np.asarray([[s], [s]]))
        for py in (True, 2, 2.5, 1j):
            assert_matches_numpy(ac.asarray([s, py]), np.asarray([s, py]))
        assert_matches_numpy(ac.asarray([s, np.int8(1)]), np.asarray([s, np.int8(1)]))
        assert_matches_numpy(ac.asarray([s, ac.asarray(1, dtype=ac.int16)]),
                             np.asarray([s, np.int16(1)]))
    assert_matches_numpy(ac.zeros((np.int64(2), np.int32(3))), np.zeros((2, 3)))
    assert_matches_numpy(ac.ones(np.uint8(4)), np.ones(4))
    assert_matches_numpy(ac.reshape(ac.arange(6), (np.int64(2), np.int64(-1))),
                         np.arange(6).reshape(2, 3))
    assert_matches_numpy(ac.arange(np.int64(1), np.int32(7), np.int8(2)), np.arange(1, 7, 2))
    assert_matches_numpy(ac.arange(np.float32(0.5), np.float64(3)), np.arange(0.5, 3.0))
    assert_matches_numpy(ac.linspace(np.float32(0), np.float64(1), np.int64(5)),
                         np.linspace(0, 1, 5))
    assert_matches_numpy(ac.linspace(np.complex64(0), np.complex128(1j), 3),
                         np.linspace(0, 1j, 3))
    assert_matches_numpy(ac.eye(np.int64(3), k=np.int8(1)), np.eye(3, k=1))
    with pytest.raises(TypeError):
        ac.zeros((np.float64(2.0),))


def test_indexing_with_numpy_keys(rng):
    a_np = rng.uniform(size=(4, 5))
    a = ac.asarray(a_np)
    for key in (np.int64(1), (np.int32(2), np.uint8(3)), np.int64(-1),
                (slice(np.int64(1), np.int64(3)), np.int16(0)), np.bool_(True),
                np.bool_(False), (Ellipsis, np.int64(2))):
        assert_matches_numpy(a[key], a_np[key])
    b = ac.asarray(a_np.copy())
    b_np = a_np.copy()
    b[np.int64(0), np.int64(1)] = np.float32(9)
    b_np[0, 1] = np.float32(9)
    assert_matches_numpy(b, b_np)


def test_comparisons_and_reductions_with_numpy_scalars(rng):
    x_np = rng.uniform(size=6)
    x = ac.asarray(x_np)
    m = np.float64(0.5)
    assert_matches_numpy(x > m, x_np > m)
    assert_matches_numpy(m > x, m > x_np)
    assert_matches_numpy(ac.sum(x < np.float32(0.5)), np.sum(x_np < np.float32(0.5)))
    assert bool(ac.all(x >= np.int64(0)))


def test_errors_name_the_function():
    x = ac.asarray([1, 2], dtype=ac.int32)
    with pytest.raises(TypeError, match="bitwise_and"):
        ac.bitwise_and(x, np.float64(1))
    with pytest.raises(TypeError, match="floor_divide"):
        ac.floor_divide(ac.asarray([1.0]), np.complex128(1j))
    with pytest.raises(TypeError):
        ac.add(x, np.float16(1))  # no float16 in arraycore
    with pytest.raises(TypeError):
        x + np.str_("a")
    with pytest.raises(TypeError, match="two scalars|at least one"):
        ac.add(np.float64(1), np.float64(2)) if False else ac.where(
            ac.asarray([True]), 1, 2)


# --- autodiff: NumPy scalars are constants --------------------------------------------------

def test_grad_through_numpy_scalars():
    x = ac.asarray([1.0, 2.0, 3.0])
    g = ac.func.grad(lambda v: ac.sum(v * np.float32(2)))(x)
    assert_matches_numpy(g, np.full(3, 2.0))
    g = ac.func.grad(lambda v: ac.sum(np.float64(3) * v + np.int64(1)))(x)
    assert_matches_numpy(g, np.full(3, 3.0))
    g = ac.func.grad(lambda v: ac.sum(ac.where(v > np.float64(1.5), v, np.float64(0))))(x)
    assert_matches_numpy(g, np.array([0.0, 1.0, 1.0]))
    g = ac.func.grad(lambda v: ac.sum(v ** np.float32(2) / np.float64(2)))(x)
    assert_matches_numpy(g, np.asarray(x))
    g = ac.func.grad(lambda v: ac.sum((v + np.ones(3)) * (np.ones(3) * v)))(x)
    assert_matches_numpy(g, 2 * np.asarray(x) + 1)
    # float32 input with a float64 NumPy scalar: the value is float64 (NEP 50), the gradient
    # has the input's dtype.
    x32 = ac.asarray([1.0, 2.0], dtype=ac.float32)
    g = ac.func.grad(lambda v: ac.sum(v * np.float64(2)))(x32)
    assert_matches_numpy(g, np.full(2, 2.0, dtype=np.float32))


def test_jvp_and_vmap_with_numpy_scalars():
    x = ac.asarray([1.0, 2.0, 3.0])
    out, tangent = ac.func.jvp(lambda v: v * np.float32(2) + np.float64(1), (x,),
                               (ac.ones(3),))
    assert_matches_numpy(out, np.array([3.0, 5.0, 7.0]))
    assert_matches_numpy(tangent, np.full(3, 2.0))
    r = ac.func.vmap(lambda v: np.int64(2) * v - np.float64(1))(ac.ones((2, 3)))
    assert_matches_numpy(r, np.ones((2, 3)))


def test_tape_with_numpy_scalars():
    t = ac.asarray([1.0, 2.0, 3.0])
    t.requires_grad_()
    y = t * np.float64(2) + np.float32(1)
    ac.sum(y * y).backward()
    assert_matches_numpy(t.grad, 4 * (2 * np.array([1.0, 2.0, 3.0]) + 1))
    t2 = ac.asarray([1.0, 2.0, 3.0])
    t2.requires_grad_()
    u = t2 * 1.0
    same = u
    u *= np.float64(3)  # in place, through the tape
    assert u is same
    u[0] = np.float64(9)
    ac.sum(u).backward()
    assert_matches_numpy(t2.grad, np.array([0.0, 3.0, 3.0]))


def test_numpy_reads_arraycore_dtypes():
    """DType.dtype: NumPy accepts arraycore dtypes wherever it takes a dtype (scikit-learn
    with dispatch off calls NumPy's astype with the input's dtype)."""
    for name in DTYPE_NAMES:
        d = getattr(ac, name)
        assert np.dtype(d) == np.dtype(name)
        assert np.ones(2).astype(d).dtype == np.dtype(name)
        assert np.zeros(2, dtype=d).dtype == np.dtype(name)


def test_where_with_numpy_bool_condition():
    x = ac.asarray([1.0, 2.0])
    assert_matches_numpy(ac.where(np.bool_(True), x, np.float32(0)),
                         np.where(np.bool_(True), np.asarray(x), np.float32(0)))


@pytest.mark.parametrize("t", [np.float32, np.float64, np.int64, np.int8, np.bool_,
                               np.complex64], ids=lambda t: np.dtype(t).name)
def test_grad_of_functions_called_with_numpy_scalars(t):
    """ac.<f>(tracer, np_scalar) under grad: the same derivative as with the 0-d array of the
    scalar's dtype (what the implementation makes of it), in both argument orders."""
    x = ac.asarray([0.5, 1.0, 2.0])
    s = t(2) if np.dtype(t).kind != "b" else t(True)
    c = ac.asarray(s)
    fns = [ac.multiply, ac.add, ac.subtract, ac.divide, ac.pow]
    if np.dtype(t).kind != "c":
        fns += [ac.maximum, ac.minimum, ac.atan2, ac.hypot]
    for f in fns:
        for order in (lambda v, k: f(v, k), lambda v, k: f(k, v)):
            def loss(v, k):
                y = order(v, k)
                return ac.sum(ac.real(y) if y.dtype.kind == "c" else y)
            got = ac.func.grad(lambda v: loss(v, s))(x)
            expected = ac.func.grad(lambda v: loss(v, c if t is not np.bool_ else True))(x)
            assert_matches_numpy(got, np.asarray(expected))


def test_statistics_and_utility_arguments(rng):
    x_np = rng.uniform(size=7).astype(np.float32)
    x = ac.asarray(x_np)
    assert_matches_numpy(ac.var(x, correction=np.int64(1)), np.var(x_np, ddof=1), rtol=1e-5)
    assert_matches_numpy(ac.std(x, correction=np.float32(0.5)), np.std(x_np, ddof=0.5),
                         rtol=1e-5)
    for v in (np.float64(0.5), np.int8(1), np.float32(2)):
        assert_matches_numpy(ac.diff(x, prepend=v), np.diff(x_np, prepend=v), rtol=1e-6)
        assert_matches_numpy(ac.diff(x, append=v), np.diff(x_np, append=v), rtol=1e-6)


def test_backward_with_numpy_scalar_seed():
    t = ac.asarray(2.0)
    t.requires_grad_()
    (t * t).backward(np.float32(3))
    assert_matches_numpy(t.grad, np.asarray(12.0))


def test_numpy_array_subclass_operands():
    """ndarray subclasses are operands too (np.matrix as its 2-D array); a masked array is
    not (its mask would be lost): `x + masked` stays NumPy's masked result."""
    m = np.asmatrix(np.arange(4.0).reshape(2, 2))
    x = ac.ones((2, 2))
    assert_matches_numpy(m + x, np.asarray(m) + 1)
    assert_matches_numpy(x * m, np.asarray(m))
    masked = np.ma.masked_array([1.0, 2.0], mask=[True, False])
    r = ac.ones(2) + masked
    assert isinstance(r, np.ma.MaskedArray)
    assert r.mask.tolist() == [True, False]
