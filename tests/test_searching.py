"""argmax, argmin, count_nonzero, nonzero, searchsorted and where against NumPy."""

import numpy as np
import pytest

import arraycore as ac

from _search_sort_util import ALL, REAL, make, values
from conftest import assert_matches_numpy

LAYOUTS = ["contiguous", "strided", "reversed", "transposed"]


# ---- argmax / argmin -------------------------------------------------------------------

@pytest.mark.parametrize("fname", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_argmax_argmin(fname, dtype, layout, rng):
    a, x = make((6, 700), dtype, rng, layout=layout)
    f, ref = getattr(ac, fname), getattr(np, fname)
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            assert_matches_numpy(f(x, axis=axis, keepdims=keepdims),
                                 np.asarray(ref(a, axis=axis, keepdims=keepdims)))


@pytest.mark.parametrize("fname", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint64", "bool"])
def test_argmax_long_lines(fname, dtype, rng):
    """Several blocks: the first occurrence of the extreme, and the first NaN."""
    a = values((50_000,), dtype, rng, dups=True, specials=False)
    f, ref = getattr(ac, fname), getattr(np, fname)
    assert int(f(ac.asarray(a))) == ref(a)
    if dtype.startswith("float"):
        for pos in (0, 4095, 4096, 30_001, 49_999):
            b = a.copy()
            b[pos] = np.nan
            b[min(pos + 5, b.size - 1)] = np.nan
            assert int(f(ac.asarray(b))) == ref(b) == pos
        b = a.copy()
        b[[7, 20_000]] = np.inf if fname == "argmax" else -np.inf
        assert int(f(ac.asarray(b))) == ref(b) == 7


def test_argmax_special_cases():
    assert_matches_numpy(ac.argmax(ac.asarray(3.0)), np.asarray(np.argmax(np.float64(3.0))))
    assert_matches_numpy(ac.argmin(ac.asarray(3.0), keepdims=True), np.zeros((), np.int64))
    c = np.array([1 + 1j, 1 + 2j, complex(np.nan, 0), 1 + 2j])
    assert int(ac.argmax(ac.asarray(c))) == np.argmax(c) == 2
    a = np.zeros((0, 3))
    assert_matches_numpy(ac.argmax(ac.asarray(a), axis=0, keepdims=True) if False
                         else ac.argmax(ac.asarray(np.zeros((3, 0)).T), axis=1),
                         np.argmax(np.zeros((0, 3)), axis=1))
    for bad in (dict(), dict(axis=0)):
        with pytest.raises(ValueError, match="^argmax"):
            ac.argmax(ac.asarray(a), **bad)
    with pytest.raises(ValueError, match="^argmin"):
        ac.argmin(ac.asarray([1, 2]), axis=1)
    with pytest.raises(TypeError, match="^argmax"):
        ac.argmax([1, 2])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_argmax_argmin_one_pass_rows(dtype):
    """Float rows shorter than 4096 take the one-pass lane search (Note [One-pass argmax]):
    lengths around its vector and block edges, ties (the first occurrence wins, also across
    lanes and in the tail), -0 against +0, infinities, and NaN anywhere (the first NaN wins),
    for argmax and argmin against NumPy."""
    rng = np.random.default_rng(6)
    for n in (15, 16, 17, 31, 32, 33, 64, 100, 1000, 4095, 4096, 5000):
        rows = rng.integers(-3, 4, (12, n)).astype(dtype)  # many ties
        rows[1] = rng.standard_normal(n)
        rows[2, :] = 0.0
        rows[2, n // 2] = -0.0
        rows[3, n // 3] = np.inf
        rows[3, n - 1] = np.inf
        rows[4, n // 2] = np.nan
        rows[4, n - 1] = np.nan
        rows[5, n - 1] = np.nan
        rows[6, 0] = -np.inf
        rows[7, n - 1] = 10.0  # the best in the tail
        rows[8, n - 2:] = 10.0
        for f in ("argmax", "argmin"):
            np.testing.assert_array_equal(np.asarray(getattr(ac, f)(ac.asarray(rows), axis=1)),
                                          getattr(np, f)(rows, axis=1), err_msg=f"{f} {n}")


# ---- count_nonzero ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_count_nonzero(dtype, layout, rng):
    a, x = make((3, 4, 50), dtype, rng, layout=layout)
    for axis in (None, 0, 1, -1, (0, 2), (2, 0), (0, 1, 2), ()):
        for keepdims in (False, True):
            assert_matches_numpy(ac.count_nonzero(x, axis=axis, keepdims=keepdims),
                                 np.asarray(np.count_nonzero(a, axis=axis, keepdims=keepdims),
                                            dtype=np.int64))


def test_count_nonzero_edges():
    assert_matches_numpy(ac.count_nonzero(ac.asarray(0.0)), np.asarray(0))
    assert_matches_numpy(ac.count_nonzero(ac.asarray(-0.0 + 1j)), np.asarray(1))
    assert_matches_numpy(ac.count_nonzero(ac.asarray(np.zeros((2, 0))), axis=1),
                         np.zeros(2, np.int64))
    assert_matches_numpy(ac.count_nonzero(ac.asarray([np.nan, -0.0])), np.asarray(1))
    with pytest.raises(ValueError, match="^count_nonzero"):
        ac.count_nonzero(ac.asarray([1, 2]), axis=(0, 0))
    with pytest.raises(ValueError, match="^count_nonzero"):
        ac.count_nonzero(ac.asarray([1, 2]), axis=1)


# ---- nonzero ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_nonzero(dtype, layout, rng):
    for shape in [(5, 40), (3, 1), (2, 0)] if layout == "transposed" else [(0,), (1,), (77,),
                                                                            (5, 40), (2, 3, 9)]:
        a, x = make(shape, dtype, rng, layout=layout)
        got, want = ac.nonzero(x), np.nonzero(a)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_matches_numpy(g, w.astype(np.int64))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "float32"])
def test_count_nonzero_and_nonzero_long_lines(dtype):
    """One-byte lines are counted 8 bytes at a time in groups of 255 words (count_nonzero_
    bytes) and nonzero gathers positions in blocks of 256 without branches: lengths around
    the word, group and block edges, densities 0, 1%, 50%, 100%, bytes with only the top bit
    or only the low bit set, and rows of a 2-d array whose blocks straddle row ends."""
    rng = np.random.default_rng(3)
    for n in (1, 7, 8, 9, 255, 256, 257, 2039, 2040, 2041, 2048, 4081, 5000):
        for density in (0.0, 0.01, 0.5, 1.0):
            keep = rng.random(n) < density
            if dtype == "bool":
                a = keep
            elif dtype == "float32":
                a = np.where(keep, rng.standard_normal(n), 0).astype(dtype)
            else:
                a = np.where(keep, rng.choice([1, -128 if dtype == "int8" else 128, 3], n),
                             0).astype(dtype)
            x = ac.asarray(a)
            assert int(ac.count_nonzero(x)) == np.count_nonzero(a), (n, density)
            np.testing.assert_array_equal(np.asarray(ac.nonzero(x)[0]), np.nonzero(a)[0])
    a = rng.random((7, 600)) < 0.3
    got, want = ac.nonzero(ac.asarray(a)), np.nonzero(a)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)
    np.testing.assert_array_equal(np.asarray(ac.count_nonzero(ac.asarray(a), axis=1)),
                                  np.count_nonzero(a, axis=1))


def test_nonzero_0d():
    with pytest.raises(ValueError, match="^nonzero"):
        ac.nonzero(ac.asarray(1))


# ---- searchsorted ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side, rng):
    hay = np.sort(values((300,), dtype, rng))
    q, xq = make((7, 20), dtype, rng)
    got = ac.searchsorted(ac.asarray(hay), xq, side=side)
    assert_matches_numpy(got, np.searchsorted(hay, q, side=side).astype(np.int64))
    # sorter: an unsorted x1 with the indices that sort it (layouts: reversed, strided).
    raw = values((300,), dtype, rng)
    xraw = ac.asarray(raw[::-1].copy())[::-1]
    sorter = np.argsort(raw, kind="stable")
    got = ac.searchsorted(xraw, xq, side=side, sorter=ac.asarray(sorter.astype(np.int32)))
    assert_matches_numpy(got, np.searchsorted(raw, q, side=side, sorter=sorter).astype(np.int64))


def test_searchsorted_promotion_and_scalars():
    hay = np.array([1, 2, 2, 5], dtype=np.int16)
    assert_matches_numpy(ac.searchsorted(ac.asarray(hay), 2), np.asarray(1, np.int64))
    assert_matches_numpy(ac.searchsorted(ac.asarray(hay), 2.5, side="right"),
                         np.asarray(3, np.int64))
    assert_matches_numpy(ac.searchsorted(ac.asarray(hay), ac.asarray([1.5, 9.0])),
                         np.array([1, 4]))
    e = ac.searchsorted(ac.asarray(np.zeros(0)), ac.asarray([1.0]))
    assert_matches_numpy(e, np.array([0]))
    with pytest.raises(ValueError, match="^searchsorted"):
        ac.searchsorted(ac.asarray([[1, 2]]), 1)
    with pytest.raises(ValueError, match="^searchsorted"):
        ac.searchsorted(ac.asarray([1, 2]), 1, side="middle")
    with pytest.raises(ValueError, match="^searchsorted"):
        ac.searchsorted(ac.asarray([1, 2]), 1, sorter=ac.asarray([0, 5]))
    with pytest.raises(TypeError, match="^searchsorted"):
        ac.searchsorted(ac.asarray([1, 2]), 1, sorter=ac.asarray([0.0, 1.0]))
    with pytest.raises(TypeError, match="^searchsorted"):
        ac.searchsorted([1, 2], 1)


# ---- where -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_where(dtype, layout, rng):
    c, xc = make((40, 30), "bool", rng, layout=layout)
    a, xa = make((40, 30), dtype, rng, layout=layout)
    b, xb = make((30,), dtype, rng)
    assert_matches_numpy(ac.where(xc, xa, xb), np.where(c, a, b))
    assert_matches_numpy(ac.where(xc[:1], xb, xa), np.where(c[:1], b, a))


@pytest.mark.parametrize("d1,d2", [("int8", "int16"), ("uint8", "int8"), ("float32", "int32"),
                                   ("complex64", "float64"), ("bool", "int64")])
def test_where_promotion(d1, d2, rng):
    c, xc = make((5,), "bool", rng)
    a, xa = make((5,), d1, rng)
    b, xb = make((1,), d2, rng)
    assert_matches_numpy(ac.where(xc, xa, xb), np.where(c, a, b))


def test_where_scalars():
    c = np.array([True, False, True])
    a = np.array([1, 2, 3], dtype=np.int8)
    xc, xa = ac.asarray(c), ac.asarray(a)
    assert_matches_numpy(ac.where(xc, xa, 0), np.where(c, a, np.int8(0)))
    assert_matches_numpy(ac.where(xc, 1.5, xa), np.where(c, 1.5, a.astype(np.float64)))
    f32 = ac.asarray(np.ones(3, np.float32))
    assert_matches_numpy(ac.where(xc, f32, 2.0), np.where(c, np.float32(1), np.float32(2)))
    assert_matches_numpy(ac.where(ac.asarray(True), xa, 7), a)
    assert_matches_numpy(ac.where(ac.asarray(np.zeros((0, 3), bool)), xa, 1),
                         np.zeros((0, 3), np.int8))


@pytest.mark.parametrize("dtype", ["int8", "int16", "float32", "float64", "complex128"])
def test_where_broadcast_scalar_operands(dtype, rng):
    """The branch-free loops of each (array | broadcast scalar) pair of operands, over a
    length with a vector body and a tail, on random conditions."""
    c, xc = make((1027,), "bool", rng)
    a, xa = make((1027,), dtype, rng)
    b, xb = make((1027,), dtype, rng)
    s1, s2 = a[:1], b[:1]
    x1, x2 = ac.asarray(s1), ac.asarray(s2)
    assert_matches_numpy(ac.where(xc, xa, xb), np.where(c, a, b))
    assert_matches_numpy(ac.where(xc, x1, xb), np.where(c, s1, b))
    assert_matches_numpy(ac.where(xc, xa, x2), np.where(c, a, s2))
    assert_matches_numpy(ac.where(xc, x1, x2), np.where(c, s1, s2))


def test_where_errors():
    x = ac.asarray([1, 2])
    with pytest.raises(TypeError, match="^where"):
        ac.where(ac.asarray([1, 0]), x, x)
    with pytest.raises(TypeError, match="^where"):
        ac.where(ac.asarray([True, False]), 1, 2)
    with pytest.raises(ValueError, match="where"):
        ac.where(ac.asarray([True, False, True]), x, x)
