"""Autodiff test metadata of the fft family (loaded by tests/autodiff_op_info.py, whose
`build(add)` protocol this follows): sample calls of the ten op-table transforms, compared
with jax.numpy.fft by tests/test_autodiff_ops.py (jvp, vjp, Hessian-vector products, vmap,
finite differences, the tape, gradcheck).

The samples cover padding and truncation (`n`/`s`), every norm, transposed / strided /
reversed inputs, odd and even lengths (the Hermitian weights of the real transforms differ
at the Nyquist bin); the complex-input real transforms (irfft, hfft, irfftn) take real
input in the float sweeps (the finite-difference checks run on those) and complex input
in the complex128 one.  JAX rejects repeated axes, so those are checked against finite
differences in tests/test_fft.py instead.
"""

from __future__ import annotations

from autodiff_op_info import Arg, OpInfo, Sample


def _jnp_fft(name):
    def ref(*args, **kwargs):
        import jax.numpy as jnp
        return getattr(jnp.fft, name)(*args, **kwargs)
    ref.__name__ = f"jnp.fft.{name}"
    return ref


def _c2c_samples(rng, dtype):
    return [Sample((Arg((2, 8)),), name="2d"),
            Sample((Arg((3, 5), layout="transposed"),), {"axis": 0}, name="axis0"),
            Sample((Arg((7,)),), {"n": 10, "norm": "ortho"}, name="pad_ortho"),
            Sample((Arg((2, 9), layout="strided"),), {"n": 4, "norm": "forward"},
                   name="truncate_forward"),
            Sample((Arg((6,), layout="negative"), 5), name="negative_positional_n"),
            Sample((Arg((1,)),), name="size1")]


def _real_in_samples(rng, dtype):
    return [Sample((Arg((2, 8)),), name="2d_even"),
            Sample((Arg((7,)),), {"n": 10, "norm": "ortho"}, name="pad_ortho"),
            Sample((Arg((2, 9), layout="strided"),), {"n": 5, "norm": "forward"},
                   name="truncate_odd_forward"),
            Sample((Arg((4, 3), layout="transposed"),), {"axis": 0}, name="axis0"),
            Sample((Arg((5,), layout="negative"),), name="odd_negative"),
            Sample((Arg((2,)),), name="size2"),
            Sample((Arg((1,)),), name="size1")]


def _hermitian_in_samples(rng, dtype):
    return [Sample((Arg((2, 5)),), name="2d_default_n"),
            Sample((Arg((6,)),), {"n": 11}, name="odd_n"),
            Sample((Arg((4,)),), {"n": 10, "norm": "ortho"}, name="pad_ortho"),
            Sample((Arg((3, 9), layout="strided"),), {"n": 6, "norm": "forward"},
                   name="truncate_forward"),
            Sample((Arg((5, 3), layout="transposed"),), {"axis": 0}, name="axis0"),
            Sample((Arg((2,)),), {"n": 1}, name="n1")]


def _c2c_nd_samples(rng, dtype):
    return [Sample((Arg((2, 3, 4)),), name="all_axes"),
            Sample((Arg((3, 4), layout="transposed"),), {"axes": (0,)}, name="axis0"),
            Sample((Arg((3, 5)),), {"s": (4, 3), "axes": (0, 1), "norm": "ortho"},
                   name="pad_truncate_ortho"),
            Sample((Arg((2, 3, 4), layout="strided"),),
                   {"s": (5,), "axes": (-1,), "norm": "forward"}, name="last_forward"),
            Sample((Arg((2, 6), layout="negative"),), {"axes": (1, 0)}, name="reversed_axes")]


def _rfftn_samples(rng, dtype):
    return [Sample((Arg((2, 3, 4)),), name="all_axes"),
            Sample((Arg((3, 5)),), {"s": (4, 6), "axes": (0, 1), "norm": "ortho"},
                   name="pad_ortho"),
            Sample((Arg((4, 3), layout="transposed"),), {"axes": (1, 0)}, name="last_is_0"),
            Sample((Arg((2, 7), layout="strided"),),
                   {"s": (3, 5), "axes": (0, 1), "norm": "forward"}, name="odd_forward")]


def _irfftn_samples(rng, dtype):
    return [Sample((Arg((2, 3, 3)),), name="all_axes"),
            Sample((Arg((3, 4)),), {"s": (4, 7), "axes": (0, 1), "norm": "ortho"},
                   name="odd_pad_ortho"),
            Sample((Arg((4, 3), layout="transposed"),), {"axes": (1, 0)},
                   name="last_is_0"),
            Sample((Arg((2, 5)),), {"s": (3, 4), "axes": (0, 1), "norm": "forward"},
                   name="truncate_forward")]


def build(add):
    c2c = ("float64", "float32", "complex128")
    real = ("float64", "float32")
    for name in ("fft", "ifft"):
        add(OpInfo(name, _c2c_samples, _jnp_fft(name), c2c))
    for name in ("rfft", "ihfft"):
        add(OpInfo(name, _real_in_samples, _jnp_fft(name), real))
    for name in ("irfft", "hfft"):
        add(OpInfo(name, _hermitian_in_samples, _jnp_fft(name), c2c))
    for name in ("fftn", "ifftn"):
        add(OpInfo(name, _c2c_nd_samples, _jnp_fft(name), c2c))
    add(OpInfo("rfftn", _rfftn_samples, _jnp_fft("rfftn"), real))
    add(OpInfo("irfftn", _irfftn_samples, _jnp_fft("irfftn"), c2c))
