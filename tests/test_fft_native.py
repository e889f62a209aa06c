"""The native FFT (`_native.fft_c2c`, `fft_r2c`, `fft_c2r`; kernels/fft_*.cpp) against NumPy.

Lengths cover 1, 2, small primes (direct odd radix), primes above the direct radix limit
(Bluestein), prime powers, highly composite lengths and lengths long enough for the four-step
split; layouts cover C order, transposed, strided and negative-stride inputs, multi-axis
transforms and batches.  Every vector width the engine has (native, AVX2, scalar, and the
AVX-512 code lowered onto narrower instructions where the CPU lacks it) runs the same checks.
"""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
from arraycore.native import _native as N

from conftest import requires_native

pytestmark = requires_native("fft_c2c", "fft_r2c", "fft_c2r")

ISAS = ["native", "avx2", "scalar", "avx512"]

# Lengths: trivial, radix-2/3/4/5/8 mixes, odd primes <= 31 (direct), primes above (Bluestein),
# prime powers, composites with a large prime factor, and four-step lengths (> 4096).
LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 23, 25, 27, 29, 31, 32, 37, 49,
           60, 64, 81, 97, 120, 121, 125, 128, 210, 243, 256, 343, 360, 509, 512, 625, 720,
           1000, 1021, 1024, 2 * 37, 3 * 101, 2048, 4096, 4099, 5040, 6561, 8192, 10007,
           2 ** 15, 3 ** 9 * 2]

RTOL = {np.complex64: 3e-6, np.complex128: 5e-15}


@pytest.fixture(params=ISAS)
def isa(request):
    old = N.fft_set_isa(request.param)
    yield request.param
    N.fft_set_isa(old)


def rand_complex(rng, shape, dt):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def check_close(got, ref, dt, n, what):
    """Max error relative to the reference's RMS, scaled by log n (the FFT's error growth)."""
    got = np.asarray(got)
    assert got.dtype == dt, (what, got.dtype, dt)
    assert got.shape == ref.shape, (what, got.shape, ref.shape)
    scale = np.sqrt(np.mean(np.abs(ref) ** 2)) if ref.size else 1.0
    err = np.max(np.abs(got - ref)) / max(scale, 1e-300) if ref.size else 0.0
    tol = RTOL[np.complex64 if dt in (np.complex64, np.float32) else np.complex128]
    tol *= 4 * max(1.0, np.log2(max(n, 2)))
    assert err <= tol, f"{what}: error {err:.3g} > {tol:.3g}"


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", LENGTHS)
def test_c2c_lengths(isa, n, dt):
    rng = np.random.default_rng(n)
    x = rand_complex(rng, (3, n), dt)
    xd = x.astype(np.complex128)
    check_close(N.fft_c2c(ac.asarray(x), (1,), True, 1.0), np.fft.fft(xd, axis=1), dt, n, "fwd")
    check_close(N.fft_c2c(ac.asarray(x), (1,), False, 0.5), np.fft.ifft(xd, axis=1) * n * 0.5,
                dt, n, "bwd")


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", LENGTHS)
def test_r2c_c2r_lengths(isa, n, dt):
    rng = np.random.default_rng(n + 1)
    cdt = np.complex64 if dt == np.float32 else np.complex128
    for lines in (1, 2, 5):
        x = rng.standard_normal((lines, n)).astype(dt)
        ref = np.fft.rfft(x.astype(np.float64), axis=1)
        check_close(N.fft_r2c(ac.asarray(x), 1, 1.0), ref, cdt, n, f"r2c lines={lines}")
        h = rand_complex(rng, (lines, n // 2 + 1), cdt)
        ref = np.fft.irfft(h.astype(np.complex128), n, axis=1)
        check_close(N.fft_c2r(ac.asarray(h), 1, n, 1.0 / n), ref, dt, n, f"c2r lines={lines}")


@pytest.mark.parametrize("n", [1000003, 2 ** 20, 3 ** 13])
def test_long_single_lines(n):
    rng = np.random.default_rng(7)
    for dt in (np.complex64, np.complex128):
        x = rand_complex(rng, (n,), dt)
        check_close(N.fft_c2c(ac.asarray(x), (0,), True, 1.0), np.fft.fft(x.astype(np.complex128)),
                    dt, n, f"c2c n={n}")
    x = rng.standard_normal(n)
    check_close(N.fft_r2c(ac.asarray(x), 0, 1.0), np.fft.rfft(x), np.complex128, n, "r2c")


# ---- layouts ----

def layouts(rng, shape, dt):
    """(name, NumPy array) pairs of one logical array in different memory layouts."""
    base = rand_complex(rng, shape, np.complex128) if np.dtype(dt).kind == "c" else \
        rng.standard_normal(shape)
    base = base.astype(dt)
    yield "c", base
    yield "f", np.asfortranarray(base)
    big = np.zeros(tuple(2 * s for s in shape), dt)
    big[tuple(slice(None, None, 2) for _ in shape)] = base
    yield "strided", big[tuple(slice(None, None, 2) for _ in shape)]
    yield "reversed", base[tuple(slice(None, None, -1) for _ in shape)].copy()[
        tuple(slice(None, None, -1) for _ in shape)]
    yield "transposed", np.ascontiguousarray(base.T).T


def from_numpy_view(a):
    """An arraycore array with the same strides as the NumPy view (through a base + slicing)."""
    return ac.asarray(a)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape,axes", [((6, 10), (0,)), ((6, 10), (1,)), ((6, 10), (0, 1)),
                                         ((6, 10), (1, 0)), ((4, 5, 7), (0, 2)),
                                         ((4, 5, 7), (2, 1, 0)), ((3, 1, 16), (1,)),
                                         ((2, 3, 4, 5), (1, 3)), ((7,), ()), ((37, 3), (0,))])
def test_c2c_layouts_and_axes(dt, shape, axes):
    rng = np.random.default_rng(1)
    for name, a in layouts(rng, shape, dt):
        x = from_numpy_view(a)
        ref = np.fft.fftn(a.astype(np.complex128), axes=axes) if axes else a.astype(np.complex128)
        n = int(np.prod([shape[ax] for ax in axes])) if axes else 1
        check_close(N.fft_c2c(x, axes, True, 1.0), ref, dt, n, name)


def test_negative_strides_in_arraycore():
    rng = np.random.default_rng(2)
    a = rand_complex(rng, (8, 12), np.complex128)
    x = ac.asarray(a)[::-1, ::-2]
    ref = np.fft.fftn(a[::-1, ::-2], axes=(0, 1))
    check_close(N.fft_c2c(x, (0, 1), True, 1.0), ref, np.complex128, 48, "negative")
    r = ac.asarray(a.real.copy())[:, ::-3]
    check_close(N.fft_r2c(r, 1, 1.0), np.fft.rfft(a.real[:, ::-3], axis=1), np.complex128, 4, "r2c")


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((6, 10), 0), ((6, 10), 1), ((4, 5, 9), 1),
                                        ((33, 8), 1), ((8, 33), 0), ((1, 1), 0)])
def test_real_layouts(dt, shape, axis):
    rng = np.random.default_rng(3)
    cdt = np.complex64 if dt == np.float32 else np.complex128
    n = shape[axis]
    for name, a in layouts(rng, shape, dt):
        check_close(N.fft_r2c(from_numpy_view(a), axis, 2.0),
                    2.0 * np.fft.rfft(a.astype(np.float64), axis=axis), cdt, n, name)
    hshape = list(shape)
    hshape[axis] = n // 2 + 1
    for name, h in layouts(rng, tuple(hshape), cdt):
        check_close(N.fft_c2r(from_numpy_view(h), axis, n, 1.0),
                    n * np.fft.irfft(h.astype(np.complex128), n, axis=axis), dt, n, name)


@pytest.mark.parametrize("n", [1, 2, 7, 8, 16, 100])
def test_c2r_ignores_dc_and_nyquist_imaginary(n):
    rng = np.random.default_rng(4)
    h = rand_complex(rng, (3, n // 2 + 1), np.complex128)
    got = np.asarray(N.fft_c2r(ac.asarray(h), 1, n, 1.0 / n))
    ref = np.fft.irfft(h, n, axis=1)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


# Real rows of even n ride on half-length complex lines copied in register transposes of
# L x L (L = 8 float32 lanes): (37, 84) has a partial group of lines and m = 42 a tail of
# bins; c2r of 1268 = 4 * 317 runs on the whole length (large prime factor).
@pytest.mark.parametrize("lines,n", [(4096, 64), (300, 1024), (1000, 17), (64, 4099), (9, 5000),
                                     (37, 84), (20, 1268)])
def test_batches(lines, n):
    rng = np.random.default_rng(5)
    x = rand_complex(rng, (lines, n), np.complex64)
    check_close(N.fft_c2c(ac.asarray(x), (1,), True, 1.0),
                np.fft.fft(x.astype(np.complex128), axis=1), np.complex64, n, "rows")
    check_close(N.fft_c2c(ac.asarray(x.T.copy()), (0,), True, 1.0),
                np.fft.fft(x.astype(np.complex128), axis=1).T, np.complex64, n, "cols")
    xr = x.real.copy()
    check_close(N.fft_r2c(ac.asarray(xr), 1, 1.0), np.fft.rfft(xr.astype(np.float64), axis=1),
                np.complex64, n, "r2c rows")
    h = x[:, : n // 2 + 1].copy()
    check_close(N.fft_c2r(ac.asarray(h), 1, n, 1.0),
                n * np.fft.irfft(h.astype(np.complex128), n, axis=1), np.float32, n, "c2r rows")
    check_close(N.fft_c2r(ac.asarray(h.T.copy()), 0, n, 1.0),
                n * np.fft.irfft(h.astype(np.complex128), n, axis=1).T, np.float32, n, "c2r cols")


# r2c of rows splits the spectrum of 16 float32 / 8 float64 lines (AVX2 builds) at a
# time and scatters it at once: line counts around the group and batch edges (a batch is 48
# float32 lines at these lengths), lengths with and without a tail of bins, contiguous and
# strided input, a scale that is no power of two.
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("lines", [2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 47, 48, 49, 97])
def test_r2c_row_groups(dt, lines):
    rng = np.random.default_rng(6)
    cdt = np.complex64 if dt == np.float32 else np.complex128
    for n in [2, 4, 6, 18, 64, 1024]:
        wide = rng.standard_normal((2 * lines, n + 3)).astype(dt)
        for name, a in [("C", wide[:lines, :n].copy()), ("strided", wide[::2, 1:n + 1])]:
            check_close(N.fft_r2c(from_numpy_view(a), 1, 0.3),
                        0.3 * np.fft.rfft(a.astype(np.float64), axis=1), cdt, n, f"{name} n={n}")


# Rows (contiguous lines far apart) whose half length is a multiple of 64 (float32) or 16
# (float64) take the row kernel (fft_real_rows.cpp; r2c and c2r) at every vector width but
# the scalar one: line counts around its tasks of 16 lines, lengths with factors 2, 3 and 5
# and the smallest float32 one (128; 192 and 130 are float64 lengths only, or neither), rows of a slice (lines that are not evenly spaced in a
# 3-d array, a row step of 2, reversed rows), a scale that is no power of two.  Its results do
# not depend on the vector width (it runs 8 lanes on every machine) nor on the threads.
ROW_KERNEL_LENGTHS = [128, 130, 192, 256, 384, 640, 1024, 1152, 2048, 4096, 6144, 8192]


def _row_views(wide, n):
    """Rows of slices of `wide` (3, 7, n + 5 or more along the last axis) as arraycore and
    NumPy arrays: lines not evenly spaced, a row step of 2, reversed rows."""
    return {"3-d slice": (ac.asarray(wide)[:, 1:6, 2:n + 2], wide[:, 1:6, 2:n + 2]),
            "row step 2": (ac.asarray(wide[0])[::2, :n], wide[0][::2, :n]),
            "reversed rows": (ac.asarray(wide[1])[::-1, 3:n + 3], wide[1][::-1, 3:n + 3])}


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", ROW_KERNEL_LENGTHS)
def test_row_kernel(isa, n, dt):
    rng = np.random.default_rng(n)
    h = n // 2 + 1
    cdt = np.complex64 if dt == np.float32 else np.complex128
    for lines in [1, 2, 15, 16, 17, 33]:
        x = rng.standard_normal((lines, n)).astype(dt)
        check_close(N.fft_r2c(ac.asarray(x), 1, 0.3),
                    0.3 * np.fft.rfft(x.astype(np.float64), axis=1), cdt, n,
                    f"r2c lines={lines}")
        s = rand_complex(rng, (lines, h), cdt)
        check_close(N.fft_c2r(ac.asarray(s), 1, n, 0.3),
                    0.3 * n * np.fft.irfft(s.astype(np.complex128), n, axis=1), dt, n,
                    f"c2r lines={lines}")
    for name, (a, ref) in _row_views(rng.standard_normal((3, 7, n + 5)).astype(dt),
                                     n).items():
        check_close(N.fft_r2c(a, a.ndim - 1, 1.0),
                    np.fft.rfft(ref.astype(np.float64), axis=-1), cdt, n, "r2c " + name)
    for name, (a, ref) in _row_views(rand_complex(rng, (3, 7, h + 5), cdt), h).items():
        check_close(N.fft_c2r(a, a.ndim - 1, n, 1.0 / n),
                    np.fft.irfft(ref.astype(np.complex128), n, axis=-1), dt, n,
                    "c2r " + name)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["r2c", "c2r"])
def test_row_kernel_bits(kind, dt):
    """The same bits at every vector width that runs the kernel and on 1 or 2 threads; a NaN
    in one row makes that whole row NaN and leaves the others as they were."""
    rng = np.random.default_rng(3)
    if kind == "r2c":
        x = rng.standard_normal((40, 1024)).astype(dt)
        run = lambda a: np.asarray(N.fft_r2c(ac.asarray(a), 1, 1.0))  # noqa: E731
    else:
        x = rand_complex(rng, (40, 513), np.complex64 if dt == np.float32 else np.complex128)
        run = lambda a: np.asarray(N.fft_c2r(ac.asarray(a), 1, 1024, 1.0))  # noqa: E731
    old_isa = N.fft_set_isa("avx2")
    old_threads = N.get_num_threads()
    try:
        results = []
        for isa_name in ("avx2", "avx512", "native"):
            N.fft_set_isa(isa_name)
            for threads in (1, 2):
                N.set_num_threads(threads)
                results.append(run(x))
        y = x.copy()
        y[5, 100] = np.nan
        y[9, 3] = np.inf
        with_nan = run(y)
    finally:
        N.fft_set_isa(old_isa)
        N.set_num_threads(old_threads)
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])
    assert np.isnan(with_nan[5]).all()
    assert not np.isfinite(with_nan[9]).all()
    others = [i for i in range(40) if i not in (5, 9)]
    np.testing.assert_array_equal(with_nan[others], results[0][others])


# Adjacent columns of complex arrays go in blocks of W (16 complex64 / 8 complex128 times a
# power of two; 16..128 columns by length) straight between the arrays, the first and last
# passes fused with the copies (fft_columns.cpp): column counts around the block edges
# (partial blocks take the copying route), lengths whose first or last radix is 2, 3, 4, 5,
# 8 or 16 and ones whose passes are generic (11 * 13, not that route), the edges of a 3-d
# array's rows (blocks that cross from one row of the middle axis to the next copy instead),
# negative strides, both directions with a scale that is no power of two.
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [6, 12, 20, 32, 48, 64, 80, 143, 256, 375, 1024, 2048, 4096])
def test_column_blocks(isa, dt, n):
    rng = np.random.default_rng(n)
    for cols in [2, 15, 16, 17, 40, 129]:
        x = rand_complex(rng, (n, cols), dt)
        xd = x.astype(np.complex128)
        check_close(N.fft_c2c(ac.asarray(x), (0,), True, 0.3), 0.3 * np.fft.fft(xd, axis=0),
                    dt, n, f"cols={cols}")
        check_close(N.fft_c2c(ac.asarray(x), (0,), False, 1.0), n * np.fft.ifft(xd, axis=0),
                    dt, n, f"cols={cols} inverse")
    x = rand_complex(rng, (n, 3, 24), dt)
    check_close(N.fft_c2c(ac.asarray(x)[:, :, :20], (0,), True, 1.0),
                np.fft.fft(x[:, :, :20].astype(np.complex128), axis=0), dt, n, "3-d")
    x = rand_complex(rng, (n, 40), dt)
    check_close(N.fft_c2c(ac.asarray(x)[::-1, ::-1], (0,), True, 1.0),
                np.fft.fft(x[::-1, ::-1].astype(np.complex128), axis=0), dt, n, "reversed")


# rfftn transforms its own half spectrum in place (fft_c2c_inplace): the same bits as the
# copying fft_c2c, every axis set; the function refuses arrays it must not write.
@pytest.mark.parametrize("shape,axes", [((64, 48), (0,)), ((64, 48), (0, 1)), ((5, 6, 32), (2, 0)),
                                         ((300, 17), (0,)), ((7,), ()), ((4, 4096), (1,))])
def test_c2c_inplace(shape, axes):
    rng = np.random.default_rng(7)
    for dt in (np.complex64, np.complex128):
        x = rand_complex(rng, shape, dt)
        want = np.asarray(N.fft_c2c(ac.asarray(x), axes, True, 0.5))
        y = ac.asarray(x)
        assert N.fft_c2c_inplace(y, axes, True, 0.5) is None
        np.testing.assert_array_equal(np.asarray(y), want)
    xr = rng.standard_normal((40, 64)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(ac.fft.rfft2(ac.asarray(xr))),
                               np.fft.rfft2(xr.astype(np.float64)), rtol=0, atol=2e-5 * 64)
    with pytest.raises(ValueError, match="fft_c2c_inplace"):
        N.fft_c2c_inplace(ac.asarray(rand_complex(rng, (8, 6), np.complex64))[:, ::2], (0,), True)
    with pytest.raises(TypeError, match="fft_c2c_inplace"):
        N.fft_c2c_inplace(ac.asarray(np.zeros((4, 4))), (0,), True)
    with pytest.raises(ValueError, match="fft_c2c_inplace"):
        N.fft_c2c_inplace(ac.asarray(np.zeros((4, 4), np.complex64)), (0, 0), True)


def test_threads_agree():
    rng = np.random.default_rng(6)
    x = rand_complex(rng, (64, 4096), np.complex128)
    old = ac.native._native.get_num_threads() if hasattr(ac, "native") else N.get_num_threads()
    try:
        N.set_num_threads(1)
        one = np.asarray(N.fft_c2c(ac.asarray(x), (0, 1), True, 1.0))
        N.set_num_threads(2)
        two = np.asarray(N.fft_c2c(ac.asarray(x), (0, 1), True, 1.0))
        big = rand_complex(rng, (2 ** 16,), np.complex128)
        N.set_num_threads(1)
        b1 = np.asarray(N.fft_c2c(ac.asarray(big), (0,), True, 1.0))
        N.set_num_threads(2)
        b2 = np.asarray(N.fft_c2c(ac.asarray(big), (0,), True, 1.0))
    finally:
        N.set_num_threads(old)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(b1, b2)


def test_special_values():
    x = np.zeros(8, np.complex128)
    x[3] = np.inf
    got = np.asarray(N.fft_c2c(ac.asarray(x), (0,), True, 1.0))
    assert not np.isfinite(got).all()
    x = np.full(5, np.nan, np.complex64)
    assert np.isnan(np.asarray(N.fft_c2c(ac.asarray(x), (0,), True, 1.0))).all()


def test_empty_batches():
    x = np.zeros((0, 8), np.complex64)
    got = np.asarray(N.fft_c2c(ac.asarray(x), (1,), True, 1.0))
    assert got.shape == (0, 8) and got.dtype == np.complex64
    assert np.asarray(N.fft_r2c(ac.asarray(np.zeros((0, 8))), 1, 1.0)).shape == (0, 5)
    assert np.asarray(N.fft_c2r(ac.asarray(np.zeros((0, 5), np.complex128)), 1, 8, 1.0)).shape == (0, 8)


def test_errors():
    c = ac.asarray(np.zeros((2, 4), np.complex128))
    r = ac.asarray(np.zeros((2, 4)))
    with pytest.raises(TypeError, match="fft_c2c"):
        N.fft_c2c(r, (0,), True, 1.0)
    with pytest.raises(TypeError, match="fft_r2c"):
        N.fft_r2c(c, 0, 1.0)
    with pytest.raises(TypeError, match="fft_c2r"):
        N.fft_c2r(r, 1, 6, 1.0)
    with pytest.raises(TypeError, match="fft_r2c"):
        N.fft_r2c(ac.asarray(np.zeros(4, np.int64)), 0, 1.0)
    with pytest.raises(ValueError, match="fft_c2c"):
        N.fft_c2c(c, (2,), True, 1.0)
    with pytest.raises(ValueError, match="fft_c2c"):
        N.fft_c2c(c, (1, 1), True, 1.0)
    with pytest.raises(ValueError, match="fft_c2c"):
        N.fft_c2c(ac.asarray(np.zeros((0, 3), np.complex64)), (0,), True, 1.0)
    with pytest.raises(ValueError, match="fft_c2r"):
        N.fft_c2r(c, 1, 4, 1.0)  # length 4 along the axis needs n in (6, 7)
    with pytest.raises(ValueError, match="fft_c2r"):
        N.fft_c2r(c, 1, 0, 1.0)
    with pytest.raises(ValueError, match="fft_set_isa"):
        N.fft_set_isa("sse9")


def test_plan_cache():
    N.fft_clear_plan_cache()
    assert N.fft_plan_cache_size() == 0
    x = ac.asarray(np.ones(48, np.complex128))
    N.fft_c2c(x, (0,), True, 1.0)
    k = N.fft_plan_cache_size()
    assert k >= 1
    N.fft_c2c(x, (0,), True, 1.0)
    assert N.fft_plan_cache_size() == k
    N.fft_c2c(x, (0,), False, 1.0)  # the direction is part of the key
    assert N.fft_plan_cache_size() == k + 1
