"""Shared test helpers: comparisons against NumPy (the reference for every value test)."""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac

# The 13 dtypes of the standard, in the engine's code order, with their NumPy twins.
DTYPE_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float32", "float64", "complex64", "complex128"]
AC_DTYPES = [getattr(ac, n) for n in DTYPE_NAMES]
NP_DTYPES = [np.dtype(n) for n in DTYPE_NAMES]
INT_NAMES = [n for n in DTYPE_NAMES if "int" in n]
FLOAT_NAMES = ["float32", "float64"]
COMPLEX_NAMES = ["complex64", "complex128"]


def to_numpy(x) -> np.ndarray:
    """NumPy view of an arraycore array (through the buffer protocol / __array__)."""
    return np.asarray(x)


def has_native(name: str) -> bool:
    """Whether the engine already provides `_native.<name>` (pieces still landing on main)."""
    from arraycore.native import _native
    return hasattr(_native, name)


def requires_native(*names: str):
    """Skip marker for tests of functions whose native part has not landed yet."""
    missing = [n for n in names if not has_native(n)]
    return pytest.mark.skipif(bool(missing), reason=f"_native.{', '.join(missing)} not built yet")


def requires_ns(*names: str):
    """Skip marker for tests of namespace functions whose kernels are not in this build."""
    missing = [n for n in names if not hasattr(ac, n)]
    return pytest.mark.skipif(bool(missing), reason=f"ac.{', '.join(missing)} not in this build")


def random_numpy(shape, dtype, rng=None, low=-50, high=50) -> np.ndarray:
    """Random values of `dtype` (a name or NumPy dtype), within the dtype's range."""
    rng = np.random.default_rng(0) if rng is None else rng
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(low, info.min), min(high, info.max)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
    if dt.kind == "f":
        return rng.uniform(low, high, size=shape).astype(dt)
    re = rng.uniform(low, high, size=shape)
    im = rng.uniform(low, high, size=shape)
    return (re + 1j * im).astype(dt)


def ac_from_numpy(a: np.ndarray):
    """An arraycore copy of a NumPy array that does not depend on the buffer import
    (`asarray(numpy_array)` needs `_native.from_buffer`, which lands separately)."""
    a = np.asarray(a)
    dtype = getattr(ac, a.dtype.name)
    if a.ndim == 0:
        return ac.asarray(a.item(), dtype=dtype)
    if a.size == 0:
        return ac.zeros(a.shape, dtype=dtype)
    return ac.asarray(a.tolist(), dtype=dtype)


def _check_values(actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float,
                  what: str) -> None:
    kind = expected.dtype.kind
    if kind in "biu":
        np.testing.assert_array_equal(actual, expected, err_msg=what, strict=True)
        return
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True,
                               err_msg=what, strict=True)
    # Signed zeros: -0.0 where NumPy has -0.0, +0.0 where it has +0.0.
    zero = (expected == 0) & (actual == 0)
    if np.any(zero):
        bad = zero & (np.signbit(actual) != np.signbit(expected))
        assert not np.any(bad), (f"{what}: sign of zero differs at {np.argwhere(bad)[:5]}:"
                                 f" got {actual[bad][:5]}, expected {expected[bad][:5]}")


def assert_matches_numpy(x, expected, rtol: float | None = None, atol: float = 0.0,
                         check_dtype: bool = True) -> None:
    """Asserts an arraycore array equals a NumPy array: dtype name, shape, values (NaN equals
    NaN; for floats the sign of zero is checked too; complex parts compared separately)."""
    assert isinstance(x, ac.Array), f"expected an arraycore Array, got {type(x).__name__}"
    expected = np.asarray(expected)
    if check_dtype:
        assert x.dtype.name == expected.dtype.name, \
            f"dtype: got {x.dtype.name}, expected {expected.dtype.name}"
    assert x.shape == expected.shape, f"shape: got {x.shape}, expected {expected.shape}"
    actual = np.asarray(x)
    assert actual.dtype.name == x.dtype.name
    if not check_dtype:
        actual = actual.astype(expected.dtype)
    if rtol is None:
        rtol = 0.0 if expected.dtype.kind in "biu" else (
            1e-6 if expected.dtype in (np.float32, np.complex64) else 1e-12)
    if expected.dtype.kind == "c":
        _check_values(actual.real, expected.real, rtol, atol, "real part")
        _check_values(actual.imag, expected.imag, rtol, atol, "imaginary part")
    else:
        _check_values(actual, expected, rtol, atol, "values")


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def child_process_options() -> dict:
    """subprocess.run options under which a child Python imports the same arraycore as this
    process: the installed package in CI, the in-place build in development.  (A child
    started in the repository root would import the uncompiled source tree first.)"""
    import os
    import tempfile

    root = os.path.dirname(os.path.dirname(ac.__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    return {"env": env, "cwd": tempfile.gettempdir()}


# Exhaustive sweeps (every op x dtype x layout for autodiff, ...) are marked `slow` and run
# only with --runslow, so the default CI run stays lean.
def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (exhaustive sweeps)")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: exhaustive sweep, run with --runslow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="exhaustive sweep: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
