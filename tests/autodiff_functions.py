"""User functions shared by the autodiff frontend tests (test_autodiff_tape.py,
test_autodiff_transforms.py).

Each function is written once against the array API namespace of its argument
(`xp = namespace(x)`), so the very same code runs on arraycore arrays (and its tracers), on
JAX arrays (the oracle of the transforms) and on PyTorch tensors (the oracle of the tape,
through array_api_compat, since torch tensors have no `__array_namespace__`).  Comparing
arraycore with JAX / PyTorch on one definition leaves no room for a transcription slip.

`CASES` describes them: input shapes, whether the output is a scalar, whether inputs are
complex, and which rule families the function needs (so a failure caused by a rule family
that has not landed yet is easy to recognise).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def namespace(x):
    """The array API namespace of x: `x.__array_namespace__()` (arraycore, its tracers, JAX),
    array_api_compat's wrapper for PyTorch."""
    get = getattr(x, "__array_namespace__", None)
    if get is not None:
        return get()
    import array_api_compat
    return array_api_compat.array_namespace(x)


# --- scalar-output functions (grad, hessian, tape .backward()) ----------------------------

def sin_x(x):
    """sum(sin(x) * x): the smallest non-linear function."""
    xp = namespace(x)
    return xp.sum(xp.sin(x) * x)


def softplus_ratio(x):
    """exp, log1p, division and a Python scalar on both sides of an operator."""
    xp = namespace(x)
    return xp.sum(xp.log1p(xp.exp(x)) / (1.0 + x * x)) - 0.5 * xp.sum(xp.tanh(2.0 - x))


def two_args(x, y):
    """Two inputs of one shape, each used several times (gradient accumulation)."""
    xp = namespace(x)
    return xp.sum(x * xp.sin(y) + x * x * y - xp.exp(-y * y) / (1.0 + x * x))


def broadcast_args(x, y):
    """x of shape (3,) broadcast against y of shape (2, 3): x's gradient sums over rows."""
    xp = namespace(x)
    return xp.sum(xp.cos(x * y) * y + x)


def mlp(W, x, b):
    """sum(tanh(W @ x + b)**2): matmul."""
    xp = namespace(x)
    h = xp.tanh(W @ x + b)
    return xp.sum(h * h)


def kinks(x):
    """where / abs / maximum / minimum: piecewise functions (inputs avoid the kinks)."""
    xp = namespace(x)
    a = xp.where(x > 0, x * x, xp.abs(x))
    return xp.sum(a + xp.maximum(x, -0.5 * x) + xp.minimum(x, 0.25 * x * x))


def reductions(x):
    """mean, var (correction=1), std, prod, max along axes and in full."""
    xp = namespace(x)
    return (xp.mean(x) * xp.var(x, correction=1) + xp.sum(xp.prod(x, axis=0))
            + xp.sum(xp.std(x, axis=1)) + xp.max(x))


def shifted_products(x):
    """sum(x[1:] * x[:-1]) and a strided slice: basic indexing."""
    xp = namespace(x)
    return xp.sum(x[1:] * x[:-1]) + xp.sum(x[::2] * x[::2] * x[::2])


def gather(x):
    """Advanced indexing with a repeated index (the gradient accumulates) and take."""
    xp = namespace(x)
    idx = xp.asarray([0, 2, 2, 4])
    return xp.sum(xp.sin(x[idx])) + xp.sum(xp.take(x, idx) ** 2)


def manipulation(x):
    """reshape, flip, concat, stack, permute_dims, expand_dims: linear rearrangements."""
    xp = namespace(x)
    flat = xp.reshape(x, (-1,))
    y = xp.concat([flat, xp.flip(flat) * flat], axis=0)
    z = xp.stack([x, xp.sin(x)], axis=0)
    t = xp.permute_dims(x, (1, 0))
    return xp.sum(y * y) + xp.sum(xp.cos(z)) + xp.sum(xp.expand_dims(t, axis=0) ** 3)


def cumulative(x):
    """cumulative_sum: a linear scan."""
    xp = namespace(x)
    return xp.sum(xp.sin(xp.cumulative_sum(x)))


def complex_to_real(z):
    """A real-valued function of a complex input: its gradient follows the complex
    convention (PyTorch's = conj(JAX's))."""
    xp = namespace(z)
    return xp.sum(xp.abs(z * z + 1.0) + xp.real(xp.exp(z)) * xp.imag(z)
                  + xp.real(z * xp.conj(z)))


# --- array-output functions (vjp, jvp, jacobians, vmap) -----------------------------------

def v_sin_exp(x):
    xp = namespace(x)
    return xp.sin(x) * xp.exp(-x * x) + x


def v_two(x, y):
    xp = namespace(x)
    return x * y + xp.sin(x) / (2.0 + xp.cos(y))


def v_mlp(W, x, b):
    xp = namespace(x)
    return xp.tanh(W @ x + b)


def v_shifted(x):
    return x[1:] * x[:-1]


def v_holomorphic(z):
    """A holomorphic complex function: its jvp agrees with JAX's."""
    xp = namespace(z)
    return xp.exp(z) * z + xp.sin(z) * 0.5


# --- the registry -------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    name: str
    fn: object
    shapes: tuple               # one shape per positional input
    scalar: bool = True         # 0-d output
    complex: bool = False       # complex inputs
    families: tuple = ("elementwise",)  # rule families needed
    low: float = -2.0
    high: float = 2.0
    extra: dict = field(default_factory=dict)

    def numpy_inputs(self, seed=0, dtype=None):
        rng = np.random.default_rng(seed)
        dt = np.dtype(dtype or ("complex128" if self.complex else "float64"))
        out = []
        for s in self.shapes:
            a = rng.uniform(self.low, self.high, size=s)
            if dt.kind == "c":
                a = a + 1j * rng.uniform(self.low, self.high, size=s)
            out.append(a.astype(dt))
        return tuple(out)

    def __repr__(self):
        return self.name


CASES = [
    Case("sin_x", sin_x, ((5,),)),
    Case("softplus_ratio", softplus_ratio, ((2, 3),)),
    Case("two_args", two_args, ((4,), (4,))),
    Case("broadcast_args", broadcast_args, ((3,), (2, 3))),
    Case("mlp", mlp, ((4, 3), (3,), (4,)), families=("elementwise", "linalg")),
    Case("kinks", kinks, ((6,),), families=("elementwise", "searching")),
    Case("reductions", reductions, ((3, 4),), families=("reductions",), low=0.5),
    Case("shifted_products", shifted_products, ((6,),), families=("indexing",)),
    Case("gather", gather, ((5,),), families=("indexing",)),
    Case("manipulation", manipulation, ((2, 3),), families=("manipulation",)),
    Case("cumulative", cumulative, ((5,),), families=("reductions",)),
    Case("complex_to_real", complex_to_real, ((4,),), complex=True, low=-1.0, high=1.0),
]

VECTOR_CASES = [
    Case("v_sin_exp", v_sin_exp, ((4,),), scalar=False),
    Case("v_two", v_two, ((3,), (3,)), scalar=False),
    Case("v_mlp", v_mlp, ((4, 3), (3,), (4,)), scalar=False,
         families=("elementwise", "linalg")),
    Case("v_shifted", v_shifted, ((5,),), scalar=False, families=("indexing",)),
    Case("v_holomorphic", v_holomorphic, ((3,),), scalar=False, complex=True,
         low=-1.0, high=1.0),
]

# Functions that need nothing beyond the elementwise rules and `sum` (the rule families that
# exist from the start): the frontends' own behaviour is tested on these.
CORE_CASES = [c for c in CASES if c.families == ("elementwise",) and not c.complex]
CORE_VECTOR_CASES = [c for c in VECTOR_CASES if c.families == ("elementwise",)
                     and not c.complex]

BY_NAME = {c.name: c for c in CASES + VECTOR_CASES}


# --- converters ---------------------------------------------------------------------------

def to_ac(a):
    import arraycore as ac
    return ac.asarray(np.asarray(a))


def to_torch(a, requires_grad=False):
    import torch
    t = torch.from_numpy(np.array(a))
    if requires_grad:
        t.requires_grad_()
    return t


def to_jax(a):
    import jax.numpy as jnp
    return jnp.asarray(np.asarray(a))


def to_np(a):
    """NumPy copy of an arraycore array, a torch tensor or a JAX array (None stays None)."""
    if a is None:
        return None
    if hasattr(a, "detach") and hasattr(a, "numpy") and not hasattr(a, "_buffer_ptr"):
        return a.detach().numpy()
    return np.asarray(a)
