"""The native fast paths (bindings/bind_fast_calls.cpp: FastFunction, the operators' number
slots and comparisons) against the Python functions they stand in front of.

A fast path may only skip Python frames: for every call it takes, the result (values to the
bit, dtype, shape, strides) and every error (type and message) must be what the Python path
gives.  Each test below makes the same call twice, once through the public function or
operator and once through the pure-Python function (`python_path`), over every elementwise
function, every dtype, weak Python scalars of every kind and range, and the layouts the
engine distinguishes; creation functions over every accepted and rejected argument form.
Then: arrays with tape state and tracers still go through autodiff, arrays created inside a
transform are still tagged, the FastFunction objects behave like functions (names, doc,
signature, pickling), and fuzzed calls never take the interpreter down.
"""

from __future__ import annotations

import copy
import inspect
import itertools
import math
import pickle
import random
import threading
import warnings

import numpy as np
import pytest

import arraycore as ac
from arraycore._core import dtypes as D
from arraycore._core.op_table import OPS
from arraycore.array_api import _creation
from arraycore.autodiff.state import STATE
from arraycore.native import _native
from conftest import DTYPE_NAMES, random_numpy

FastFunction = _native.FastFunction
ELEMENTWISE = sorted(n for n, op in OPS.items()
                     if op.family == "elementwise" and hasattr(ac, n) and n != "clip")
FAST_ELEMENTWISE = [n for n in ELEMENTWISE if type(getattr(ac, n)) is FastFunction]
UNARY = [n for n in FAST_ELEMENTWISE if OPS[n].arity == 1]
BINARY = [n for n in FAST_ELEMENTWISE if OPS[n].arity == 2]
CREATION = ["empty", "zeros", "ones", "full"]
LIKE = ["empty_like", "zeros_like", "ones_like", "full_like"]

SCALARS = [True, False, 0, 1, -1, 2, 7, 127, 128, 255, 256, 300, -129, 2 ** 31, 2 ** 63 - 1,
           2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63, -2 ** 63 - 1, 10 ** 30, 10 ** 400, 0.0,
           -0.0, 0.5, 1.5, -2.5, 1e300, 3.4e38, 1e-320, math.nan, math.inf, -math.inf, 1j,
           1 + 2j, complex(math.nan, 1)]

OPERATORS = {  # operator -> the namespace function it computes (reflected: swapped args)
    "+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "floor_divide",
    "%": "remainder", "&": "bitwise_and", "|": "bitwise_or", "^": "bitwise_xor",
    "<<": "bitwise_left_shift", ">>": "bitwise_right_shift", "<": "less",
    "<=": "less_equal", ">": "greater", ">=": "greater_equal", "==": "equal",
    "!=": "not_equal", "**": "pow"}
OPERATOR_FUNCS = {op: eval(f"lambda a, b: a {op} b") for op in OPERATORS}  # noqa: S307


# --- helpers -----------------------------------------------------------------------------

def python_path(name):
    """The pure-Python namespace function behind ac.<name>'s fast paths."""
    f = getattr(ac, name)
    while True:
        if type(f) is FastFunction:
            f = f.fallback if f.__wrapped__ is None else f.__wrapped__
        elif hasattr(f, "__wrapped__"):
            f = f.__wrapped__
        else:
            return f


def elementwise_python(name):
    """The L2 function (validate, promote, kernel) behind ac.<name>: the fallback of the
    innermost FastFunction."""
    impl = getattr(ac, name).__wrapped__
    return impl.fallback if type(impl) is FastFunction else impl


def outcome(fn, *args, **kwargs):
    """('ok', dtype, shape, strides, bytes) or ('err', type, message)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            return ("err", type(e), str(e))
    if type(r) is not ac.Array:
        return ("value", type(r), repr(r))
    a = np.asarray(r)
    return ("ok", r.dtype, r.shape, r._strides, a.tobytes())


def same(fast, slow, *args, **kwargs):
    a = outcome(fast, *args, **kwargs)
    b = outcome(slow, *args, **kwargs)
    assert a == b, (args, kwargs, a[:3], b[:3])
    return a


def layouts(dtype, rng):
    """(name, array) for the layouts a fast path could get wrong."""
    base = random_numpy((6, 8), dtype, rng, -5, 5)
    x = ac.asarray(base.copy())
    yield "contiguous", x
    yield "0d", ac.asarray(random_numpy((), dtype, rng, -5, 5))
    yield "empty", ac.asarray(random_numpy((0, 3), dtype, rng))
    yield "transposed", x.mT
    yield "strided", x[::2, 1::3]
    yield "negative", x[::-1, ::-2]
    yield "stride0", ac.broadcast_to(x[:1], (6, 8))


# --- elementwise functions ----------------------------------------------------------------

def test_fast_functions_are_installed():
    # the namespace functions with a fast path: every elementwise function but clip and the
    # logical ones (which convert to bool first)
    missing = [n for n in ELEMENTWISE
               if type(getattr(ac, n)) is not FastFunction and not n.startswith("logical_")]
    assert missing == []
    for n in CREATION + LIKE:
        f = getattr(ac, n)
        assert type(f) is FastFunction and f.kind == n and f.guard is STATE


@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_python_path(name):
    fast, slow = getattr(ac, name), elementwise_python(name)
    rng = np.random.default_rng(1)
    for dt in DTYPE_NAMES:
        for _, x in layouts(dt, rng):
            same(fast, slow, x)
        same(fast, slow, ac.asarray(_special(dt)))


def _special(dt):
    d = np.dtype(dt)
    if d.kind == "b":
        return np.array([False, True])
    if d.kind in "iu":
        i = np.iinfo(d)
        return np.array([0, 1, i.max, i.min, i.max - 1], dtype=d)
    f = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-300, 1e300, -1.0, 0.5, 40.0])
    with np.errstate(all="ignore"):
        if d.kind == "c":
            z = np.empty((10, 10), dtype=d)
            z.real, z.imag = f[:, None], f[None, :]
            return z.ravel()
        return f.astype(d)


@pytest.mark.parametrize("name", BINARY)
def test_binary_arrays_match_python_path(name):
    fast, slow = getattr(ac, name), elementwise_python(name)
    rng = np.random.default_rng(2)
    for dt in DTYPE_NAMES:
        arrs = list(layouts(dt, rng))
        x = arrs[0][1]
        for _, y in arrs:
            same(fast, slow, x if y.shape == x.shape else y, y)
        same(fast, slow, x, x[0])           # broadcasting (6, 8) with (8,)
        same(fast, slow, x[:, :1], x[0])    # (6, 1) with (8,)
        same(fast, slow, arrs[1][1], x)     # 0-d with 2-d
        same(fast, slow, x, x[:3])          # shapes that do not broadcast: the same error
        same(fast, slow, x, ac.asarray(_special(dt))[:1])
        s = ac.asarray(_special(dt))
        same(fast, slow, s, s[::-1])
        for other in ("float64", "int8", "bool"):  # mixed dtypes: promotion or the error
            same(fast, slow, x, ac.asarray(random_numpy((8,), other, rng, -5, 5)))


@pytest.mark.parametrize("name", BINARY)
def test_binary_weak_scalars_match_python_path(name):
    fast, slow = getattr(ac, name), elementwise_python(name)
    rng = np.random.default_rng(3)
    for dt in DTYPE_NAMES:
        x = ac.asarray(random_numpy((5,), dt, rng, -5, 5))
        for s in SCALARS:
            same(fast, slow, x, s)
            same(fast, slow, s, x)
        same(fast, slow, x[::-2], 3)
        same(fast, slow, x[:0], 3)
        same(fast, slow, x[0], 2)
        same(fast, slow, 2, 3)                     # two scalars: the error
        same(fast, slow, x, np.float32(2.0))       # NumPy scalars are not weak scalars
        same(fast, slow, x, None)
        same(fast, slow, x, "a")
        same(fast, slow, x, [1, 2, 3, 4, 5])


@pytest.mark.parametrize("op", list(OPERATORS))
def test_operators_match_python_path(op):
    fn = OPERATOR_FUNCS[op]
    slow = elementwise_python(OPERATORS[op])
    rng = np.random.default_rng(4)
    for dt in DTYPE_NAMES:
        arrs = list(layouts(dt, rng))
        x = arrs[0][1]
        for _, y in arrs:
            a = y if y.shape != x.shape else x
            assert outcome(fn, a, y) == outcome(slow, a, y), (op, dt)
        assert outcome(fn, x, x[:3])[:2] == outcome(slow, x, x[:3])[:2]  # the error type
        for s in SCALARS:
            assert outcome(fn, x, s) == outcome(slow, x, s), (op, dt, s)
            if op not in ("<", "<=", ">", ">=", "==", "!="):
                r = outcome(fn, s, x)
                assert r == outcome(slow, s, x) or r[0] == "err", (op, dt, s)
            else:  # s < x is x > s (Python reflects comparisons)
                refl = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
                assert outcome(fn, s, x) == outcome(OPERATOR_FUNCS[refl[op]], x, s)


def _np_result(op, a, s):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return OPERATOR_FUNCS[op](a, s)
        except Exception as e:  # noqa: BLE001
            return e


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "<", "==", "&", "//"])
@pytest.mark.parametrize("dt", DTYPE_NAMES)
def test_operators_with_scalars_match_numpy(op, dt):
    """Weak scalars as NumPy 2 (NEP 50) treats them: the result dtype, the values, and
    out-of-range integers (int8 + 300, uint8 + -1) as an OverflowError."""
    rng = np.random.default_rng(5)
    a = random_numpy((7,), dt, rng, 1, 9)
    x = ac.asarray(a)
    for s in [True, 0, 1, -1, 3, 300, -129, 2 ** 64, 0.5, -2.5, math.nan, math.inf, 2j]:
        ref = _np_result(op, a, s)
        got = outcome(OPERATOR_FUNCS[op], x, s)
        if isinstance(ref, Exception):
            assert got[0] == "err", (op, dt, s, ref)
            if isinstance(ref, OverflowError):
                assert got[1] is OverflowError, (op, dt, s, got)
            continue
        if got[0] == "err" and got[1] is OverflowError and op in ("<", "==") and \
                type(s) is int and np.dtype(dt).kind in "iu":
            # NumPy 2 compares an integer array with an out-of-range Python int; arraycore's
            # Python path (from_scalar) raises OverflowError, fast path or not
            continue
        if got[0] == "err":
            # arraycore refuses some mixes NumPy allows (bool arithmetic, bitwise ops on
            # floats are TypeErrors in both): only type errors, never wrong values
            assert got[1] is TypeError, (op, dt, s, got)
            continue
        r = OPERATOR_FUNCS[op](x, s)
        assert np.dtype(r.dtype.name) == ref.dtype, (op, dt, s, r.dtype, ref.dtype)
        np.testing.assert_allclose(np.asarray(r), ref, rtol=1e-6, equal_nan=True)


# --- creation -----------------------------------------------------------------------------

SHAPES = [8, 0, (), (8,), [8], (2, 3), [2, 3], (0, 4), (1,) * 10, np.int64(3), (np.int32(2), 3),
          np.uint8(4), True, (True, 2), (2, False), -1, (2, -1), 2.0, (2.0,), "3", None,
          (2 ** 31, 0), (2 ** 62,), (2 ** 63,), (2 ** 40, 2 ** 40), (2 ** 64,), ((2,),),
          (1,) * 64, (1,) * 65, range(3), np.array([2, 3])]
DTYPES = [None, *(getattr(ac, n) for n in DTYPE_NAMES), "float32", "int8", np.float32,
          np.dtype("int16"), "float16", "nope", int, float]
DEVICES = [None, ac.asarray(1.0).device, "cpu", "gpu", 0]


def _sanitize_outcome(r, kind):
    # empty arrays hold whatever the allocator returned: compare everything but the bytes
    return r[:4] if r[0] == "ok" and kind.startswith("empty") else r


@pytest.mark.parametrize("name", CREATION)
def test_creation_matches_python_path(name):
    fast, slow = getattr(ac, name), python_path(name)
    assert type(fast) is FastFunction and not isinstance(slow, FastFunction)
    fills = [()] if name != "full" else [(v,) for v in (0, 1, -1, 7, 300, 2 ** 64, -2 ** 63,
                                                        True, False, 0.5, -0.0, math.nan,
                                                        math.inf, 1e300, 2j, None, "x",
                                                        np.float32(2.5), ac.asarray(3.0))]
    for shape, fill in itertools.product(SHAPES, fills):
        if _too_big(shape):
            continue
        for dtype in DTYPES:
            kw = {} if dtype is None else {"dtype": dtype}
            a = outcome(fast, shape, *fill, **kw)
            b = outcome(slow, shape, *fill, **kw)
            assert _sanitize_outcome(a, name) == _sanitize_outcome(b, name), \
                (shape, fill, dtype, a[:3], b[:3])
    for device in DEVICES:
        a = outcome(fast, (2,), *fills[0], device=device)
        assert _sanitize_outcome(a, name) == _sanitize_outcome(
            outcome(slow, (2,), *fills[0], device=device), name)
    # keywords, and positional forms the signature rejects, go to the Python function
    for args, kw in [(((2,),), {"dtype": ac.float32, "device": None}),
                     ((), {"shape": (2,)}), (((2,), ac.float32), {}), ((), {}),
                     (((2,),), {"bogus": 1}), (((2,),), {"dtype": None, "copy": True})]:
        if name == "full" and len(args) == 1 and "shape" not in kw:
            args = args + (1.5,)
        a, b = outcome(fast, *args, **kw), outcome(slow, *args, **kw)
        assert _sanitize_outcome(a, name) == _sanitize_outcome(b, name), (args, kw, a, b)


def _too_big(shape):
    """Shapes that fit int64 but not in memory are not worth allocating twice."""
    if not isinstance(shape, tuple) or not all(type(d) is int for d in shape):
        return False
    n = 1
    for d in shape:
        n *= max(d, 0)
    return 2 ** 31 < n < 2 ** 63 // 16


def test_creation_errors_for_huge_shapes():
    for name in CREATION:
        fast, slow = getattr(ac, name), python_path(name)
        args = (1.0,) if name == "full" else ()
        for shape in [(2 ** 63,), (2 ** 64,), (2 ** 40, 2 ** 40), (2 ** 62,), (-1,)]:
            a, b = outcome(fast, shape, *args), outcome(slow, shape, *args)
            assert a[0] == "err" and a == b, (name, shape, a, b)
        a = outcome(fast, (2 ** 62,), 300, dtype=ac.int8) if name == "full" else None
        if a is not None:  # the fill value is checked before anything is allocated
            assert a == outcome(slow, (2 ** 62,), 300, dtype=ac.int8) and a[1] is OverflowError


@pytest.mark.parametrize("name", LIKE)
def test_like_matches_python_path(name):
    fast, slow = getattr(ac, name), python_path(name)
    rng = np.random.default_rng(6)
    fills = [()] if name != "full_like" else [(v,) for v in (0, 3, -1, 300, True, 0.5,
                                                             math.nan, 2j, "x", None)]
    for dt in DTYPE_NAMES:
        for _, x in layouts(dt, rng):
            for fill in fills:
                for dtype in [None, ac.float32, ac.int8, ac.bool, "int16", np.float64, "nope"]:
                    kw = {} if dtype is None else {"dtype": dtype}
                    a, b = outcome(fast, x, *fill, **kw), outcome(slow, x, *fill, **kw)
                    assert _sanitize_outcome(a, name) == _sanitize_outcome(b, name), \
                        (dt, fill, dtype, a[:3], b[:3])
    x = ac.ones((2, 3))
    args = (2.0,) if name == "full_like" else ()
    for bad in [np.ones((2, 3)), [1.0, 2.0], 3.0, None]:
        assert outcome(fast, bad, *args) == outcome(slow, bad, *args)
    for device in DEVICES:
        assert _sanitize_outcome(outcome(fast, x, *args, device=device), name) == \
            _sanitize_outcome(outcome(slow, x, *args, device=device), name)
    if name == "full_like":
        assert outcome(fast, x, fill_value=4) == outcome(slow, x, fill_value=4)


def test_creation_values_match_numpy():
    for shape in [8, (2, 3), (0,), ()]:
        for dt in DTYPE_NAMES:
            d = getattr(ac, dt)
            np.testing.assert_array_equal(np.asarray(ac.zeros(shape, dtype=d)),
                                          np.zeros(shape, dtype=dt))
            np.testing.assert_array_equal(np.asarray(ac.ones(shape, dtype=d)),
                                          np.ones(shape, dtype=dt))
            assert ac.empty(shape, dtype=d).shape == np.empty(shape).shape
            assert ac.zeros_like(ac.ones(shape, dtype=d)).dtype is d
    for v in (7, True, 2.5, -0.0):
        r, ref = ac.full((3,), v), np.full((3,), v)
        assert np.dtype(r.dtype.name) == ref.dtype
        np.testing.assert_array_equal(np.asarray(r), ref)
    big = ac.full((1 << 15,), 2.5, dtype=ac.float32)  # the parallel fill
    assert np.all(np.asarray(big) == 2.5)
    assert np.all(np.asarray(ac.ones_like(big[::-3])) == 1) and ac.ones_like(big[::-3])._c_contiguous


# --- autodiff goes through ----------------------------------------------------------------

def test_tape_arrays_take_the_autodiff_path():
    x = ac.asarray([0.5, 1.0, 2.0])
    x.requires_grad_()
    y = ac.sin(x) * 2.0 + x * x - 1 + ac.multiply(3, x) + ac.add(x, True) + 0.5 / x
    assert y.grad_fn is not None
    ac.sum(y).backward()
    xv = np.array([0.5, 1.0, 2.0])
    np.testing.assert_allclose(np.asarray(x.grad),
                               2 * np.cos(xv) + 2 * xv + 3 + 1 - 0.5 / xv ** 2, rtol=1e-12)
    z = ac.zeros_like(x)
    assert not z.requires_grad and z.grad_fn is None
    f = ac.full_like(x, 2.0)
    assert not f.requires_grad and np.all(np.asarray(f) == 2.0)
    assert (x < 1.0).dtype == ac.bool


def test_tracers_take_the_autodiff_path():
    def f(v):
        return ac.sum(ac.exp(v) * 0.5 + v * v + ac.zeros_like(v) + ac.ones(v.shape) * v
                      + ac.full_like(v, 2.0) * v - ac.subtract(1.0, v))
    v = ac.asarray([0.1, -0.3, 0.7])
    g = ac.func.grad(f)(v)
    vv = np.array([0.1, -0.3, 0.7])
    np.testing.assert_allclose(np.asarray(g), 0.5 * np.exp(vv) + 2 * vv + 1 + 2 + 1,
                               rtol=1e-12)
    batched = ac.func.vmap(lambda r: ac.add(r, 1.0) * r)(ac.asarray([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(np.asarray(batched), [[2.0, 6.0], [12.0, 20.0]])
    per = ac.func.vmap(ac.func.grad(lambda r: ac.sum(ac.sin(r) * r)))(ac.ones((4, 3)))
    np.testing.assert_allclose(np.asarray(per), np.full((4, 3), np.cos(1.0) + np.sin(1.0)))


@pytest.mark.parametrize("make", [
    lambda v: ac.zeros((3,)), lambda v: ac.ones(3), lambda v: ac.empty((3,)),
    lambda v: ac.full((3,), 0.0), lambda v: ac.zeros_like(ac.ones(3)),
    lambda v: ac.full_like(ac.ones(3), 1.0, dtype=ac.float64),
    lambda v: ac.ones_like(ac.ones(3)), lambda v: ac.empty_like(ac.ones(3))])
def test_arrays_created_inside_vmap_become_batched(make):
    def f(v):
        out = make(v)
        out[...] = v * 2.0
        return out
    r = ac.func.vmap(f)(ac.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    np.testing.assert_array_equal(np.asarray(r), [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]])


def test_creation_outside_transforms_is_untagged_and_inside_tagged():
    assert ac.zeros((2,))._born is None and ac.zeros_like(ac.ones(2))._born is None
    seen = []
    ac.func.vmap(lambda v: (seen.append((ac.zeros((2,)), ac.full_like(ac.ones(2), 1.0))),
                            v)[1])(ac.ones((3, 2)))
    assert all(a._born is not None for a in seen[0])
    assert ac.zeros((2,))._born is None  # and untagged again afterwards


class _Level:
    level = 12345


def test_guard_reads_the_current_stack(monkeypatch):
    """The guard's per-thread cache must see STATE.stack replaced, not only appended to."""
    assert ac.zeros(2)._born is None
    monkeypatch.setattr(STATE, "stack", [_Level()])
    assert ac.zeros(2)._born == 12345 and ac.ones_like(ac.asarray([1.0]))._born == 12345
    monkeypatch.setattr(STATE, "stack", [])
    assert ac.zeros(2)._born is None


def test_guard_is_per_thread():
    inside, release, results = threading.Event(), threading.Event(), {}

    def in_transform():
        def f(v):
            inside.set()
            release.wait(10)
            results["main"] = ac.zeros((2,))._born
            return v
        ac.func.vmap(f)(ac.ones((2, 2)))

    t = threading.Thread(target=in_transform)
    t.start()
    assert inside.wait(10)
    try:
        results["other"] = ac.zeros((2,))._born  # this thread has no transform active
        results["other_like"] = ac.zeros_like(ac.ones(2))._born
    finally:
        release.set()
        t.join(10)
    assert results["other"] is None and results["other_like"] is None
    assert results["main"] is not None


def test_guard_in_a_fresh_thread():
    out = []
    t = threading.Thread(target=lambda: out.append((ac.zeros(3)._born, np.asarray(ac.ones(2)))))
    t.start()
    t.join(10)
    assert out[0][0] is None and list(out[0][1]) == [1.0, 1.0]


def test_guard_objects():
    class G:
        stack = []
    f = _native.fast_function("zeros", None, 0, lambda *a, **k: "fallback", guard=G())
    assert type(f((2,))) is ac.Array
    G.stack = [1]
    assert f((2,)) == "fallback"

    class NoStack:
        pass
    f = _native.fast_function("zeros", None, 0, lambda *a, **k: "fallback", guard=NoStack())
    assert f((2,)) == "fallback"
    f = _native.fast_function("zeros", None, 0, lambda *a, **k: "fallback", guard=None)
    assert type(f((2,))) is ac.Array


# --- the FastFunction objects -------------------------------------------------------------

@pytest.mark.parametrize("name", ["sin", "add", "equal", "zeros", "full", "zeros_like",
                                  "full_like"])
def test_fast_function_attributes(name):
    f = getattr(ac, name)
    py = python_path(name)
    assert f.__name__ == name and f.__qualname__ == name and f.__module__ == "arraycore"
    assert f.__doc__ == py.__doc__ and f.__doc__
    assert repr(f) == f"<arraycore function {name}>"
    assert inspect.signature(f) == inspect.signature(py)
    assert callable(f) and not inspect.isclass(f)
    assert pickle.loads(pickle.dumps(f)) is f
    assert copy.copy(f) is f and copy.deepcopy(f) is f
    assert f.kind in ("unary", "binary", name)
    assert callable(f.fallback)
    f.custom_attribute = 1  # functions take attributes (functools.wraps copies __dict__)
    assert f.__dict__["custom_attribute"] == 1
    del f.custom_attribute

    @__import__("functools").wraps(f)
    def wrapper(*a, **k):
        return f(*a, **k)
    assert wrapper.__name__ == name and wrapper.__wrapped__ is f


def test_fast_function_construction_errors():
    with pytest.raises(ValueError, match="unknown kind"):
        _native.fast_function("nope", None, 0, print)
    with pytest.raises(TypeError, match="callable"):
        _native.fast_function("zeros", None, 0, 3)
    with pytest.raises(ValueError, match="arity"):
        _native.fast_function("unary", _native.kernel("add"), 0, print)
    with pytest.raises(TypeError):
        _native.fast_function("unary", None, 0, print)


def test_calls_with_the_wrong_arguments_match_python_path():
    for name in ["sin", "add", "zeros", "full", "zeros_like"]:
        fast, slow = getattr(ac, name), python_path(name)
        for args, kw in [((), {}), ((1, 2, 3), {}), ((ac.ones(2),), {"x": 1}),
                         ((ac.ones(2), ac.ones(2)), {}), ((ac.ones(2),), {})]:
            a, b = outcome(fast, *args, **kw), outcome(slow, *args, **kw)
            assert a[:2] == b[:2], (name, args, kw, a, b)


# --- fuzzing ------------------------------------------------------------------------------

def _fuzz_values(rng):
    vals = list(SCALARS) + [None, "x", b"y", [1, 2], (3,), {}, object(), np.float64(1.5),
                            np.int8(3), np.ones(3), ac.ones(3), ac.asarray(2),
                            ac.asarray([1, 2, 3], dtype=ac.uint8), ac.ones((2, 3))[:, ::-1],
                            ac.zeros((0,)), ac.asarray([True]), ac.asarray([1j]),
                            ac.ones((3, 1), dtype=ac.float32), ac.ones(2) if False else ac.e]
    t = ac.ones(3)
    t.requires_grad_()
    vals.append(t)
    return vals


def test_fuzzed_calls_never_crash_and_match_python_path():
    rng = random.Random(7)
    vals = _fuzz_values(rng)
    names = FAST_ELEMENTWISE + CREATION + LIKE
    mismatches = []
    for _ in range(6000):
        name = rng.choice(names)
        nargs = rng.choice([0, 1, 1, 2, 2, 2, 3])
        args = [rng.choice(vals) for _ in range(nargs)]
        kw = {}
        if rng.random() < 0.2:
            kw[rng.choice(["dtype", "device", "x", "copy"])] = rng.choice(
                [None, ac.float32, "int8", "cpu", 3, ac.bool])
        if name in CREATION and any(type(v) is int and 1 << 20 <= v < 1 << 62 for v in args):
            continue  # a valid shape of gigabytes: nothing to learn from allocating it
        fast, slow = getattr(ac, name), python_path(name)
        a, b = outcome(fast, *args, **kw), outcome(slow, *args, **kw)
        if name.startswith("empty"):
            a, b = a[:4], b[:4]
        if a != b and not (a[0] == b[0] == "err" and a[1] is b[1]):
            mismatches.append((name, args, kw, a[:3], b[:3]))
    assert mismatches == []
    # operators (Python sequences and strings left out: "x" * 2**63 is Python's business)
    operands = [v for v in vals if type(v) not in (str, bytes, list, tuple, dict)]
    for _ in range(3000):
        op = rng.choice(list(OPERATORS))
        x, y = rng.choice(operands), rng.choice(operands)
        if type(x) is not ac.Array and type(y) is not ac.Array:
            continue  # Python's own arithmetic (2**64 ** 10**400 would take forever)
        outcome(OPERATOR_FUNCS[op], x, y)
