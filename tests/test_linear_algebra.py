"""linear_algebra family: matmul (and @, @=), matrix_transpose, tensordot, vecdot vs NumPy.

Every numeric dtype; 1-D, 2-D, batched and broadcast shapes; transposed, row-strided,
column-strided and negative-stride operands (BLAS takes the first two without copies);
empty dimensions (k = 0 gives zeros); integer wraparound; the errors the standard asks for.
"""

import operator

import numpy as np
import pytest

import arraycore as ac
from arraycore.native import _native
from conftest import ac_from_numpy, assert_matches_numpy, random_numpy

NUMERIC = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128"]
FLOATING = ["float32", "float64", "complex64", "complex128"]


def rand(shape, dtype, rng):
    if np.dtype(dtype).kind in "fc":
        return random_numpy(shape, dtype, rng, low=-1, high=1)
    return random_numpy(shape, dtype, rng)


def check(actual, expected, k=1):
    """Compares with tolerances that scale with the contraction length k."""
    expected = np.asarray(expected)
    if expected.dtype in (np.float32, np.complex64):
        assert_matches_numpy(actual, expected, rtol=1e-4, atol=2e-6 * max(k, 1))
    elif expected.dtype.kind in "fc":
        assert_matches_numpy(actual, expected, rtol=1e-10, atol=1e-13 * max(k, 1))
    else:
        assert_matches_numpy(actual, expected)


# ---------------------------------------------------------------- matmul: dtypes and shapes

@pytest.mark.parametrize("dtype", NUMERIC)
def test_matmul_every_numeric_dtype(dtype, rng):
    a, b = rand((4, 7), dtype, rng), rand((7, 3), dtype, rng)
    check(ac.matmul(ac_from_numpy(a), ac_from_numpy(b)), np.matmul(a, b), 7)


SHAPES = [
    ((5,), (5,)), ((5,), (5, 3)), ((4, 5), (5,)), ((1, 5), (5, 1)), ((4, 1), (1, 3)),
    ((2, 4, 5), (5, 3)), ((4, 5), (2, 5, 3)), ((2, 4, 5), (2, 5, 3)),
    ((2, 1, 4, 5), (3, 5, 6)), ((3, 1, 4, 5), (1, 2, 5, 6)), ((2, 3, 5), (5,)),
    ((5,), (2, 5, 3)), ((6, 1, 5), (5, 4)), ((70, 80), (80, 90)),
    # empty dimensions: k = 0 gives zeros, m/n/batch = 0 give empty results
    ((4, 0), (0, 3)), ((0,), (0,)), ((2, 3, 0), (0, 4)), ((0, 5), (5, 3)), ((4, 5), (5, 0)),
    ((0, 4, 5), (5, 3)), ((2, 0, 5), (2, 5, 3)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32",
                                   "uint8", "int64"])
@pytest.mark.parametrize("s1,s2", SHAPES, ids=[f"{a}@{b}" for a, b in SHAPES])
def test_matmul_shapes(s1, s2, dtype, rng):
    a, b = rand(s1, dtype, rng), rand(s2, dtype, rng)
    check(ac.matmul(ac_from_numpy(a), ac_from_numpy(b)), np.matmul(a, b), s1[-1])


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int16"])
def test_matmul_large_enough_for_threaded_blas(dtype, rng):
    a, b = rand((130, 257), dtype, rng), rand((257, 129), dtype, rng)
    check(ac.matmul(ac_from_numpy(a), ac_from_numpy(b)), a @ b, 257)


# ---------------------------------------------------------------- layouts

def _layouts(shape, dtype, rng):
    """(name, numpy operand, arraycore operand) for several layouts of one logical matrix."""
    r, c = shape
    out = []
    base = rand((r, c), dtype, rng)
    out.append(("contiguous", base, ac_from_numpy(base)))
    t = rand((c, r), dtype, rng)
    out.append(("transposed", t.T, ac_from_numpy(t).mT))
    wide = rand((r, c + 3), dtype, rng)
    out.append(("row-strided", wide[:, 1:c + 1], ac_from_numpy(wide)[:, 1:c + 1]))
    tall = rand((2 * r, c), dtype, rng)
    out.append(("every-other-row", tall[::2], ac_from_numpy(tall)[::2]))
    cols = rand((r, 2 * c), dtype, rng)
    out.append(("column-strided", cols[:, ::2], ac_from_numpy(cols)[:, ::2]))
    tw = rand((c, r + 2), dtype, rng)
    out.append(("transposed-strided", tw[:, :r].T, ac_from_numpy(tw)[:, :r].mT))
    out.append(("reversed-rows", base[::-1], ac_from_numpy(base)[::-1]))
    out.append(("reversed-cols", base[:, ::-1], ac_from_numpy(base)[:, ::-1]))
    out.append(("reversed-both", base[::-1, ::-1], ac_from_numpy(base)[::-1, ::-1]))
    return out


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32"])
def test_matmul_layouts(dtype, rng):
    m, k, n = 6, 5, 7
    la, lb = _layouts((m, k), dtype, rng), _layouts((k, n), dtype, rng)
    for na, a, A in la:
        for nb, b, B in lb:
            try:
                check(A @ B, a @ b, k)
            except AssertionError as e:
                raise AssertionError(f"x1 {na}, x2 {nb}: {e}") from None


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int64"])
def test_matmul_layouts_of_vectors(dtype, rng):
    v = rand((12,), dtype, rng)
    m = rand((6, 4), dtype, rng)
    V, M = ac_from_numpy(v), ac_from_numpy(m)
    check(V[::2] @ M, v[::2] @ m, 6)
    check(V[::-2] @ M, v[::-2] @ m, 6)
    check(M @ V[1:9:2], m @ v[1:9:2], 4)
    check(M.mT @ V[::-2], m.T @ v[::-2], 6)
    check(V[::3] @ V[1::3], v[::3] @ v[1::3], 4)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("m,k", [(6, 5), (300, 257)])
def test_matmul_one_column_or_row_takes_gemv(m, k, dtype, rng):
    """A product with n = 1 or m = 1 runs as gemv (matmul.cpp, gemv_instead): every layout of
    the matrix times every layout of a (k, 1) column, every layout of a (1, k) row times
    every layout of the matrix, and vectors, including sizes that the pool splits into row
    blocks, against NumPy."""
    before = ac.get_num_threads()
    try:
        ac.set_num_threads(3)
        for na, a, A in _layouts((m, k), dtype, rng):
            for nc, c, C in _layouts((k, 1), dtype, rng):
                try:
                    check(A @ C, a @ c, k)
                except AssertionError as e:
                    raise AssertionError(f"x1 {na}, x2 {nc}: {e}") from None
            v = rand((2 * k,), dtype, rng)
            check(A @ ac_from_numpy(v)[::-2], a @ v[::-2], k)
        for nr, r, R in _layouts((1, k), dtype, rng):
            for nb, b, B in _layouts((k, m), dtype, rng):
                try:
                    check(R @ B, r @ b, k)
                except AssertionError as e:
                    raise AssertionError(f"x1 {nr}, x2 {nb}: {e}") from None
    finally:
        ac.set_num_threads(before)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int32"])
def test_matmul_batched_layouts(dtype, rng):
    a = rand((3, 5, 4), dtype, rng)   # used transposed: (3, 4, 5)
    b = rand((6, 5, 2), dtype, rng)   # every other batch item: (3, 5, 2)
    A, B = ac_from_numpy(a), ac_from_numpy(b)
    check(A.mT @ B[::2], a.transpose(0, 2, 1) @ b[::2], 5)
    check(B[::-2].mT @ A, b[::-2].transpose(0, 2, 1) @ a, 5)
    # x1 a row-major stack with a shared x2: one gemm over all rows
    c = rand((4, 3, 5), dtype, rng)
    d = rand((5, 6), dtype, rng)
    check(ac_from_numpy(c) @ ac_from_numpy(d), c @ d, 5)
    check(ac_from_numpy(c)[::2] @ ac_from_numpy(d), c[::2] @ d, 5)
    check(ac_from_numpy(c)[:, 1:] @ ac_from_numpy(d), c[:, 1:] @ d, 5)


def test_matmul_broadcast_stride_zero_operand(rng):
    a = rand((4, 5), "float64", rng)
    A = ac_from_numpy(a)
    Z = A._view([3, 4, 5], [0, 5, 1], 0)           # batch dimension of stride 0
    Zc = A._view([4, 5], [0, 1], 0)                 # repeated row: row stride 0
    b = rand((5, 2), "float64", rng)
    check(Z @ ac_from_numpy(b), np.broadcast_to(a, (3, 4, 5)) @ b, 5)
    check(Zc @ ac_from_numpy(b), np.broadcast_to(a[0], (4, 5)) @ b, 5)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matmul_batches_of_tiny_products(dtype, threads, rng):
    """Batches with m, n <= 8 and k <= 16 run in a register kernel (Note [Batches of tiny
    products], matmul.cpp), not one gemm per item: every width n, the edges of the sizes,
    transposed, negative-stride and broadcast (stride-0) operands, vectors, one thread and
    two; a batch with a shared x2 stays one gemm."""
    old = ac.get_num_threads()
    try:
        ac.set_num_threads(threads)
        for m, n, k in [(1, 1, 1), (4, 4, 4), (8, 8, 16), (3, 5, 7), (8, 1, 16), (1, 8, 2),
                        (2, 6, 9), (5, 7, 1), (7, 3, 11), (9, 4, 4), (4, 4, 17)]:
            a, b = rand((33, m, k), dtype, rng), rand((33, k, n), dtype, rng)
            A, B = ac_from_numpy(a), ac_from_numpy(b)
            check(A @ B, a @ b, k)
            check(B.mT @ A.mT, b.transpose(0, 2, 1) @ a.transpose(0, 2, 1), k)  # strided rows
            check(A[::-2] @ B[::2], a[::-2] @ b[::2], k)
            check(A[:1] @ B, a[:1] @ b, k)                              # x1 broadcast
            check(A @ B[:, :, ::-1], a @ b[:, :, ::-1], k)              # negative column stride
            check(A[:, 0, :] [:, None, :] @ B, a[:, :1, :] @ b, k)      # one row per item
            check(A @ ac_from_numpy(b[0]), a @ b[0], k)                 # shared x2: one gemm
            check(ac.matmul(A, ac_from_numpy(b[0, :, 0])), a @ b[0, :, 0], k)  # 1-D x2
    finally:
        ac.set_num_threads(old)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_matmul_batched_in_parallel(dtype, rng):
    old = ac.get_num_threads()
    try:
        ac.set_num_threads(2)
        assert _native.blas_num_threads() == 2
        a, b = rand((64, 8, 9), dtype, rng), rand((64, 9, 7), dtype, rng)
        check(ac_from_numpy(a) @ ac_from_numpy(b), a @ b, 9)
        a, b = rand((3, 100, 90), dtype, rng), rand((3, 90, 80), dtype, rng)
        check(ac_from_numpy(a) @ ac_from_numpy(b), a @ b, 90)
    finally:
        ac.set_num_threads(old)
    assert _native.blas_num_threads() == old


# ---------------------------------------------------------------- integer arithmetic

@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32",
                                   "int64", "uint64"])
def test_matmul_integer_overflow_wraps_like_numpy(dtype, rng):
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, size=(5, 33), endpoint=True, dtype=dtype)
    b = rng.integers(info.min, info.max, size=(33, 4), endpoint=True, dtype=dtype)
    with np.errstate(over="ignore"):
        expected = a @ b
    check(ac_from_numpy(a) @ ac_from_numpy(b), expected)


# ---------------------------------------------------------------- promotion and errors

@pytest.mark.parametrize("d1,d2", [("int32", "float32"), ("int8", "uint8"),
                                   ("float32", "complex128"), ("float32", "float64"),
                                   ("uint16", "int64")])
def test_matmul_promotes_like_result_type(d1, d2, rng):
    a, b = rand((3, 4), d1, rng), rand((4, 2), d2, rng)
    out = ac.matmul(ac_from_numpy(a), ac_from_numpy(b))
    assert out.dtype == ac.result_type(getattr(ac, d1), getattr(ac, d2))
    check(out, a @ b, 4)


def test_matmul_errors():
    f = ac.ones((3, 4))
    with pytest.raises(TypeError, match="^matmul"):
        ac.matmul(ac.ones((2, 2), dtype=ac.bool), ac.ones((2, 2), dtype=ac.bool))
    with pytest.raises(TypeError, match="^matmul"):
        ac.matmul(f, ac.ones((4, 2), dtype=ac.bool))
    with pytest.raises(ValueError, match="^matmul"):
        ac.matmul(f, ac.ones((3, 2)))
    with pytest.raises(ValueError, match="^matmul"):
        ac.matmul(f, ac.ones((3,)))
    with pytest.raises(ValueError, match="^matmul"):
        ac.matmul(ac.ones((2, 3, 4)), ac.ones((3, 4, 2)))
    with pytest.raises(ValueError, match="^matmul"):
        ac.matmul(ac.asarray(1.0), f)
    with pytest.raises(TypeError, match="^matmul"):
        ac.matmul(f, [[1.0]] * 4)
    with pytest.raises(TypeError):
        f @ 2.0
    with pytest.raises(TypeError):
        2.0 @ f


# ---------------------------------------------------------------- operators

def test_matmul_operators(rng):
    a, b = rand((3, 4), "float64", rng), rand((4, 3), "float64", rng)
    A, B = ac_from_numpy(a), ac_from_numpy(b)
    check(A @ B, a @ b, 4)
    check(B.__rmatmul__(A), a @ b, 4)
    assert A.__matmul__(1.0) is NotImplemented
    assert A.__rmatmul__(1.0) is NotImplemented


def test_imatmul_in_place(rng):
    a, b = rand((4, 4), "float32", rng), rand((4, 4), "float32", rng)
    A = ac_from_numpy(a)
    ptr = A._data_ptr
    A @= ac_from_numpy(b)
    assert A._data_ptr == ptr
    check(A, a @ b, 4)
    # x @= x reads x fully before writing
    A = ac_from_numpy(a)
    A @= A
    check(A, a @ a, 4)
    # a batch of matrices times one matrix keeps the shape
    c = rand((2, 3, 4), "complex128", rng)
    C = ac_from_numpy(c)
    C @= ac_from_numpy(b.astype("complex128"))
    check(C, c @ b.astype("complex128"), 4)


def test_imatmul_errors(rng):
    A = ac.ones((3, 4), dtype=ac.float32)
    with pytest.raises(ValueError, match="^matmul"):
        A @= ac.ones((4, 2), dtype=ac.float32)
    with pytest.raises(TypeError, match="^matmul"):
        B = ac.ones((4, 4), dtype=ac.float32)
        B @= ac.ones((4, 4), dtype=ac.float64)
    with pytest.raises(TypeError, match="^matmul"):
        I = ac.ones((4, 4), dtype=ac.int32)
        I @= ac.ones((4, 4), dtype=ac.float32)
    with pytest.raises(TypeError):
        A @= 2
    assert A.shape == (3, 4)


# ---------------------------------------------------------------- matrix_transpose

@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (2, 1, 0, 5)])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float64", "complex64"])
def test_matrix_transpose(shape, dtype, rng):
    a = random_numpy(shape, dtype, rng)
    A = ac_from_numpy(a)
    T = ac.matrix_transpose(A)
    assert_matches_numpy(T, np.matrix_transpose(a))
    if a.size:
        assert T._buffer_ptr == A._buffer_ptr  # a view


def test_matrix_transpose_errors():
    with pytest.raises(ValueError, match="^matrix_transpose"):
        ac.matrix_transpose(ac.ones((3,)))
    with pytest.raises(TypeError, match="^matrix_transpose"):
        ac.matrix_transpose([[1.0]])


# ---------------------------------------------------------------- tensordot

TENSORDOT = [
    ((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 5), 1), ((3, 4), (5, 2), 0), ((3,), (3,), 1),
    ((2, 3, 4), (3, 4), 2), ((3, 4, 5), (5, 4, 2), ([1, 2], [1, 0])),
    ((3, 4, 5), (3, 2), ([0], [0])), ((4, 3), (2, 4), ((0,), (1,))),
    ((2, 3, 4), (4, 3, 2), ([0, 1, 2], [2, 1, 0])), ((3, 0), (0, 2), 1),
    ((2, 3), (4,), 0), ((3, 4, 5), (4, 3), ([-2, -3], [0, 1])), ((), (), 0), ((2,), (), 0),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
@pytest.mark.parametrize("s1,s2,axes", TENSORDOT, ids=[str(t) for t in TENSORDOT])
def test_tensordot(s1, s2, axes, dtype, rng):
    a, b = rand(s1, dtype, rng), rand(s2, dtype, rng)
    check(ac.tensordot(ac_from_numpy(a), ac_from_numpy(b), axes=axes),
          np.tensordot(a, b, axes=axes), 60)


def test_tensordot_of_strided_views(rng):
    a, b = rand((6, 4, 5), "float64", rng), rand((5, 8, 3), "float64", rng)
    A, B = ac_from_numpy(a)[::2], ac_from_numpy(b)[:, ::-2]
    check(ac.tensordot(A, B, axes=([2], [0])), np.tensordot(a[::2], b[:, ::-2], axes=([2], [0])), 5)
    c = rand((8, 3), "float64", rng)
    check(ac.tensordot(A.mT, ac_from_numpy(c)[::-2], axes=1),
          np.tensordot(a[::2].transpose(0, 2, 1), c[::-2], 1), 4)
    check(ac.tensordot(ac_from_numpy(a), ac_from_numpy(a), axes=([0, 1], [0, 1])),
          np.tensordot(a, a, axes=([0, 1], [0, 1])), 24)


def test_tensordot_promotes(rng):
    a, b = rand((3, 4), "int16", rng), rand((4, 2), "float32", rng)
    check(ac.tensordot(ac_from_numpy(a), ac_from_numpy(b), axes=1), np.tensordot(a, b, 1), 4)


def test_tensordot_errors():
    x, y = ac.ones((3, 4)), ac.ones((4, 5))
    with pytest.raises(ValueError, match="^tensordot"):
        ac.tensordot(x, y, axes=2)
    with pytest.raises(ValueError, match="^tensordot"):
        ac.tensordot(x, y, axes=-1)
    with pytest.raises(ValueError, match="^tensordot"):
        ac.tensordot(x, y, axes=([0], [0]))
    with pytest.raises(ValueError, match="^tensordot"):
        ac.tensordot(x, y, axes=([1, 0], [0]))
    with pytest.raises(ValueError, match="^tensordot"):
        ac.tensordot(x, y, axes=([2], [0]))
    with pytest.raises(ValueError, match="^tensordot"):
        ac.tensordot(x, x, axes=([1, 1], [1, 1]))
    with pytest.raises(TypeError, match="^tensordot"):
        ac.tensordot(ac.ones((3, 4), dtype=ac.bool), y, axes=1)
    with pytest.raises(TypeError, match="^tensordot"):
        ac.tensordot(x, 1.0, axes=0)


# ---------------------------------------------------------------- vecdot

VECDOT = [((5,), (5,), -1), ((3, 5), (5,), -1), ((2, 1, 5), (4, 5), -1), ((5, 3), (5, 3), -2),
          ((5, 3), (5, 3), 0), ((2, 5, 3), (5, 1), -2), ((0, 5), (5,), -1), ((3, 0), (3, 0), -1),
          ((4, 200), (200,), -1)]


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("s1,s2,axis", VECDOT, ids=[str(t) for t in VECDOT])
def test_vecdot(s1, s2, axis, dtype, rng):
    a, b = rand(s1, dtype, rng), rand(s2, dtype, rng)
    check(ac.vecdot(ac_from_numpy(a), ac_from_numpy(b), axis=axis),
          np.vecdot(a, b, axis=axis), s1[axis])


def test_vecdot_conjugates_x1_and_takes_views(rng):
    a, b = rand((6, 7), "complex64", rng), rand((7, 6), "complex64", rng)
    A, B = ac_from_numpy(a), ac_from_numpy(b)
    check(ac.vecdot(A, B.mT), np.vecdot(a, b.T), 7)
    check(ac.vecdot(A[::-2], B.mT[1::2, ::-1]), np.vecdot(a[::-2], b.T[1::2, ::-1]), 7)
    z = np.array([1 + 2j, 3 - 1j])
    assert complex(ac.vecdot(ac_from_numpy(z), ac_from_numpy(z))) == 15 + 0j


def test_vecdot_promotes(rng):
    a, b = rand((3, 4), "uint8", rng), rand((4,), "int8", rng)
    check(ac.vecdot(ac_from_numpy(a), ac_from_numpy(b)), np.vecdot(a, b))


def test_vecdot_errors():
    with pytest.raises(ValueError, match="^vecdot"):
        ac.vecdot(ac.ones((3, 4)), ac.ones((3, 5)))
    with pytest.raises(ValueError, match="^vecdot"):
        ac.vecdot(ac.ones((3, 4)), ac.ones((2, 4)))
    with pytest.raises(ValueError, match="^vecdot"):
        ac.vecdot(ac.ones((3, 4)), ac.ones((4,)), axis=-2)
    with pytest.raises(ValueError, match="^vecdot"):
        ac.vecdot(ac.asarray(1.0), ac.asarray(1.0))
    with pytest.raises(TypeError, match="^vecdot"):
        ac.vecdot(ac.ones((3,), dtype=ac.bool), ac.ones((3,), dtype=ac.bool))
    with pytest.raises(TypeError, match="^vecdot"):
        ac.vecdot(ac.ones((3,)), [1.0, 2.0, 3.0])


def test_blas_threads_follow_the_pool():
    old = ac.get_num_threads()
    try:
        ac.set_num_threads(1)
        assert _native.blas_num_threads() == 1
        ac.set_num_threads(3)
        assert _native.blas_num_threads() == 3
    finally:
        ac.set_num_threads(old)
