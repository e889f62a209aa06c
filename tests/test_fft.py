"""arraycore.fft against NumPy (and SciPy for hfftn/ihfftn): every function on random inputs of
every floating dtype plus integer promotion (single precision stays single), n/s padding and
truncation, negative and repeated axes, the three norms, empty batch dimensions,
non-contiguous and negative-stride inputs, and the errors (0-d input, length 0, bad norm,
complex input to the real transforms).  The derivatives of the table entries are checked by
tests/test_autodiff_ops.py (metadata in tests/autodiff_op_info_fft.py); the composites' and
a JAX comparison of the table entries are at the end of this file.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraycore as ac

RNG = np.random.default_rng(1234)
FLOATS = ["float32", "float64", "complex64", "complex128"]
NORMS = [None, "backward", "ortho", "forward"]
C2C_1D = ["fft", "ifft"]
REAL_IN_1D = ["rfft", "ihfft"]          # real input
HERM_IN_1D = ["irfft", "hfft"]          # complex (Hermitian) input, real output
ONE_D = C2C_1D + REAL_IN_1D + HERM_IN_1D
N_D = ["fftn", "ifftn", "rfftn", "irfftn"]
TWO_D = ["fft2", "ifft2", "rfft2", "irfft2"]


def rand(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        v = RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)
    elif dt.kind == "f":
        v = RNG.standard_normal(shape)
    elif dt.kind == "b":
        v = RNG.random(shape) < 0.5
    else:
        v = RNG.integers(-20, 20, size=shape)
    return np.asarray(v).astype(dt)


def to_ac(v):
    return ac.asarray(np.array(v, order="C"), copy=True)


def tol(dtype):
    return 2e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


def close(ours, ref, what=""):
    a = np.asarray(ours)
    ref = np.asarray(ref)
    assert type(ours) is ac.Array, f"{what}: returned {type(ours).__name__}"
    assert a.shape == ref.shape, f"{what}: shape {a.shape}, expected {ref.shape}"
    assert a.dtype == ref.dtype, f"{what}: dtype {a.dtype}, expected {ref.dtype}"
    t = tol(ref.dtype)
    scale = float(np.max(np.abs(ref))) if ref.size else 1.0
    np.testing.assert_allclose(a, ref, rtol=t, atol=t * max(1.0, scale), err_msg=what)


def numpy_ref(name):
    return getattr(np.fft, name)


def input_dtype(name, dtype):
    """The dtype a function is fed in the dtype sweeps: the real transforms take the real
    dtype of the same precision."""
    if name in REAL_IN_1D + ["rfftn", "rfft2"] and np.dtype(dtype).kind == "c":
        return {"complex64": "float32", "complex128": "float64"}[dtype]
    return dtype


# --- one axis -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ONE_D)
def test_1d_matches_numpy_and_keeps_precision(name, dtype):
    dt = input_dtype(name, dtype)
    for shape in [(1,), (2,), (7,), (16,), (3, 10), (2, 3, 9)]:
        if shape == (1,) and name in HERM_IN_1D:
            continue  # n = 2*(1 - 1) = 0: an error (test_length_zero_and_bad_n...)
        v = rand(shape, dt)
        close(getattr(ac.fft, name)(to_ac(v)), numpy_ref(name)(v), f"{name}{shape} {dt}")


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("name", ONE_D)
def test_integer_and_bool_input_is_promoted_to_double(name, dtype):
    v = rand((3, 8), dtype)
    close(getattr(ac.fft, name)(to_ac(v)), numpy_ref(name)(v), f"{name} {dtype}")


@pytest.mark.parametrize("name", ONE_D)
def test_1d_n_pads_and_truncates(name):
    dt = input_dtype(name, "complex128")
    v = rand((3, 10), dt)
    for n in [1, 2, 3, 5, 9, 10, 11, 16, 31]:
        for axis in [-1, 1]:
            close(getattr(ac.fft, name)(to_ac(v), n=n, axis=axis),
                  numpy_ref(name)(v, n=n, axis=axis), f"{name} n={n}")
    # n given positionally, as NumPy allows
    close(getattr(ac.fft, name)(to_ac(v), 7), numpy_ref(name)(v, 7), f"{name} positional n")


@pytest.mark.parametrize("name", ONE_D)
def test_1d_axes_and_norms(name):
    dt = input_dtype(name, "complex64")
    v = rand((4, 5, 6), dt)
    for axis in [0, 1, 2, -1, -2, -3]:
        for norm in NORMS:
            close(getattr(ac.fft, name)(to_ac(v), axis=axis, norm=norm),
                  numpy_ref(name)(v, axis=axis, norm=norm), f"{name} axis={axis} {norm}")


@pytest.mark.parametrize("name", ONE_D)
def test_1d_norms_with_n(name):
    dt = input_dtype(name, "float64")
    v = rand((9,), dt)
    for norm in NORMS:
        for n in [4, 13]:
            close(getattr(ac.fft, name)(to_ac(v), n=n, norm=norm),
                  numpy_ref(name)(v, n=n, norm=norm), f"{name} n={n} {norm}")


@pytest.mark.parametrize("name", ONE_D)
def test_noncontiguous_and_negative_strides(name):
    dt = input_dtype(name, "complex128")
    v = rand((6, 12), dt)
    x = to_ac(v)
    views = {"reversed": (x[..., ::-1], v[..., ::-1]),
             "step2": (x[:, ::2], v[:, ::2]),
             "transposed": (ac.matrix_transpose(x), v.T),
             "rows_reversed": (x[::-1, 1::3], v[::-1, 1::3])}
    for k, (xa, vn) in views.items():
        for axis in [-1, 0]:
            close(getattr(ac.fft, name)(xa, axis=axis), numpy_ref(name)(vn, axis=axis),
                  f"{name} {k} axis={axis}")
    np.testing.assert_array_equal(np.asarray(x), v)  # the input is not modified


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_negative_strides_with_padding_and_truncation(name):
    dt = input_dtype(name, "complex128")
    v = rand((5, 12), dt)
    x = to_ac(v)
    for n in (3, 12, 17):
        if name in N_D:
            kw = {"s": (2, n), "axes": (0, 1)}
        else:
            kw = {"n": n, "axis": -1}
        close(getattr(ac.fft, name)(x[::-1, ::-2], **kw), numpy_ref(name)(v[::-1, ::-2], **kw),
              f"{name} {kw}")


@pytest.mark.parametrize("name", ONE_D + N_D + TWO_D)
def test_empty_batch_dimensions(name):
    dt = input_dtype(name, "complex64")
    v = rand((0, 3, 8), dt)
    kw = {"axes": (1, 2)} if name in N_D else {}
    ours = getattr(ac.fft, name)(to_ac(v), **kw)
    ref = numpy_ref(name)(np.ones((1, 3, 8), dt), **kw)[:0]
    close(ours, ref, f"{name} empty batch")


@pytest.mark.parametrize("name", ONE_D)
def test_0d_input_is_an_axis_error(name):
    x = ac.asarray(1.0 if name in REAL_IN_1D else 1.0 + 0j)
    with pytest.raises((ValueError, IndexError), match=name):
        getattr(ac.fft, name)(x)


@pytest.mark.parametrize("name", ONE_D)
def test_length_zero_and_bad_n_are_value_errors(name):
    dt = input_dtype(name, "complex128")
    f = getattr(ac.fft, name)
    with pytest.raises(ValueError, match="number of FFT data points"):
        f(ac.asarray(np.zeros((3, 0), dt)))
    with pytest.raises(ValueError, match="number of FFT data points"):
        f(to_ac(rand((4,), dt)), n=0)
    with pytest.raises(ValueError, match="number of FFT data points"):
        f(to_ac(rand((4,), dt)), n=-2)
    with pytest.raises(TypeError, match=name):
        f(to_ac(rand((4,), dt)), n=2.0)
    with pytest.raises((ValueError, IndexError), match=name):
        f(to_ac(rand((4,), dt)), axis=1)
    if name in HERM_IN_1D:  # one bin gives n = 2*(1 - 1) = 0 by default
        with pytest.raises(ValueError, match="number of FFT data points"):
            f(ac.asarray([1.0 + 0j]))
        close(f(ac.asarray([2.0 + 0j]), n=1), numpy_ref(name)(np.array([2.0 + 0j]), n=1))


@pytest.mark.parametrize("name", ONE_D + N_D + TWO_D + ["hfftn", "ihfftn", "hfft2", "ihfft2"])
def test_bad_norm_is_a_value_error(name):
    dt = input_dtype(name, "complex128")
    if name in ("ihfftn", "ihfft2"):
        dt = "float64"
    x = to_ac(rand((4, 4), dt))
    for bad in ["Ortho", "none", "", 1]:
        with pytest.raises(ValueError, match="norm"):
            getattr(ac.fft, name)(x, norm=bad)


@pytest.mark.parametrize("name", ["rfft", "ihfft", "rfftn", "rfft2", "ihfftn", "ihfft2"])
def test_real_transforms_reject_complex_input(name):
    with pytest.raises(TypeError, match="real-valued"):
        getattr(ac.fft, name)(to_ac(rand((4, 4), "complex128")))


def test_non_array_input_is_a_type_error():
    for name in ONE_D + N_D:
        with pytest.raises(TypeError, match=name):
            getattr(ac.fft, name)([1.0, 2.0])


def test_roundtrips():
    v = rand((5, 12), "float64")
    x = to_ac(v)
    for norm in NORMS:
        np.testing.assert_allclose(np.asarray(ac.fft.ifft(ac.fft.fft(x, norm=norm), norm=norm)),
                                   v, atol=1e-13)
        np.testing.assert_allclose(
            np.asarray(ac.fft.irfft(ac.fft.rfft(x, norm=norm), n=12, norm=norm)), v, atol=1e-13)
        np.testing.assert_allclose(
            np.asarray(ac.fft.hfft(ac.fft.ihfft(x, norm=norm), n=12, norm=norm)), v, atol=1e-13)
        np.testing.assert_allclose(
            np.asarray(ac.fft.irfftn(ac.fft.rfftn(x, norm=norm), s=(5, 12), norm=norm)), v,
            atol=1e-13)


@pytest.mark.parametrize("h", [5, 8193])  # n = 8 (batched route), 16384 (single-line route)
def test_irfft_ignores_the_imaginary_parts_of_dc_and_nyquist(h):
    v = rand((h,), "complex128")
    close(ac.fft.irfft(to_ac(v)), np.fft.irfft(v))
    w = v.copy()
    w[0] = w[0].real
    w[-1] = w[-1].real
    close(ac.fft.irfft(to_ac(v)), np.fft.irfft(w))


@pytest.mark.parametrize("n", [8, 7, 64, 97, 1000, 16384])
def test_special_values_spread_to_every_bin(n):
    """A NaN in the input makes every output NaN, an inf every output non-finite (as NumPy;
    which bins get NaN from inf - inf depends on the algorithm, so only that is compared)."""
    for name in ("fft", "rfft", "ifft"):
        for val in (np.nan, np.inf, -np.inf):
            v = rand((n,), "float64")
            v[3] = val
            out = np.asarray(getattr(ac.fft, name)(to_ac(v)))
            assert (~np.isfinite(out)).all(), (name, val)
            if np.isnan(val):
                assert np.isnan(out).all(), name


@pytest.mark.parametrize("n", [3411, 3736, 4113, 4168, 18027])
def test_lengths_whose_prime_factor_plan_is_bluestein(n):
    """n = 9 * 379, 8 * 467, 9 * 457, 8 * 521, 9 * 2003: the whole length runs a direct
    radix-p pass while p's own plan is Bluestein, which the four-step split (long and lone
    lines) cannot use; such lengths above 4096 once came out wrong."""
    for dt in ("complex128", "complex64"):
        v = rand((n,), dt)
        close(ac.fft.fft(to_ac(v)), np.fft.fft(v), f"fft n={n} {dt}")
        close(ac.fft.ifft(to_ac(v)), np.fft.ifft(v), f"ifft n={n} {dt}")
    v = rand((2 * n,), "float64")
    close(ac.fft.rfft(to_ac(v)), np.fft.rfft(v), f"rfft n={2 * n}")
    close(ac.fft.irfft(to_ac(v[: n + 1] + 0j)), np.fft.irfft(v[: n + 1] + 0j), f"irfft n={2 * n}")


def test_lines_on_their_own_with_strides():
    """Lone and long lines run straight between the user's arrays (four-step split or
    Bluestein): strided input (a lone line x[::2]) and strided input and output (long lines
    along axis 0 of an (n, 2) array), forward and inverse, complex and real."""
    for n in (10007, 1024, 3000):  # Bluestein, four-step split, four-step split
        v = rand((2 * n,), "complex128")
        close(ac.fft.fft(to_ac(v)[::2]), np.fft.fft(v[::2]), f"fft lone strided n={n}")
        close(ac.fft.ifft(to_ac(v)[::-2]), np.fft.ifft(v[::-2]), f"ifft lone reversed n={n}")
        r = v.real.copy()
        close(ac.fft.rfft(to_ac(r)[::2]), np.fft.rfft(r[::2]), f"rfft lone strided n={n}")
    for n in (10007, 8192):  # long lines: Bluestein, four-step split
        v = rand((n, 2), "complex64")
        close(ac.fft.fft(to_ac(v), axis=0), np.fft.fft(v, axis=0), f"fft long columns n={n}")
        r = rand((2 * n, 2), "float64")
        close(ac.fft.rfft(to_ac(r), axis=0), np.fft.rfft(r, axis=0), f"rfft long columns {n}")
        h = rand((n + 1, 2), "complex128")
        close(ac.fft.irfft(to_ac(h), axis=0), np.fft.irfft(h, axis=0), f"irfft long columns {n}")


def test_known_values():
    x = ac.asarray([1.0, 0.0, -1.0, 0.0])
    np.testing.assert_allclose(np.asarray(ac.fft.fft(x)), [0, 2, 0, 2], atol=1e-15)
    x = ac.asarray([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(np.asarray(ac.fft.rfft(x)), [10, -2 + 2j, -2], atol=1e-14)


# --- several axes -------------------------------------------------------------------------

S_AXES = [
    (None, None), (None, (0,)), (None, (-1,)), (None, (0, 2)), (None, (2, 0)), (None, (-1, -3)),
    ((4, 5), (0, 1)), ((3, 8, 2), (0, 1, 2)), ((2, 7), (-1, 0)), ((-1, 6), (1, 2)),
    ((5,), (1,)), (None, (1, 1)), ((4, 6), (2, 2)), ((3, 5, 4), (0, 2, 0)),
]


def _nd_ref(name, v, s, axes, norm):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return numpy_ref(name)(v, s=s, axes=axes, norm=norm)


@pytest.mark.parametrize("name", N_D)
@pytest.mark.parametrize("s,axes", S_AXES, ids=[f"s{s}-axes{a}" for s, a in S_AXES])
def test_nd_matches_numpy(name, s, axes):
    dt = input_dtype(name, "complex128")
    v = rand((3, 4, 5), dt)
    for norm in (None, "ortho", "forward"):
        close(getattr(ac.fft, name)(to_ac(v), s=s, axes=axes, norm=norm),
              _nd_ref(name, v, s, axes, norm), f"{name} s={s} axes={axes} norm={norm}")


@pytest.mark.parametrize("dtype", FLOATS + ["int64"])
@pytest.mark.parametrize("name", N_D + TWO_D)
def test_nd_dtypes(name, dtype):
    dt = input_dtype(name, dtype)
    v = rand((2, 6, 5), dt)
    close(getattr(ac.fft, name)(to_ac(v)), numpy_ref(name)(v), f"{name} {dt}")


@pytest.mark.parametrize("name", TWO_D)
def test_2d_with_s_and_axes(name):
    dt = input_dtype(name, "complex128")
    v = rand((3, 6, 5), dt)
    x = to_ac(v)
    f, ref = getattr(ac.fft, name), numpy_ref(name)
    close(f(x, s=(4, 8)), ref(v, s=(4, 8)))
    close(f(x, axes=(0, 2)), ref(v, axes=(0, 2)))
    close(f(x, s=(2, 3), axes=(2, 0), norm="ortho"), ref(v, s=(2, 3), axes=(2, 0), norm="ortho"))
    close(f(x[::-1, :, ::2]), ref(v[::-1, :, ::2]), f"{name} strided")


def test_nd_errors():
    x = to_ac(rand((3, 4), "complex128"))
    with pytest.raises(ValueError, match="different lengths"):
        ac.fft.fftn(x, s=(3, 4), axes=(0,))
    with pytest.raises(ValueError, match="number of FFT data points"):
        ac.fft.fftn(x, s=(0, 4), axes=(0, 1))
    with pytest.raises((ValueError, IndexError), match="ifftn"):
        ac.fft.ifftn(x, axes=(2,))
    with pytest.raises(ValueError, match="rfftn"):
        ac.fft.rfftn(ac.asarray(1.0))
    with pytest.raises(ValueError, match="number of FFT data points"):
        ac.fft.irfftn(ac.asarray(np.ones((3, 1), complex)))  # 2*(1-1) along the last axis
    with pytest.raises(TypeError, match="fftn"):
        ac.fft.fftn(x, axes=1)


def test_fftn_over_no_axes_is_a_complex_copy():
    v = rand((3, 4), "float32")
    x = to_ac(v)
    out = ac.fft.fftn(x, axes=())
    close(out, np.fft.fftn(v, axes=()).astype(np.complex64))
    y = to_ac(rand((3,), "complex128"))
    assert ac.fft.fftn(y, axes=()) is not y


@pytest.mark.parametrize("name", ["hfftn", "ihfftn", "hfft2", "ihfft2"])
def test_hermitian_nd_matches_scipy(name):
    scipy_fft = pytest.importorskip("scipy.fft")
    dt = "float64" if name.startswith("ih") else "complex128"
    v = rand((3, 4, 5), dt)
    x = to_ac(v)
    f, ref = getattr(ac.fft, name), getattr(scipy_fft, name)
    cases = [{}, {"norm": "ortho"}, {"norm": "forward"}]
    if name.endswith("n"):
        cases += [{"axes": (0, 2)}, {"s": (4, 6), "axes": (1, 2)}, {"s": (2, 3, 4)}]
    else:
        cases += [{"axes": (0, 2)}, {"s": (4, 6)}]
    for kw in cases:
        close(f(x, **kw), ref(v, **kw), f"{name} {kw}")
    if dt == "float64":  # single precision stays single
        close(f(to_ac(v.astype(np.float32))), ref(v.astype(np.float32)), f"{name} float32")


def test_hfft_ihfft_1d_identities():
    v = rand((7,), "complex128")
    for norm in NORMS:
        close(ac.fft.hfft(to_ac(v), norm=norm), np.fft.hfft(v, norm=norm))
        r = v.real.copy()
        close(ac.fft.ihfft(to_ac(r), norm=norm), np.fft.ihfft(r, norm=norm))


# --- frequencies and shifts ---------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5, 8, 101])
def test_fftfreq_rfftfreq(n):
    for d in (1.0, 0.25, 3):
        close(ac.fft.fftfreq(n, d=d), np.fft.fftfreq(n, d=d))
        close(ac.fft.rfftfreq(n, d=d), np.fft.rfftfreq(n, d=d))
    close(ac.fft.fftfreq(n, dtype=ac.float32), np.fft.fftfreq(n).astype(np.float32))
    close(ac.fft.rfftfreq(n, d=0.1, dtype=ac.float32),
          np.fft.rfftfreq(n, d=0.1).astype(np.float32))
    assert ac.fft.fftfreq(n, device=ac.ones(1).device).shape == (n,)


def test_fftfreq_errors():
    with pytest.raises(TypeError, match="fftfreq"):
        ac.fft.fftfreq(4.0)
    with pytest.raises(ValueError, match="fftfreq"):
        ac.fft.fftfreq(-1)
    with pytest.raises(TypeError, match="rfftfreq"):
        ac.fft.rfftfreq(4, dtype=ac.int64)
    assert ac.fft.fftfreq(0).shape == (0,)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts_match_numpy(name):
    for shape in [(), (1,), (5,), (6,), (3, 4), (2, 5, 7)]:
        v = rand(shape, "float64")
        x = to_ac(v)
        f, ref = getattr(ac.fft, name), getattr(np.fft, name)
        close(f(x), ref(v) if len(shape) else v, f"{name} {shape}")  # (NumPy fails on 0-d)
        for axes in ([0, -1], (-1,), 0) if len(shape) else ():
            close(f(x, axes=axes), ref(v, axes=axes), f"{name} {shape} axes={axes}")
    v = rand((5, 6), "complex64")
    close(getattr(ac.fft, name)(to_ac(v)[::-1, ::2]), getattr(np.fft, name)(v[::-1, ::2]))
    with pytest.raises((ValueError, IndexError), match=name):
        getattr(ac.fft, name)(to_ac(v), axes=2)


def test_namespace():
    names = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
             "fftfreq", "rfftfreq", "fftshift", "ifftshift", "fft2", "ifft2", "rfft2", "irfft2",
             "hfft2", "ihfft2", "hfftn", "ihfftn"]
    assert sorted(ac.fft.__all__) == sorted(names)
    for n in names:
        assert getattr(ac.fft, n).__doc__, n
    x = ac.ones(3)
    assert x.__array_namespace__().fft is ac.fft
    import pickle
    for n in names:  # functions pickle by reference
        f = getattr(ac.fft, n)
        assert pickle.loads(pickle.dumps(f)) is f, n


# --- derivatives of the composites and of the table entries against JAX -------------------

def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


COMPOSITES = [("fft2", {}), ("ifft2", {"s": (3, 6)}), ("rfft2", {"norm": "ortho"}),
              ("irfft2", {"s": (4, 6)}), ("fftshift", {"axes": (0,)}), ("ifftshift", {}),
              ("hfft2", {}), ("ihfft2", {"norm": "forward"}), ("hfftn", {"s": (4, 5)}),
              ("ihfftn", {"axes": (1,)})]


def _jax_composite(jnp, name):
    if name in ("hfft2", "hfftn"):
        def f(x, s=None, axes=None, norm=None):
            axes = (-2, -1) if axes is None and name == "hfft2" else axes
            sw = {None: "forward", "backward": "forward", "ortho": "ortho",
                  "forward": "backward"}[norm]
            return jnp.fft.irfftn(jnp.conj(x), s=s, axes=axes, norm=sw)
        return f
    if name in ("ihfft2", "ihfftn"):
        def f(x, s=None, axes=None, norm=None):
            axes = (-2, -1) if axes is None and name == "ihfft2" else axes
            sw = {None: "forward", "backward": "forward", "ortho": "ortho",
                  "forward": "backward"}[norm]
            return jnp.conj(jnp.fft.rfftn(x, s=s, axes=axes, norm=sw))
        return f
    return getattr(jnp.fft, name)


@pytest.mark.parametrize("name,kw", COMPOSITES, ids=[c[0] for c in COMPOSITES])
def test_composite_gradients_match_jax(name, kw):
    jax = _jax()
    jnp = jax.numpy
    real_in = name in ("rfft2", "ihfft2", "ihfftn", "fftshift", "ifftshift")
    v = rand((3, 4), "float64" if real_in else "complex128")
    out = np.asarray(getattr(ac.fft, name)(to_ac(v), **kw))
    w = rand(out.shape, out.dtype)

    def loss_ac(x):
        y = getattr(ac.fft, name)(x, **kw) * to_ac(w)
        return ac.sum(ac.real(y)) if y.dtype in (ac.complex64, ac.complex128) else ac.sum(y)

    def loss_jax(x):
        return jnp.sum(jnp.real(_jax_composite(jnp, name)(x, **kw) * w))

    ours = np.asarray(ac.func.grad(loss_ac)(to_ac(v)))
    ref = np.conj(np.asarray(jax.grad(loss_jax)(jnp.asarray(v))))  # PyTorch's convention
    np.testing.assert_allclose(ours, ref, rtol=1e-11, atol=1e-11)
    # the tape gives the same
    x = to_ac(v)
    x.requires_grad_()
    loss_ac(x).backward()
    np.testing.assert_allclose(np.asarray(x.grad), ref, rtol=1e-11, atol=1e-11)
    # and vmap of the composite is the stack of its results
    vb = rand((2, 3, 4), v.dtype)
    got = np.asarray(ac.func.vmap(lambda t: getattr(ac.fft, name)(t, **kw))(to_ac(vb)))
    exp = np.stack([np.asarray(getattr(ac.fft, name)(to_ac(vb[i]), **kw)) for i in range(2)])
    close(ac.asarray(got), exp)


TABLE = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft"]
CHECKS = [pytest.param("check_vjp", id="vjp"),
          pytest.param("check_jvp", id="jvp", marks=pytest.mark.slow),
          pytest.param("check_hvp", id="hvp", marks=pytest.mark.slow)]


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("name", TABLE)
def test_table_entries_match_jax(name, check):
    """The JAX comparisons of tests/test_autodiff_ops.py on every sample of the fft entries
    in float64 and complex128 (test_autodiff_ops runs them only in its slow sweep: its
    default subset, SMOKE, lists no fft op).  The vjps are the hand-written rules; the jvps
    are generated from the linear flag (and checked by test_autodiff_table's
    test_linear_flag_is_true), so only the vjps run by default."""
    _jax()
    import test_autodiff_ops as T
    from autodiff_op_info import OP_INFO
    for dtype in [d for d in OP_INFO[name].dtypes if d in ("float64", "complex128")]:
        T.run_samples(name, dtype, getattr(T, check))


REPEATED = [("fftn", {"axes": (1, 1)}, "complex128"),
            ("ifftn", {"s": (3, 5, 4), "axes": (0, 1, 0)}, "complex128"),
            ("rfftn", {"s": (4, 6), "axes": (1, 1)}, "float64"),
            ("rfftn", {"axes": (0, 1, 0)}, "float64"),
            ("irfftn", {"s": (3, 6), "axes": (1, 1)}, "complex128"),
            ("irfftn", {"s": (5, 2, 4), "axes": (1, 0, 1)}, "complex128")]


@pytest.mark.parametrize("name,kw,dtype", REPEATED, ids=[f"{r[0]}-{r[1]}" for r in REPEATED])
def test_repeated_axes_values_and_gradients(name, kw, dtype):
    """Repeated axes (one 1-D transform per occurrence, as NumPy; JAX rejects them): values
    against NumPy, derivatives by gradcheck (finite differences, forward and batched)."""
    v = rand((3, 4), dtype)
    f = getattr(ac.fft, name)
    close(f(to_ac(v), **kw), numpy_ref(name)(v, **kw))
    x = to_ac(v)
    x.requires_grad_()
    assert ac.autograd.gradcheck(lambda t: f(t, **kw), (x,), check_forward_ad=True,
                                 check_batched_grad=True)


def test_vmap_is_one_native_call(monkeypatch):
    """The batch axis of a vmap is one more untransformed axis: one native transform for the
    whole batch (and for its vjp under vmap)."""
    from arraycore.native import _native
    calls = []
    for fn in ("fft_c2c", "fft_c2c_inplace", "fft_r2c", "fft_c2r"):
        orig = getattr(_native, fn)
        monkeypatch.setattr(_native, fn, lambda *a, _o=orig, _n=fn: calls.append(_n) or _o(*a))
    xb = to_ac(rand((5, 3, 8), "complex128"))
    out = ac.func.vmap(lambda t: ac.fft.fft(t, axis=0, norm="ortho"), in_dims=1)(xb)
    assert calls == ["fft_c2c"]
    close(out, np.stack([np.fft.fft(np.asarray(xb)[:, b], axis=0, norm="ortho")
                         for b in range(3)]))
    calls.clear()
    rb = to_ac(rand((4, 6, 5), "float64"))
    ac.func.vmap(ac.fft.rfftn)(rb)
    assert sorted(calls) == ["fft_c2c_inplace", "fft_r2c"]
    calls.clear()
    g = ac.func.vmap(ac.func.grad(lambda t: ac.sum(ac.real(ac.fft.rfft(t)) ** 2)))(rb[:, 0])
    assert calls.count("fft_r2c") == 1 and calls.count("fft_c2r") == 1, calls
    ref = [np.asarray(ac.func.grad(lambda t: ac.sum(ac.real(ac.fft.rfft(t)) ** 2))(rb[i, 0]))
           for i in range(4)]
    close(g, np.stack(ref))
