"""Every elementwise function against NumPy, driven by the op table (tests/op_info.py).

For each op and each dtype its category allows: random values in its domain on every layout
of op_info.LAYOUTS, broadcasting pairs, IEEE special values, promotion for every dtype pair
and for Python scalars, integer/bool inputs of float-only functions, and rejected dtypes.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import arraycore as ac
from arraycore._core import dtypes as D

from op_info import (BROADCAST_PAIRS, ELEMENTWISE, ELEMENTWISE_IDS, LAYOUT_IDS, LAYOUTS,
                     accepted_dtypes, make_operand, np_dtype, random_values, reference,
                     special_values, to_ac)


def call_ref(op, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(reference(op)(*args))


def call_ac(op, *args):
    return getattr(ac, op.name)(*args)


def tolerance(op, dtype):
    if dtype.kind in "biu":
        return 0.0, 0.0
    single = dtype.name in ("float32", "complex64")
    return (op.test.rtol if single else op.test.rtol64), op.test.atol


def assert_matches(op, got, want, dtype, check_zero_sign=False):
    got_np = np.asarray(got)
    assert got_np.dtype == want.dtype, f"{op.name}: dtype {got_np.dtype} != NumPy's {want.dtype}"
    assert got_np.shape == want.shape, f"{op.name}: shape {got_np.shape} != {want.shape}"
    # A float result of integer input (pow(int array, 1.5)) is a float computation: the
    # result's tolerance, not the exactness of integer arithmetic.
    rtol, atol = tolerance(op, want.dtype if dtype.kind in "biu" and want.dtype.kind in "fc"
                           else dtype)
    if want.dtype.kind in "fc":
        # Relative to the magnitude, so complex results near zero in one part still compare.
        with np.errstate(all="ignore"):
            scale = np.abs(want).astype(np.float64)
        _assert_close_scaled(op, got_np, want, rtol, atol, scale)
        if check_zero_sign and want.dtype.kind == "f":
            zeros = (want == 0) & (got_np == 0)
            assert np.array_equal(np.signbit(got_np[zeros]), np.signbit(want[zeros])), \
                f"{op.name} {dtype}: sign of zero differs"
    else:
        np.testing.assert_array_equal(got_np, want, err_msg=f"{op.name} {dtype}")


def _assert_close_scaled(op, got, want, rtol, atol, scale):
    with np.errstate(all="ignore"):
        for part in ((lambda z: z.real, lambda z: z.imag) if want.dtype.kind == "c"
                     else (lambda z: z,)):
            g, w = part(got).astype(np.float64), part(want).astype(np.float64)
            both_nan = np.isnan(g) & np.isnan(w)
            same_inf = np.isinf(w) & (g == w)
            err = np.abs(g - w)
            ok = both_nan | same_inf | (err <= atol + rtol * np.fmax(scale, np.abs(w)))
            if not ok.all():
                i = np.flatnonzero(~ok)[:5]
                raise AssertionError(f"{op.name} {want.dtype}: mismatches at {i}: got "
                                     f"{got.ravel()[i]}, want {want.ravel()[i]}")


def op_dtype_cases():
    for op in ELEMENTWISE:
        for d in accepted_dtypes(op):
            yield pytest.param(op, d, id=f"{op.name}-{d.name}")


def run_op(op, np_args, ac_args):
    return call_ac(op, *ac_args), call_ref(op, *np_args)


@pytest.mark.parametrize("op,dtype", list(op_dtype_cases()))
def test_values_on_every_layout(op, dtype):
    rng = np.random.default_rng(abs(hash((op.name, dtype.name))) % 2**32)
    for layout in LAYOUTS:
        if layout.large and dtype.name not in ("float32", "float64", "int32", "complex128"):
            continue  # the worker split is dtype-independent; keep the suite fast
        pairs = [make_operand(op, dtype, layout, rng, operand=i) for i in range(op.arity)]
        np_args = [p[0] for p in pairs]
        ac_args = [p[1] for p in pairs]
        if op.name == "clip":
            lo = np.minimum(np_args[1], np_args[2])
            hi = np.maximum(np_args[1], np_args[2])
            np_args = [np_args[0], lo, hi]
            ac_args = [ac_args[0], to_ac(lo), to_ac(hi)]
        got, want = run_op(op, np_args, ac_args)
        assert_matches(op, got, want, dtype)


@pytest.mark.parametrize("op,dtype", [c for c in op_dtype_cases() if c.values[0].arity == 2])
def test_broadcasting(op, dtype):
    rng = np.random.default_rng(1)
    for s1, s2 in BROADCAST_PAIRS:
        a = random_values(op, dtype, s1, rng, 0)
        b = random_values(op, dtype, s2, rng, 1)
        assert_matches(op, call_ac(op, to_ac(a), to_ac(b)), call_ref(op, a, b), dtype)
        if not (op.test.small_ints or op.test.nonzero_rhs):  # operand roles are symmetric
            assert_matches(op, call_ac(op, to_ac(b), to_ac(a)), call_ref(op, b, a), dtype)


@pytest.mark.parametrize("op,dtype", [c for c in op_dtype_cases() if c.values[0].arity == 2])
def test_shapes_that_do_not_broadcast(op, dtype):
    a = to_ac(np.zeros((3,), dtype=np_dtype(dtype)))
    b = to_ac(np.ones((4,), dtype=np_dtype(dtype)))
    with pytest.raises(ValueError, match=op.name):
        call_ac(op, a, b)


# Where the Array API's special-case tables differ from NumPy, the standard wins.  For these
# (op, dtype kind) pairs the NumPy comparison covers finite inputs only; the standard's own
# entries are checked in test_standard_special_cases_where_numpy_differs.
SPECIAL_DEVIATIONS = {
    ("expm1", "c"): "C99/NumPy give nan imaginary parts where the standard gives 0",
    ("sign", "c"): "the standard makes any NaN part give nan+nanj; NumPy gives 1+0j for inf+nanj",
    ("floor_divide", "f"): "the standard gives inf // 2 = inf and 1 // -inf = -0; NumPy nan, -1",
}


@pytest.mark.parametrize("op,dtype", [c for c in op_dtype_cases()
                                      if c.values[1].kind in "fc" and c.values[0].name != "clip"])
def test_ieee_special_values(op, dtype):
    v = special_values(dtype)
    if op.arity == 1:
        np_args = [v]
    else:
        a, b = np.meshgrid(v, v)
        np_args = [a.ravel(), b.ravel()]
    if (op.name, dtype.kind) in SPECIAL_DEVIATIONS:
        np_args = [a[np.isfinite(a)] for a in np_args]
    want = call_ref(op, *np_args)
    got = call_ac(op, *[to_ac(x) for x in np_args])
    assert_matches(op, got, want, dtype, check_zero_sign=True)


NAN = float("nan")
INF = float("inf")
# (function, input, the standard's result) from the 2025.12 special-case tables.
STANDARD_SPECIAL_CASES = [
    ("expm1", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("expm1", complex(-0.0, 0.0), complex(0.0, 0.0)),
    ("expm1", complex(INF, 0.0), complex(INF, 0.0)),
    ("expm1", complex(NAN, 0.0), complex(NAN, 0.0)),
    ("expm1", complex(-INF, INF), complex(-1.0, 0.0)),
    ("expm1", complex(-INF, NAN), complex(-1.0, 0.0)),
    ("expm1", complex(INF, NAN), complex(INF, NAN)),
    ("sign", complex(INF, NAN), complex(NAN, NAN)),
    ("sign", complex(NAN, 1.0), complex(NAN, NAN)),
    ("sign", complex(0.0, 0.0), complex(0.0, 0.0)),
    ("sign", complex(3.0, 4.0), complex(0.6, 0.8)),
    ("log", complex(-0.0, 0.0), complex(-INF, 3.141592653589793)),
    ("sqrt", complex(-0.0, 0.0), complex(0.0, 0.0)),
    ("exp", complex(INF, NAN), complex(INF, NAN)),
    ("tanh", complex(INF, NAN), complex(1.0, 0.0)),
    ("tanh", complex(INF, 3.141592653589793), complex(1.0, 0.0)),  # C99 gives 1 - 0j
    ("tanh", complex(-INF, -1.0), complex(-1.0, -0.0)),
    ("atanh", complex(1.0, 0.0), complex(INF, 0.0)),
]


REAL_SPECIAL_CASES = [  # (function, x1, x2, the standard's result)
    ("floor_divide", INF, 2.0, INF),
    ("floor_divide", INF, -2.0, -INF),
    ("floor_divide", -INF, 2.0, -INF),
    ("floor_divide", 1.0, -INF, -0.0),
    ("floor_divide", -1.0, INF, -0.0),
    ("floor_divide", 1.0, INF, 0.0),
    ("floor_divide", 7.0, 2.0, 3.0),
    ("floor_divide", -7.0, 2.0, -4.0),
]


@pytest.mark.parametrize("dtype", [ac.float32, ac.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("name,a,b,want", REAL_SPECIAL_CASES,
                         ids=[f"{n}({a},{b})" for n, a, b, _ in REAL_SPECIAL_CASES])
def test_standard_real_special_cases_where_numpy_differs(name, a, b, want, dtype):
    got = float(getattr(ac, name)(ac.asarray(a, dtype=dtype), ac.asarray(b, dtype=dtype)))
    assert got == want and np.signbit(got) == np.signbit(want), f"{name}({a}, {b}) = {got}"


@pytest.mark.parametrize("dtype", [ac.complex64, ac.complex128], ids=["c64", "c128"])
@pytest.mark.parametrize("name,z,want", STANDARD_SPECIAL_CASES,
                         ids=[f"{n}({z})" for n, z, _ in STANDARD_SPECIAL_CASES])
def test_standard_special_cases_where_numpy_differs(name, z, want, dtype):
    got = complex(getattr(ac, name)(ac.asarray(z, dtype=dtype)))
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if w != w:
            assert g != g, f"{name}({z}) = {got}, standard says {want}"
        else:
            assert g == pytest.approx(w, rel=1e-6), f"{name}({z}) = {got}, standard: {want}"
            if w == 0:
                assert np.signbit(g) == np.signbit(w), f"{name}({z}) = {got}: sign of zero"


@pytest.mark.parametrize("op,dtype", [c for c in op_dtype_cases() if c.values[1].kind in "iu"])
def test_integer_extremes(op, dtype):
    """Wraparound and edge behaviour at the integer limits match NumPy's (no C++ UB)."""
    v = special_values(dtype)
    if op.name in ("pow", "bitwise_left_shift", "bitwise_right_shift"):
        v = v[(v >= 0) & (v < 8)] if op.name != "pow" else v
    if op.arity == 1:
        np_args = [v]
    else:
        a, b = np.meshgrid(v, v)
        np_args = [a.ravel(), b.ravel()]
        if op.name in ("floor_divide", "remainder"):
            keep = np_args[1] != 0
            np_args = [np_args[0][keep], np_args[1][keep]]
        if op.name == "pow":
            keep = (np_args[1] >= 0) & (np_args[1] < 8)
            np_args = [np_args[0][keep], np_args[1][keep]]
    if op.name == "clip":
        return
    got = call_ac(op, *[to_ac(x) for x in np_args])
    assert_matches(op, got, call_ref(op, *np_args), dtype)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64"])
def test_integer_floor_divide_and_remainder_through_double(dtype):
    """Integer // and % run through one double division (int_math.h, floor_div_via_double):
    exact for |a|, |b| <= 2^53, so every integer up to 32 bits; 64-bit blocks of 256 with an
    operand beyond 2^53 take the integer division.  Random pairs (array and scalar divisors)
    plus the extremes, 0 divisors (0, as NumPy) and, for 64 bits, values at and around 2^53
    in blocks that stay on the double path and blocks that do not, against NumPy."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    n = 256 * 40
    a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    b[::3] = rng.integers(max(info.min, -300), 300, b[::3].shape).astype(dtype)  # small divisors
    ext = np.array([info.min, info.max, 0, 1, info.max // 2, info.min // 2] +
                   ([-1, -2, info.min + 1] if info.min < 0 else [2, 3]), dtype=dtype)
    a[:ext.size ** 2], b[:ext.size ** 2] = np.meshgrid(ext, ext)[0].ravel(), np.meshgrid(ext, ext)[1].ravel()
    if info.bits == 64:
        lim = 2 ** 53
        near = np.array([lim, lim - 1, lim - 7, 3, 1, 2 ** 40 + 5] +
                        ([-lim, -lim + 1, -3, -(2 ** 40) - 5] if info.min < 0 else []), dtype=dtype)
        block = slice(256 * 10, 256 * 11)  # all within 2^53: the double path, at its edges
        a[block] = rng.choice(near, 256)
        b[block] = rng.choice(near, 256)
        mixed = slice(256 * 11, 256 * 12)  # one operand past 2^53: the exact path
        a[mixed] = rng.choice(near, 256)
        a[256 * 11 + 5] = lim + 1
        b[mixed] = rng.choice(near, 256)
    with np.errstate(all="ignore"):
        for x, y in ((a, b), (a, np.asarray(b[7], dtype)), (a, np.asarray(7, dtype))):
            got_q = np.asarray(ac.floor_divide(ac.asarray(x), ac.asarray(y)))
            got_r = np.asarray(ac.remainder(ac.asarray(x), ac.asarray(y)))
            want_q = np.where(y == 0, 0, np.floor_divide(x, np.where(y == 0, 1, y)))
            want_r = np.where(y == 0, 0, np.remainder(x, np.where(y == 0, 1, y)))
            np.testing.assert_array_equal(got_q, want_q.astype(dtype))
            np.testing.assert_array_equal(got_r, want_r.astype(dtype))



@pytest.mark.parametrize("dtype", ["int64", "uint64", "int32", "uint32"])
def test_integer_divide_by_one_divisor_through_its_reciprocal(dtype):
    """32- and 64-bit // and % by one divisor multiply by a precomputed reciprocal
    (int_divide_scalar.h; 64 bits on AVX-512DQ only in blocks with a value beyond 2^53, so
    every block here has one): every divisor class (1, powers of two, odd, near 2^16, 2^32,
    2^53, 2^62, the extremes, negative) against NumPy on the full value range and its edges,
    with the vector loops' remainders (4, 8 or 16 lanes)."""
    info = np.iinfo(dtype)
    bits = info.bits
    rng = np.random.default_rng(11)
    a = rng.integers(info.min, info.max, 256 * 8 + 3, dtype=dtype, endpoint=True)
    edges = [info.min, info.max, info.max - 1, 0, 1, 2, 3, 2 ** (bits - 11) + 1,
             2 ** (bits - 2), 2 ** (bits - 1) - 1]
    if info.min < 0:
        edges += [info.min + 1, -1, -2, -3, -(2 ** (bits - 11)) - 1, -(2 ** (bits - 2))]
    a[: len(edges)] = np.array(edges, dtype=dtype)
    a[256::256] = info.max  # (64 bits) a value beyond 2^53 in every block
    divisors = [1, 2, 3, 7, 10, 641, 2 ** 15 + 1, 2 ** (bits // 2) - 1, 2 ** (bits // 2) + 1,
                2 ** (bits - 11) + 1, 2 ** (bits - 2), info.max, info.max - 1]
    if info.min < 0:
        divisors += [-1, -2, -3, -7, -(2 ** (bits // 2)) - 1, -(2 ** (bits - 2)), info.min,
                     info.min + 1]
    else:
        divisors += [2 ** (bits - 1), 2 ** (bits - 1) + 1]
    for d in divisors:
        dv = np.asarray(d, dtype=dtype)
        for n in (a.size, 21, 5, 1):
            x = a[:n]
            np.testing.assert_array_equal(np.asarray(ac.floor_divide(ac.asarray(x), ac.asarray(dv))),
                                          np.floor_divide(x, dv), err_msg=f"// {d}")
            np.testing.assert_array_equal(np.asarray(ac.remainder(ac.asarray(x), ac.asarray(dv))),
                                          np.remainder(x, dv), err_msg=f"% {d}")
    with np.errstate(all="ignore"):
        zero = np.asarray(0, dtype=dtype)
        np.testing.assert_array_equal(np.asarray(ac.floor_divide(ac.asarray(a), ac.asarray(zero))),
                                      np.zeros_like(a))
        np.testing.assert_array_equal(np.asarray(ac.remainder(ac.asarray(a), ac.asarray(zero))),
                                      np.zeros_like(a))


BINARY = [op for op in ELEMENTWISE if op.arity == 2]


@pytest.mark.parametrize("op", BINARY, ids=[op.name for op in BINARY])
def test_promotion_for_every_dtype_pair(op):
    """Result dtype for mixed-dtype arrays follows NumPy 2 (a superset of the standard's
    table); pairs outside the op's category raise TypeError."""
    kinds = D.KIND_CATEGORIES[op.accepts]
    for d1, d2 in itertools.product(D.ALL_DTYPES, repeat=2):
        a = ac.ones((2,), dtype=d1)
        b = ac.ones((2,), dtype=d2)
        common = D.promote_types(d1, d2)
        if op.name.startswith("logical_"):
            assert call_ac(op, a, b).dtype == ac.bool
            continue
        if op.int_to_float and common.kind in "biu":
            common = D.default_float
        if common.kind not in kinds:
            with pytest.raises(TypeError, match=op.name):
                call_ac(op, a, b)
            continue
        r = call_ac(op, a, b)
        expected = {"same": common, "bool": D.bool_,
                    "real": {"complex64": D.float32, "complex128": D.float64}.get(
                        common.name, common)}[op.result]
        assert r.dtype == expected, f"{op.name}({d1}, {d2}) -> {r.dtype}, want {expected}"


@pytest.mark.parametrize("op", BINARY, ids=[op.name for op in BINARY])
def test_python_scalar_operands(op):
    """Python scalars are weak (NumPy 2 / the standard): compare dtype and value with NumPy."""
    for d in accepted_dtypes(op):
        arr = np.ones((3,), dtype=np_dtype(d)) * (2 if d.kind != "b" else 1)
        x = to_ac(arr)
        for s in (True, 2, 1.5, 0.5 + 2j):
            common = D.promote_with_scalar(d, s)
            if op.int_to_float and common.kind in "biu":
                common = D.default_float
            if not op.name.startswith("logical_") and \
                    common.kind not in D.KIND_CATEGORIES[op.accepts]:
                with pytest.raises(TypeError):
                    call_ac(op, x, s)
                continue
            if op.test.small_ints and type(s) is int and d.kind in "iu":
                s = 1
            for args_np, args_ac in (((arr, s), (x, s)), ((s, arr), (s, x))):
                want = call_ref(op, *args_np)
                if op.name.startswith("logical_"):
                    want = want.astype(bool)
                assert_matches(op, call_ac(op, *args_ac), want, d)


@pytest.mark.parametrize("op", [op for op in ELEMENTWISE if op.int_to_float],
                         ids=[op.name for op in ELEMENTWISE if op.int_to_float])
def test_integer_inputs_promote_to_default_float(op):
    rng = np.random.default_rng(3)
    for d in (D.int32, D.int64, D.uint8, D.bool_):
        args = [random_values(op, d, (6,), rng, i) for i in range(op.arity)]
        got = call_ac(op, *[to_ac(a) for a in args])
        want = call_ref(op, *[a.astype(np.float64) for a in args])
        assert got.dtype == ac.float64
        assert_matches(op, got, want, D.float64)


@pytest.mark.parametrize("op", [op for op in ELEMENTWISE if not op.name.startswith("logical")
                                and not op.int_to_float],
                         ids=[op.name for op in ELEMENTWISE if not op.name.startswith("logical")
                              and not op.int_to_float])
def test_rejected_dtypes_raise_type_error(op):
    kinds = D.KIND_CATEGORIES[op.accepts]
    for d in D.ALL_DTYPES:
        if d.kind in kinds:
            continue
        args = [ac.ones((2,), dtype=d)] * op.arity
        with pytest.raises(TypeError, match=op.name):
            call_ac(op, *args)


@pytest.mark.parametrize("op", ELEMENTWISE, ids=ELEMENTWISE_IDS)
def test_non_array_input_raises_type_error(op):
    args = [[1.0, 2.0]] * op.arity
    with pytest.raises(TypeError, match=op.name):
        call_ac(op, *args)


@pytest.mark.parametrize("threads", [1, 3])
def test_short_inner_dims_walk_column_by_column(threads):
    """Walks whose inner dim has at most 8 elements under an outer one of 1024 or more run
    blocks of 256 rows one column at a time (elementwise.cpp, Note [Short inner dims]):
    broadcast rows and columns, stride-0 and negative-stride operands, repeat, an outer dim
    around them and a row count that is not a multiple of the block, split across threads,
    against NumPy."""
    rng = np.random.default_rng(1)
    before = ac.get_num_threads()
    try:
        ac.set_num_threads(threads)
        for rows, k in ((1024, 2), (5000, 3), (70001, 8), (2049, 1)):
            x = rng.standard_normal((rows, k)).astype(np.float32)
            y = rng.standard_normal((rows, k)).astype(np.float32)
            X, Y = to_ac(x), to_ac(y)
            np.testing.assert_array_equal(np.asarray(X + Y[0]), x + y[0])
            np.testing.assert_array_equal(np.asarray(X * Y[:, :1]), x * y[:, :1])
            np.testing.assert_array_equal(np.asarray(X[::-1] - Y[:, ::-1]), x[::-1] - y[:, ::-1])
            np.testing.assert_array_equal(np.asarray(ac.repeat(X[:, 0], k)), np.repeat(x[:, 0], k))
            np.testing.assert_array_equal(np.asarray(ac.asarray(X.T, copy=True).T), x)
            z = rng.standard_normal((3, rows // 3, k)).astype(np.float64)
            Z = to_ac(z)
            np.testing.assert_array_equal(np.asarray(-Z[:, ::2] * 2.5 + Z[0, :1]),
                                          -z[:, ::2] * 2.5 + z[0, :1])
    finally:
        ac.set_num_threads(before)


def test_every_worker_split_matches_single_thread():
    """The same large computation gives identical bits at 1 and at several threads."""
    x = to_ac(np.random.default_rng(0).random(3 * (1 << 17)).astype(np.float32))
    before = ac.get_num_threads()
    try:
        ac.set_num_threads(1)
        one = np.asarray(ac.sin(x) * x + x).copy()
        ac.set_num_threads(4)
        many = np.asarray(ac.sin(x) * x + x)
    finally:
        ac.set_num_threads(before)
    np.testing.assert_array_equal(one, many)


@pytest.mark.parametrize("dtype", [ac.uint8, ac.int32, ac.float32, ac.float64])
def test_clip_with_one_bound_and_broadcasting_bounds(dtype):
    """A missing bound never clips; bounds may broadcast x to a larger shape (the standard)."""
    x = np.array([0, 3, 9], dtype=np_dtype(dtype))
    assert_matches(ELEMENTWISE[ELEMENTWISE_IDS.index("clip")],
                   ac.clip(to_ac(x), 1), np.clip(x, 1, None), dtype)
    assert_matches(ELEMENTWISE[ELEMENTWISE_IDS.index("clip")],
                   ac.clip(to_ac(x), max=4), np.clip(x, None, 4), dtype)
    lo = np.array([[1], [5]], dtype=np_dtype(dtype))
    assert_matches(ELEMENTWISE[ELEMENTWISE_IDS.index("clip")],
                   ac.clip(to_ac(x), to_ac(lo)), np.clip(x, lo, None), dtype)
    assert ac.clip(ac.asarray(0, dtype=dtype), 0, ac.asarray([], dtype=dtype)).shape == (0,)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["sin", "cos", "tanh"])
def test_vectorized_transcendentals_on_every_range(name, dtype):
    """Real sin/cos/tanh run vectorized polynomial evaluations; sin/cos send blocks holding
    |x| > 2^20, inf or NaN to libm (float32 sin/cos: blocks within |x| <= 512 run in float
    arithmetic, blocks within 2^20 in double).  float32 results are within 1 ulp of the
    correctly rounded value, float64 within 2 ulp of NumPy's (libm, itself within 1 ulp), on
    every range, in blocks that mix fast and fallback inputs, with the sign of zero kept."""
    rng = np.random.default_rng(7)
    big = 38 if dtype == "float32" else 300
    parts = [rng.uniform(-10, 10, 3000), rng.uniform(-512, 512, 3000),
             rng.uniform(500, 530, 1000), rng.uniform(-2.0**20, 2.0**20, 3000),
             rng.uniform(-1e9, 1e9, 300), 10.0 ** rng.uniform(-40, big, 1000),
             -(10.0 ** rng.uniform(-40, big, 1000)),
             [0.0, -0.0, np.inf, -np.inf, np.nan, 2.0**20, -(2.0**20), 2.0**20 + 1, 3e38]]
    x = np.concatenate([np.asarray(p, dtype=np.float64) for p in parts]).astype(dtype)
    got = np.asarray(getattr(ac, name)(ac.asarray(x)))
    with np.errstate(invalid="ignore"):
        if dtype == "float32":
            want, tol = getattr(np, name)(x.astype(np.float64)).astype(np.float32), 1
        else:
            want, tol = getattr(np, name)(x), 2
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    # ulp distance on the ordered integer line (-0 and +0 are adjacent: check signs apart)
    ibits = np.int32 if dtype == "float32" else np.int64
    mag = np.iinfo(ibits).max
    g = got[ok].view(ibits).astype(np.int64)
    w = want[ok].view(ibits).astype(np.int64)
    g = np.where(g < 0, -(g & mag), g)
    w = np.where(w < 0, -(w & mag), w)
    assert np.abs(g - w).max() <= tol
    zeros = want[ok] == 0
    np.testing.assert_array_equal(np.signbit(got[ok][zeros]), np.signbit(want[ok][zeros]))


def test_tanh_float32_piece_edges_subnormals_and_layouts():
    """float32 tanh picks one polynomial piece per lane from the bits of
    t = fma(|x|, 1.640625, 1) (kernels/tanh_pieces.h, on AVX2/AVX-512 builds): every float
    within 300 ulp of each piece edge (the octave fractions of t, both signs) is within 1 ulp
    of the correctly rounded value; subnormals and signed zeros map to themselves; every
    layout (contiguous with every tail length, strided, reversed) gives the same bits."""
    edges = [(2.0**e * (1 + q / 8) - 1) / 1.640625 for e in range(4) for q in range(8)]
    edges += [9.01, 9.1]
    pts = []
    for v in edges:
        b = int(np.float32(v).view(np.int32))
        pts.append(np.arange(max(b - 300, 0), b + 300, dtype=np.int32).view(np.float32))
    x = np.concatenate(pts)
    x = np.concatenate([x, -x])
    got = np.asarray(ac.tanh(ac.asarray(x)))
    want = np.tanh(x.astype(np.float64)).astype(np.float32)
    gi, wi = got.view(np.int32).astype(np.int64), want.view(np.int32).astype(np.int64)
    assert np.abs(gi - wi).max() <= 1  # (no zero results here: same signs)
    sub = np.arange(0, 1 << 23, 4099, dtype=np.int32).view(np.float32)
    sub = np.concatenate([sub, -sub])
    np.testing.assert_array_equal(np.asarray(ac.tanh(ac.asarray(sub))).view(np.int32),
                                  sub.view(np.int32))
    rng = np.random.default_rng(11)
    y = (4 * rng.standard_normal(1000)).astype(np.float32)
    whole = np.asarray(ac.tanh(ac.asarray(y))).view(np.int32)
    for n in range(1, 40):
        np.testing.assert_array_equal(np.asarray(ac.tanh(ac.asarray(y[:n]))).view(np.int32),
                                      whole[:n])
    a = ac.asarray(y)
    np.testing.assert_array_equal(np.asarray(ac.tanh(a[::3])).view(np.int32), whole[::3])
    np.testing.assert_array_equal(np.asarray(ac.tanh(a[::-1])).view(np.int32), whole[::-1])


def test_atan2_float32_common_and_special_blocks():
    """float32 atan2 runs blocks of all-ordinary pairs (finite, |y|, |x| >= 2^-100,
    |y| != |x|) through a branch without the special-case selects (blocks of 1024, computed
    and tested in one pass): every block kind, mixed with zeros,
    infinities, NaN, equal magnitudes and tiny values, within 1 ulp of the correctly rounded
    result, and the pairs with a zero or an infinity exactly."""
    rng = np.random.default_rng(11)
    n = 1024 * 6
    y = (rng.standard_normal(n) * 10.0 ** rng.uniform(-30, 30, n)).astype(np.float32)
    x = (rng.standard_normal(n) * 10.0 ** rng.uniform(-30, 30, n)).astype(np.float32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1e-31, 3e38],
                        dtype=np.float32)
    # blocks 1 and 3 get special values, block 4 an equal-magnitude pair; 0, 2, 5 are common
    for blk, k in ((1, 0), (3, 2), (3, 4)):
        y[blk * 1024 + 17 + k] = specials[k]
        x[blk * 1024 + 700 + k] = specials[(k + 3) % specials.size]
    y[4 * 1024 + 3] = -x[4 * 1024 + 3]
    sy, sx = np.meshgrid(specials, specials)
    y = np.concatenate([y, sy.ravel()])
    x = np.concatenate([x, sx.ravel()])
    want = np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(np.float32)
    got = np.asarray(ac.atan2(ac.asarray(y), ac.asarray(x)))
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    g = got[ok].view(np.int32).astype(np.int64)
    w = want[ok].view(np.int32).astype(np.int64)
    g = np.where(g < 0, -(g & 0x7FFFFFFF), g)
    w = np.where(w < 0, -(w & 0x7FFFFFFF), w)
    assert np.abs(g - w).max() <= 1
    # pairs with a zero or an infinity: the exactly rounded 0, pi/4, pi/2, 3pi/4, pi
    exact = ~np.isfinite(y) | ~np.isfinite(x) | (y == 0) | (x == 0)
    exact &= ~np.isnan(y) & ~np.isnan(x)
    np.testing.assert_array_equal(got[exact], want[exact])
    np.testing.assert_array_equal(np.signbit(got[exact]), np.signbit(want[exact]))
