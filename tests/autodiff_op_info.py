"""Autodiff test metadata for every op of the table (arraycore._core.op_table.OPS).

`OP_INFO[name]` says how tests/test_autodiff_ops.py exercises an op: sample calls in the op's
domain, the JAX function it is compared with, and which dtypes it is swept over.  A new op
gets jvp / vjp / vmap / finite-difference / tape / gradcheck tests by adding one entry here;
tests/test_autodiff_table.py fails, naming the op, when an entry is missing.

A sample is a call `op.public(*args, **kwargs)` whose array inputs are `Arg` placeholders:
their values are drawn when a check runs (with an extra batch axis for vmap, so every
example of a batch is in the domain too).  Arg values of a floating dtype are the
differentiated inputs; integer / bool Args (index arrays, conditions) are batched by vmap
but held constant by the derivative checks.  NumPy arrays in a sample are constants,
`DT("float32")` a dtype argument (ac.float32 on our side, jnp.float32 on JAX's).

Values for elementwise ops come from `TestInfo.domain` of the op table, shrunk to its
interior and away from poles and kinks, so central finite differences and JAX agree with
the rules there (behaviour *at* kinks is PyTorch's, checked in the family test files).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from arraycore._core import dtypes as D
from arraycore._core.op_table import OPS

# --- placeholders -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Arg:
    """An input array.  dtype None: the dtype being swept.  layout: how the arraycore
    input is laid out in memory ("contiguous", "transposed": last two axes swapped,
    "strided": every other element of a twice-as-long last axis, "negative": reversed last
    axis), to exercise the rules on non-contiguous views."""

    shape: tuple
    sampler: Optional[Callable] = None  # sampler(rng, shape, np_dtype) -> values
    layout: str = "contiguous"
    dtype: Optional[str] = None


@dataclass(frozen=True)
class DT:
    """A dtype argument (`astype(x, DT("float32"))`, `sum(x, dtype=...)`)."""

    name: str


@dataclass
class Sample:
    args: tuple
    kwargs: dict = field(default_factory=dict)
    name: str = ""


@dataclass
class OpInfo:
    """samples(rng, dtype) -> [Sample]; ref: the JAX function (same signature as the op);
    dtypes: those swept (the first one runs by default for nondiff ops); vmap_raises: the op
    has data-dependent output shapes and vmap must raise a ValueError; hvp: check second
    derivatives; rtol: relative tolerance of the float64 comparisons with JAX."""

    name: str
    samples: Callable
    ref: Optional[Callable] = None
    dtypes: tuple = ("float64", "float32")
    sampler: Optional[Callable] = None  # default sampler of the op's Args
    vmap_raises: bool = False
    hvp: bool = True
    rtol: float = 1e-10
    notes: str = ""


# --- samplers ---------------------------------------------------------------------------------
# Each takes (rng, shape, np_dtype) and works for any leading (batch) shape.

def _cplx(rng, re, shape, im_lo, im_hi):
    return re + 1j * rng.uniform(im_lo, im_hi, size=shape)


def uniform(lo=-2.0, hi=2.0, im=(-0.8, 0.8)):
    """Real values in [lo, hi]; complex: that real part and an imaginary part in `im`
    (small, so complex branch cuts off the real axis stay away)."""
    def s(rng, shape, dt):
        v = rng.uniform(lo, hi, size=shape)
        if dt.kind == "c":
            v = _cplx(rng, v, shape, *im)
        return v
    return s


def away_from_zero(lo=0.3, hi=3.0, im=(-0.8, 0.8)):
    """Magnitude in [lo, hi], random sign: away from the kink / pole at 0."""
    def s(rng, shape, dt):
        v = rng.uniform(lo, hi, size=shape) * rng.choice([-1.0, 1.0], size=shape)
        if dt.kind == "c":
            v = _cplx(rng, v, shape, *im)
        return v
    return s


def with_zeros(positions, lo=0.5, hi=1.5):
    """Magnitudes in [lo, hi] (products stay moderate) with exact zeros at the given
    positions of the last axis (prod / cumulative_prod at zeros)."""
    base = away_from_zero(lo, hi)

    def s(rng, shape, dt):
        v = np.asarray(base(rng, shape, dt))
        if v.ndim:
            for p in positions:
                if p < v.shape[-1]:
                    v[..., p] = 0
        return v
    return s


def sorted_values(lo=-3.0, hi=3.0):
    def s(rng, shape, dt):
        return np.sort(rng.uniform(lo, hi, size=shape), axis=-1)
    return s


def small_ints(lo, hi):
    """Integers in [lo, hi] (as the dtype asked: float samples with repeats for unique /
    isin / equal; int64 for index arrays)."""
    def s(rng, shape, dt):
        return rng.randint(lo, hi + 1, size=shape)
    return s


def bools(p=0.5):
    def s(rng, shape, dt):
        return rng.random_sample(shape) < p
    return s


def specials():
    """Finite values mixed with inf / nan (isfinite, isinf, isnan)."""
    def s(rng, shape, dt):
        v = rng.uniform(-2, 2, size=shape)
        pick = rng.randint(0, 5, size=shape)
        v = np.where(pick == 0, np.inf, np.where(pick == 1, -np.inf,
                                                 np.where(pick == 2, np.nan, v)))
        return v
    return s


def draw(rng, arg: Arg, dtype: str, default_sampler, batch: Optional[int] = None):
    """Values of `arg` (NumPy, C-contiguous), with a leading batch axis when batch is set."""
    dt = np.dtype(arg.dtype or dtype)
    shape = tuple(arg.shape) if batch is None else (batch,) + tuple(arg.shape)
    sampler = arg.sampler or default_sampler or uniform()
    # (np.ascontiguousarray would turn a 0-d array into a 1-d one)
    return np.array(np.asarray(sampler(rng, shape, dt)).astype(dt), order="C")


def arg_dtype(arg: Arg, dtype: str) -> np.dtype:
    return np.dtype(arg.dtype or dtype)


# --- walking a sample's arguments ---------------------------------------------------------------

def args_of(sample: Sample) -> list:
    """The Arg placeholders of a sample, in the order `fill` consumes values."""
    out = []

    def walk(o):
        if isinstance(o, Arg):
            out.append(o)
        elif type(o) in (tuple, list):
            for v in o:
                walk(v)
        elif type(o) is dict:
            for v in o.values():
                walk(v)

    walk(sample.args)
    walk(sample.kwargs)
    return out


def fill(sample: Sample, values, const, dtype_of):
    """(args, kwargs) of the call with the Args replaced by `values` (in args_of order),
    NumPy constants by const(array) and DT(name) by dtype_of(name)."""
    it = iter(values)

    def m(o):
        if isinstance(o, Arg):
            return next(it)
        if isinstance(o, DT):
            return dtype_of(o.name)
        if isinstance(o, np.ndarray):
            return const(o)
        if type(o) is tuple:
            return tuple(m(v) for v in o)
        if type(o) is list:
            return [m(v) for v in o]
        if type(o) is dict:
            return {k: m(v) for k, v in o.items()}
        return o

    args = m(sample.args)
    kwargs = m(sample.kwargs)
    return args, kwargs


# --- dtypes -----------------------------------------------------------------------------------

def accepts_complex(op) -> bool:
    return "c" in D.KIND_CATEGORIES[op.accepts]


# Ops accepting complex inputs whose complex derivative is not compared (complex sort has no
# derivative convention worth checking; the rest are nondiff).
NO_COMPLEX = {"sort"}


def diff_dtypes(op) -> tuple:
    d = ["float64", "float32"]
    if accepts_complex(op) and op.name not in NO_COMPLEX:
        d.append("complex128")
    return tuple(d)


# --- elementwise ------------------------------------------------------------------------------

def _domain_interval(op):
    """The op's TestInfo.domain shrunk to its interior, within [-3, 3]."""
    lo, hi = op.test.domain
    if lo is not None and hi is not None:
        span = hi - lo
        lo, hi = lo + 0.05 * span, hi - 0.05 * span
    elif lo is not None:
        lo, hi = lo + 0.2, lo + 5.0
    elif hi is not None:
        lo, hi = hi - 5.0, hi - 0.2
    else:
        lo, hi = -3.0, 3.0
    return max(lo, -3.0), min(hi, 3.0)


# Per-operand samplers where the domain alone does not keep away from poles and kinks.
_OPERANDS = {
    "tan": (uniform(-1.2, 1.2),),
    "abs": (away_from_zero(),),
    "sign": (away_from_zero(),),
    "reciprocal": (away_from_zero(),),
    "divide": (uniform(), away_from_zero()),
    "floor_divide": (uniform(-5, 5), away_from_zero(0.5, 2.0)),
    "remainder": (uniform(-5, 5), away_from_zero(0.5, 2.0)),
    "pow": (uniform(0.3, 3.0), uniform(-2.0, 2.0)),
    "copysign": (away_from_zero(), away_from_zero()),
    "atan2": (away_from_zero(), away_from_zero()),
    "hypot": (away_from_zero(), away_from_zero()),
}

# Python scalar second operands (array op scalar).
_SCALAR_RHS = {"pow": 2.0, "divide": 1.7, "floor_divide": 1.7, "remainder": 1.7,
               "copysign": -1.5}


def _operand_samplers(op):
    if op.name in _OPERANDS:
        s = _OPERANDS[op.name]
        return s if len(s) == max(op.arity, 1) else s * op.arity
    lo, hi = _domain_interval(op)
    return (uniform(lo, hi),) * op.arity


def _unary_samples(op):
    s, = _operand_samplers(op)

    def gen(rng, dtype):
        return [Sample((Arg((2, 3), s),), name="2d"),
                Sample((Arg((), s),), name="0d"),
                Sample((Arg((1,), s),), name="size1"),
                Sample((Arg((3, 4), s, "transposed"),), name="transposed"),
                Sample((Arg((5,), s, "strided"),), name="strided")]
    return gen


def _binary_samples(op):
    s1, s2 = _operand_samplers(op)
    scalar = _SCALAR_RHS.get(op.name, 1.5)

    def gen(rng, dtype):
        out = [Sample((Arg((3, 1), s1), Arg((4,), s2)), name="broadcast"),
               Sample((Arg((), s1), Arg((2, 3), s2)), name="0d_lhs"),
               Sample((Arg((1,), s1), Arg((1,), s2)), name="size1"),
               Sample((Arg((3, 4), s1, "transposed"), Arg((3, 4), s2, "strided")),
                      name="noncontiguous"),
               Sample((Arg((3,), s1), scalar), name="scalar_rhs")]
        if dtype.startswith("complex"):
            # A real operand meets a complex one: its cotangent is the real part.
            out.append(Sample((Arg((2, 3), s1), Arg((2, 3), s2, dtype="float64")),
                              name="mixed_real"))
        return out
    return gen


def _clip_samples(rng, dtype):
    x, lo, hi = uniform(-3, 3), uniform(-2, -0.3), uniform(0.3, 2)
    return [Sample((Arg((3, 4), x),), {"min": Arg((4,), lo), "max": Arg((3, 1), hi)},
                   name="array_bounds"),
            Sample((Arg((5,), x),), {"min": -0.5, "max": 0.7}, name="scalar_bounds"),
            Sample((Arg((2, 3), x, "transposed"),), {"min": Arg((2, 3), lo)}, name="min_only"),
            Sample((Arg((2, 3), x), Arg((3,), lo), Arg((2, 1), hi)), name="positional"),
            Sample((Arg((), x),), {"max": Arg((), hi)}, name="0d_max_only")]


# Nondiff elementwise ops: the dtype and values of their inputs.
def _nondiff_elementwise(op):
    if op.accepts == "bool":
        dtype, s = "bool", bools()
    elif op.name in ("bitwise_left_shift", "bitwise_right_shift"):
        dtype, s = "int64", None
    elif op.accepts in ("integer or boolean", "integral"):
        dtype, s = "int64", small_ints(-20, 20)
    elif op.name in ("isfinite", "isinf", "isnan"):
        dtype, s = "float64", specials()
    else:  # comparisons: repeats so that equality happens
        dtype, s = "float64", small_ints(-2, 2)

    def gen(rng, dtype_):
        if op.name in ("bitwise_left_shift", "bitwise_right_shift"):
            a = [Arg((3, 1), small_ints(-20, 20)), Arg((4,), small_ints(0, 6))]
        else:
            a = [Arg((3, 1), s), Arg((4,), s)][:op.arity]
        out = [Sample(tuple(a), name="broadcast")]
        one = a[0]
        out.append(Sample((Arg((), one.sampler),) + tuple(a[1:]), name="0d"))
        out.append(Sample(tuple(Arg((3, 4), v.sampler, "transposed") for v in a),
                          name="transposed"))
        return out
    return gen, (dtype,)


# --- JAX references -----------------------------------------------------------------------------

def _jnp():
    import jax
    jax.config.update("jax_enable_x64", True)
    return jax.numpy


def jnp_ref(name):
    """jnp.<name>: JAX implements the array API names with the same signatures."""
    def ref(*args, **kwargs):
        return getattr(_jnp(), name)(*args, **kwargs)
    ref.__name__ = f"jnp.{name}"
    return ref


def _nextafter_ref(x1, x2):
    # JAX has no derivative rule for nextafter.  Its derivative is 1 in x1 and 0 in x2
    # almost everywhere, which is what x1 + stop_gradient(nextafter(x1, x2) - x1) has.
    import jax
    sg = jax.lax.stop_gradient
    return x1 + (_jnp().nextafter(sg(x1), sg(x2)) - sg(x1))


def _sign_ref(x):
    # JAX gives sign a zero derivative for every dtype; for complex z, sign(z) = z / |z| has
    # a nonzero one (PyTorch's sgn), and the samples keep away from 0.
    jnp = _jnp()
    return x / jnp.abs(x) if jnp.iscomplexobj(x) else jnp.sign(x)


def _getitem_ref(x, key):
    return x[key]


def _setitem_ref(x, key, value):
    return _jnp().asarray(x).at[key].set(value)


# --- the other families -------------------------------------------------------------------------

def _i(*vals):
    return np.array(vals, dtype=np.int64)


def _astype_samples(rng, dtype):
    if dtype.startswith("complex"):
        targets = ["complex128", "complex64", "float64"]
    elif dtype == "float32":
        targets = ["float64", "complex64"]
    else:
        targets = ["float64", "float32", "complex128"]
    out = [Sample((Arg((2, 3)), DT(t)), name=f"to_{t}") for t in targets]
    out.append(Sample((Arg((3, 4), layout="transposed"), DT(targets[0])), name="transposed"))
    out.append(Sample((Arg(()), DT(targets[-1])), name="0d"))
    return out


def _take_samples(rng, dtype):
    return [Sample((Arg((4, 5)), _i(0, 3, 3, 1)), {"axis": 1}, name="axis1_repeats"),
            Sample((Arg((4, 5), layout="transposed"), _i(2, 0, 2)), {"axis": 0},
                   name="axis0_transposed"),
            Sample((Arg((6,)), _i(5, 0, 5, 5)), {"axis": 0}, name="1d"),
            Sample((Arg((6,)), _i(1, -1)), name="axis_none_negative"),
            Sample((Arg((3, 4)), Arg((5,), small_ints(0, 3), dtype="int64")), {"axis": 1},
                   name="index_arg")]


def _take_along_axis_samples(rng, dtype):
    return [Sample((Arg((3, 4)), rng.randint(0, 4, size=(3, 2))), {"axis": 1},
                   name="axis1"),
            Sample((Arg((3, 4), layout="strided"), rng.randint(0, 3, size=(5, 4))),
                   {"axis": 0}, name="axis0_repeats"),
            Sample((Arg((2, 3, 4)), Arg((2, 3, 2), small_ints(0, 3), dtype="int64")),
                   name="index_arg")]


def _getitem_samples(rng, dtype):
    return [Sample((Arg((4, 5)), (slice(1, 3), slice(None, None, -2))), name="slices"),
            Sample((Arg((4, 5)), 2), name="int"),
            Sample((Arg((2, 3, 4)), (Ellipsis, None, 1)), name="ellipsis_newaxis"),
            Sample((Arg((5,)), _i(0, 2, 2, 4, 2)), name="repeated_indices"),
            Sample((Arg((4, 5), layout="transposed"), (_i(0, 3, 3), slice(None))),
                   name="advanced_first"),
            Sample((Arg((3, 4, 5)), (_i(0, 2), slice(None), _i(1, 4))),
                   name="advanced_separated"),
            Sample((Arg((3, 4)), rng.random_sample((3, 4)) < 0.5), name="bool_mask"),
            Sample((Arg(()), ()), name="0d_empty_key"),
            Sample((Arg((4, 5)), (slice(None), Arg((3,), small_ints(0, 4), dtype="int64"))),
                   name="index_arg")]


def _setitem_samples(rng, dtype):
    mask = rng.random_sample((3, 4)) < 0.5
    return [Sample((Arg((4, 5)), (slice(1, 3), slice(None)), Arg((2, 5))), name="slice"),
            Sample((Arg((4, 5)), (slice(None), 1), Arg(())), name="broadcast_scalar_value"),
            Sample((Arg((4, 5), layout="transposed"), _i(0, 3), Arg((5,))),
                   name="advanced_broadcast_value"),
            Sample((Arg((3, 4)), mask, Arg((int(mask.sum()),))), name="bool_mask"),
            Sample((Arg((4, 5)), (slice(None, None, 2), slice(1, None, 3)), 0.5),
                   name="python_scalar_value"),
            Sample((Arg((3,)), 1, Arg(())), name="int")]


def _matmul_samples(rng, dtype):
    return [Sample((Arg((3, 4)), Arg((4, 5))), name="2d"),
            Sample((Arg((4,)), Arg((4, 5))), name="vector_lhs"),
            Sample((Arg((3, 4), layout="transposed"), Arg((4,))), name="vector_rhs"),
            Sample((Arg((4,)), Arg((4,))), name="dot"),
            Sample((Arg((2, 1, 3, 4)), Arg((3, 4, 2), layout="strided")),
                   name="batched_broadcast")]


def _tensordot_samples(rng, dtype):
    return [Sample((Arg((3, 4, 5)), Arg((4, 5, 2))), name="axes2"),
            Sample((Arg((3, 4)), Arg((4, 2))), {"axes": 1}, name="axes1"),
            Sample((Arg((3, 2)), Arg((2,))), {"axes": 0}, name="outer"),
            Sample((Arg((3, 4, 5)), Arg((5, 3, 2), layout="transposed")),
                   {"axes": ([0, 2], [1, 0])}, name="explicit_axes")]


def _vecdot_samples(rng, dtype):
    return [Sample((Arg((3, 4)), Arg((4,))), name="broadcast"),
            Sample((Arg((4, 3)), Arg((4, 3), layout="transposed")), {"axis": 0},
                   name="axis0"),
            Sample((Arg((2, 1, 3)), Arg((4, 3))), name="broadcast_batch"),
            Sample((Arg((5,)), Arg((5,))), name="1d")]


def _one(shape_fn):
    """Samples of a one-input op from (shape, kwargs, name) triples."""
    def gen(rng, dtype):
        return [Sample((Arg(shape, layout=layout),) + tuple(extra), kw, name=name)
                for shape, layout, extra, kw, name in shape_fn(rng)]
    return gen


def _broadcast_arrays_samples(rng, dtype):
    return [Sample((Arg((3, 1)), Arg((4,))), name="two"),
            Sample((Arg(()), Arg((2, 3), layout="transposed"), Arg((1, 3))), name="three"),
            Sample((Arg((2,)),), name="one")]


def _broadcast_shapes_samples(rng, dtype):
    return [Sample(((3, 1), (4,)), name="two"), Sample(((), (2, 1, 3)), name="0d")]


def _concat_samples(rng, dtype):
    return [Sample(([Arg((2, 3)), Arg((4, 3))],), {"axis": 0}, name="axis0"),
            Sample(((Arg((2, 1)), Arg((2, 3), layout="transposed"), Arg((2, 2))),),
                   {"axis": -1}, name="tuple_last"),
            Sample(([Arg((2, 3)), Arg((4,))],), {"axis": None}, name="axis_none"),
            Sample(([Arg((3,))],), name="single")]


def _stack_samples(rng, dtype):
    return [Sample(([Arg((2, 3)), Arg((2, 3)), Arg((2, 3), layout="transposed")],),
                   name="axis0"),
            Sample(((Arg((3,)), Arg((3,))),), {"axis": -1}, name="axis_last"),
            Sample(([Arg(()), Arg(())],), name="0d")]


def _diff_samples(rng, dtype):
    return [Sample((Arg((3, 5)),), name="default"),
            Sample((Arg((4, 3), layout="transposed"),), {"axis": 0, "n": 2}, name="n2_axis0"),
            Sample((Arg((2, 4)),), {"prepend": Arg((2, 1)), "append": Arg((2, 2))},
                   name="prepend_append"),
            Sample((Arg((5,)),), {"n": 0}, name="n0")]


def _reduction_samples(extra=(), skip=()):
    """Samples of a reduction (sum-like signature), plus extra (kwargs, name) pairs, less
    those named in skip."""
    def gen(rng, dtype):
        out = [Sample((Arg((3, 4)),), name="all"),
               Sample((Arg((3, 4)),), {"axis": 0}, name="axis0"),
               Sample((Arg((2, 3, 4), layout="transposed"),), {"axis": (0, 2), "keepdims": True},
                      name="axes_keepdims"),
               Sample((Arg(()),), name="0d"),
               Sample((Arg((1, 5), layout="strided"),), {"axis": -1}, name="size1_strided")]
        out += [Sample((Arg((3, 4)),), kw, name=n) for kw, n in extra]
        return [s for s in out if s.name not in skip]
    return gen


def _cumulative_samples(rng, dtype):
    return [Sample((Arg((6,)),), name="1d"),
            Sample((Arg((3, 4)),), {"axis": 1}, name="axis1"),
            Sample((Arg((3, 4), layout="transposed"),), {"axis": 0, "include_initial": True},
                   name="include_initial"),
            Sample((Arg((1,)),), name="size1")]


def _prod_samples(rng, dtype):
    s = with_zeros([])
    z1, z2 = with_zeros([1]), with_zeros([1, 3])
    return [Sample((Arg((3, 4), s),), name="all"),
            Sample((Arg((3, 4), s),), {"axis": 1}, name="axis1"),
            Sample((Arg((3, 4), z1),), {"axis": 1, "keepdims": True}, name="one_zero"),
            Sample((Arg((2, 5), z2),), {"axis": -1}, name="two_zeros"),
            Sample((Arg((4, 3), z1, "transposed"),), name="zero_all_transposed"),
            Sample((Arg((), s),), name="0d")]


def _cumulative_prod_samples(rng, dtype):
    s = with_zeros([])
    return [Sample((Arg((6,), s),), name="1d"),
            Sample((Arg((3, 4), s),), {"axis": 1}, name="axis1"),
            Sample((Arg((3, 5), with_zeros([1])),), {"axis": 1}, name="one_zero"),
            Sample((Arg((2, 5), with_zeros([1, 3])),), {"axis": -1, "include_initial": True},
                   name="two_zeros_initial"),
            Sample((Arg((4, 3), s, "transposed"),), {"axis": 0}, name="transposed")]


def _sort_samples(rng, dtype):
    return [Sample((Arg((3, 5)),), name="last"),
            Sample((Arg((4, 3), layout="transposed"),), {"axis": 0, "descending": True},
                   name="axis0_descending"),
            Sample((Arg((6,)),), {"stable": False}, name="1d"),
            Sample((Arg((1,)),), name="size1")]


def _where_samples(rng, dtype):
    c = bools()
    return [Sample((Arg((3, 1), c, dtype="bool"), Arg((4,)), Arg((3, 4))), name="broadcast"),
            Sample((Arg((2, 3), c, dtype="bool"), Arg((2, 3), layout="transposed"), 0.0),
                   name="scalar_x2"),
            Sample((Arg((), c, dtype="bool"), Arg(()), Arg((2,))), name="0d_condition"),
            Sample((rng.random_sample((3, 4)) < 0.5, Arg((3, 4), layout="strided"),
                    Arg((1, 4))), name="constant_condition")]


# Nondiff ops outside the elementwise family: samples and the dtype swept.
def _argminmax_samples(rng, dtype):
    return [Sample((Arg((3, 4)),), name="all"),
            Sample((Arg((3, 4), layout="transposed"),), {"axis": 0, "keepdims": True},
                   name="axis0"),
            Sample((Arg(()),), name="0d")]


def _count_nonzero_samples(rng, dtype):
    s = small_ints(-1, 1)
    return [Sample((Arg((3, 4), s),), name="all"),
            Sample((Arg((3, 4), s, "transposed"),), {"axis": 1, "keepdims": True},
                   name="axis1")]


def _nonzero_samples(rng, dtype):
    return [Sample((Arg((3, 4), small_ints(-1, 1)),), name="2d")]


def _searchsorted_samples(rng, dtype):
    return [Sample((Arg((6,), sorted_values()), Arg((3, 2))), name="left"),
            Sample((Arg((5,), sorted_values()), Arg((4,), layout="negative")),
                   {"side": "right"}, name="right")]


def _isin_samples(rng, dtype):
    s = small_ints(0, 6)
    return [Sample((Arg((3, 4), s), Arg((5,), s)), name="2d"),
            Sample((Arg((4,), s), Arg((3,), s)), {"invert": True}, name="invert")]


def _unique_samples(rng, dtype):
    return [Sample((Arg((3, 4), small_ints(0, 4)),), name="2d")]


def _all_any_samples(rng, dtype):
    s = small_ints(0, 1)
    return [Sample((Arg((3, 4), s),), name="all"),
            Sample((Arg((3, 4), s, "transposed"),), {"axis": 0, "keepdims": True},
                   name="axis0")]


def _argsort_samples(rng, dtype):
    return [Sample((Arg((3, 5)),), name="last"),
            Sample((Arg((4, 3), layout="transposed"),), {"axis": 0, "descending": True},
                   name="axis0_descending")]


def _manip(rows):
    """Samples of a one-input manipulation op from rows (shape, layout, extra args, kwargs,
    name)."""
    return _one(lambda rng: rows)


# --- the table ----------------------------------------------------------------------------------

OP_INFO: dict[str, OpInfo] = {}


def _add(info: OpInfo):
    OP_INFO[info.name] = info


def _build():
    for name, op in OPS.items():
        if op.family != "elementwise":
            continue
        if op.result == "bool" or op.accepts in ("bool", "integral", "integer or boolean"):
            gen, dts = _nondiff_elementwise(op)
            _add(OpInfo(name, gen, jnp_ref(name), dts))
            continue
        if name == "clip":
            _add(OpInfo(name, _clip_samples, jnp_ref(name), diff_dtypes(op),
                        sampler=uniform(-3, 3)))
            continue
        gen = _unary_samples(op) if op.arity == 1 else _binary_samples(op)
        ref = {"nextafter": _nextafter_ref, "sign": _sign_ref}.get(name) or jnp_ref(name)
        rtol = 1e-9 if name in ("pow", "tan", "acosh", "atanh", "cosh", "sinh") else 1e-10
        _add(OpInfo(name, gen, ref, diff_dtypes(op), rtol=rtol))

    diff = [
        OpInfo("astype", _astype_samples, jnp_ref("astype")),
        OpInfo("take", _take_samples, jnp_ref("take")),
        OpInfo("take_along_axis", _take_along_axis_samples, jnp_ref("take_along_axis")),
        OpInfo("getitem", _getitem_samples, _getitem_ref),
        OpInfo("setitem", _setitem_samples, _setitem_ref),
        OpInfo("matmul", _matmul_samples, jnp_ref("matmul")),
        OpInfo("matrix_transpose", _manip([((2, 3, 4), "contiguous", (), {}, "3d"),
                                           ((3, 4), "transposed", (), {}, "transposed")]),
               jnp_ref("matrix_transpose")),
        OpInfo("tensordot", _tensordot_samples, jnp_ref("tensordot")),
        OpInfo("vecdot", _vecdot_samples, jnp_ref("vecdot")),
        OpInfo("broadcast_arrays", _broadcast_arrays_samples, jnp_ref("broadcast_arrays")),
        OpInfo("broadcast_to", _manip([((3, 1), "contiguous", ((2, 3, 4),), {}, "add_axes"),
                                       ((1, 4), "strided", ((3, 4),), {}, "same_rank"),
                                       ((), "contiguous", ((2,),), {}, "0d")]),
               jnp_ref("broadcast_to")),
        OpInfo("concat", _concat_samples, jnp_ref("concat")),
        OpInfo("expand_dims", _manip([((2, 3), "contiguous", (), {"axis": 0}, "axis0"),
                                      ((2, 3), "transposed", (), {"axis": -1}, "axis_last"),
                                      ((), "contiguous", (), {"axis": 0}, "0d")]),
               jnp_ref("expand_dims")),
        OpInfo("flip", _manip([((3, 4), "contiguous", (), {}, "all"),
                               ((3, 4), "transposed", (), {"axis": 0}, "axis0"),
                               ((2, 3, 2), "strided", (), {"axis": (0, 2)}, "axes")]),
               jnp_ref("flip")),
        OpInfo("moveaxis", _manip([((2, 3, 4), "contiguous", (0, -1), {}, "one"),
                                   ((2, 3, 4), "transposed", ((0, 1), (2, 0)), {}, "two")]),
               jnp_ref("moveaxis")),
        OpInfo("permute_dims", _manip([((2, 3, 4), "contiguous", ((2, 0, 1),), {}, "3d"),
                                       ((3, 4), "strided", ((1, 0),), {}, "2d_strided")]),
               jnp_ref("permute_dims")),
        OpInfo("repeat", _manip([((3, 2), "contiguous", (2,), {"axis": 0}, "int_axis0"),
                                 ((3, 2), "transposed", (_i(1, 0, 2),), {"axis": 0},
                                  "array_repeats"),
                                 ((2, 3), "contiguous", (3,), {}, "axis_none")]),
               jnp_ref("repeat")),
        OpInfo("reshape", _manip([((3, 4), "contiguous", ((6, 2),), {}, "2d"),
                                  ((3, 4), "transposed", ((-1,),), {}, "transposed_flat"),
                                  ((), "contiguous", ((1, 1),), {}, "0d")]),
               jnp_ref("reshape")),
        OpInfo("roll", _manip([((5,), "contiguous", (2,), {}, "flat"),
                               ((3, 4), "transposed", ((1, -1),), {"axis": (0, 1)}, "axes"),
                               ((3, 4), "contiguous", (-1,), {"axis": 1}, "axis1")]),
               jnp_ref("roll")),
        OpInfo("squeeze", _manip([((3, 1, 2), "contiguous", (), {"axis": 1}, "axis1"),
                                  ((1, 3, 1), "strided", (), {"axis": (0, 2)}, "axes")]),
               jnp_ref("squeeze")),
        OpInfo("stack", _stack_samples, jnp_ref("stack")),
        OpInfo("tile", _manip([((2, 3), "contiguous", ((2, 1),), {}, "2d"),
                               ((3,), "strided", ((2, 2),), {}, "more_reps")]),
               jnp_ref("tile")),
        OpInfo("unstack", _manip([((3, 4), "contiguous", (), {}, "axis0"),
                                  ((3, 4), "transposed", (), {"axis": 1}, "axis1")]),
               jnp_ref("unstack")),
        OpInfo("sum", _reduction_samples([({"dtype": DT("float64")}, "dtype")]),
               jnp_ref("sum")),
        OpInfo("prod", _prod_samples, jnp_ref("prod"), sampler=with_zeros([]), rtol=1e-9),
        OpInfo("max", _reduction_samples(), jnp_ref("max")),
        OpInfo("min", _reduction_samples(), jnp_ref("min")),
        OpInfo("mean", _reduction_samples(), jnp_ref("mean")),
        OpInfo("var", _reduction_samples([({"correction": 1, "axis": 1}, "correction1")]),
               jnp_ref("var"), rtol=1e-9),
        # std of one element is 0, where the derivative is not defined (PyTorch masks it to 0).
        OpInfo("std", _reduction_samples([({"correction": 1.5}, "correction1.5")], skip=("0d",)),
               jnp_ref("std"), rtol=1e-9),
        OpInfo("cumulative_sum", _cumulative_samples, jnp_ref("cumulative_sum")),
        OpInfo("cumulative_prod", _cumulative_prod_samples, jnp_ref("cumulative_prod"),
               rtol=1e-9),
        OpInfo("diff", _diff_samples, jnp_ref("diff")),
        OpInfo("where", _where_samples, jnp_ref("where")),
        OpInfo("sort", _sort_samples, jnp_ref("sort")),
    ]
    for info in diff:
        info.dtypes = diff_dtypes(OPS[info.name])
        _add(info)

    nondiff = [
        OpInfo("broadcast_shapes", _broadcast_shapes_samples, jnp_ref("broadcast_shapes")),
        OpInfo("all", _all_any_samples, jnp_ref("all")),
        OpInfo("any", _all_any_samples, jnp_ref("any")),
        OpInfo("argmax", _argminmax_samples, jnp_ref("argmax")),
        OpInfo("argmin", _argminmax_samples, jnp_ref("argmin")),
        OpInfo("count_nonzero", _count_nonzero_samples, jnp_ref("count_nonzero")),
        OpInfo("nonzero", _nonzero_samples, jnp_ref("nonzero"), vmap_raises=True),
        OpInfo("searchsorted", _searchsorted_samples, jnp_ref("searchsorted")),
        OpInfo("isin", _isin_samples, jnp_ref("isin")),
        OpInfo("argsort", _argsort_samples, jnp_ref("argsort")),
    ] + [OpInfo(n, _unique_samples, jnp_ref(n), vmap_raises=True)
         for n in ("unique_all", "unique_counts", "unique_inverse", "unique_values")]
    for info in nondiff:
        info.dtypes = ("float64",)
        _add(info)


_build()

# Families whose metadata lives in a file of its own (tests/autodiff_op_info_<family>.py, each
# with a `build(add)` that adds its OpInfo entries through `add`).
for _fam in ("linalg", "fft", "special_erf_gamma", "special_elementary", "special_bessel",
             "special_incomplete", "special_integrals_polynomials", "nn_conv"):
    try:
        _mod = __import__(f"autodiff_op_info_{_fam}")
    except ModuleNotFoundError as _e:
        if _e.name != f"autodiff_op_info_{_fam}":
            raise
        continue
    _mod.build(_add)

# A representative subset run by default against JAX (every family, real and complex, the
# tricky cases: broadcasting, kinks kept away from, zeros in products, repeated indices,
# list arguments, multiple outputs); the slow run covers every op.
SMOKE = ["abs", "multiply", "divide", "pow", "exp", "log1p", "atan2", "maximum", "clip",
         "real", "astype", "sum", "prod", "max", "var", "std", "cumulative_prod", "diff",
         "getitem", "setitem", "take", "take_along_axis", "matmul", "tensordot", "vecdot",
         "concat", "broadcast_to", "unstack", "reshape", "where", "sort",
         # linalg: gauges (eigh, svd), Hermitian inputs, a 1-D right-hand side
         "solve", "cholesky", "eigh", "svd",
         # nn_conv: the convolution (its vjp is the other two conv ops) and max pooling
         "conv", "max_pool"]

__all__ = ["Arg", "DT", "Sample", "OpInfo", "OP_INFO", "SMOKE", "args_of", "fill", "draw",
           "arg_dtype"]


# --- materializing a sample ---------------------------------------------------------------------

def _ac():
    import arraycore
    return arraycore


def to_ac(v: np.ndarray, layout: str = "contiguous"):
    """An arraycore array with the values of v, laid out as `layout` says (a view of a
    fresh buffer for the non-contiguous layouts)."""
    ac = _ac()
    v = np.asarray(v)
    if layout == "contiguous" or v.ndim == 0:
        return ac.asarray(np.array(v, order="C"), copy=True)
    if layout == "transposed" and v.ndim >= 2:
        base = ac.asarray(np.ascontiguousarray(np.swapaxes(v, -1, -2)), copy=True)
        return ac.matrix_transpose(base)
    if layout == "strided":
        buf = np.zeros(v.shape[:-1] + (2 * v.shape[-1],), dtype=v.dtype)
        buf[..., ::2] = v
        return ac.asarray(buf, copy=True)[..., ::2]
    if layout == "negative":
        base = ac.asarray(np.ascontiguousarray(v[..., ::-1]), copy=True)
        return base[..., ::-1]
    return ac.asarray(np.array(v, order="C"), copy=True)


class Case:
    """One sample of one op at one dtype, with its Arg values drawn (NumPy).

    `diff`: positions (in args_of order) of the differentiated Args (floating dtypes); the
    other Args (indices, conditions) are constants of the derivative checks."""

    def __init__(self, name: str, dtype: str, sample: Sample, seed: int = 0):
        self.name, self.dtype, self.sample = name, dtype, sample
        self.op = OPS[name]
        self.info = OP_INFO[name]
        self.rng = np.random.RandomState(seed)
        self.args = args_of(sample)
        self.values = [self.draw(a) for a in self.args]
        self.diff = [i for i, a in enumerate(self.args)
                     if arg_dtype(a, dtype).kind in "fc"]

    def __repr__(self):
        return f"{self.name}[{self.sample.name}, {self.dtype}]"

    def draw(self, arg, batch=None):
        return draw(self.rng, arg, self.dtype, self.info.sampler, batch)

    def random_like(self, v: np.ndarray) -> np.ndarray:
        """Tangents / cotangents: standard normal of v's dtype and shape."""
        r = self.rng.standard_normal(v.shape)
        if v.dtype.kind == "c":
            r = r + 1j * self.rng.standard_normal(v.shape)
        return np.asarray(r).astype(v.dtype)

    # arraycore side
    def ac_values(self, values=None):
        values = self.values if values is None else values
        return [to_ac(v, a.layout) for a, v in zip(self.args, values)]

    def call_ac(self, leaves):
        """op.public on all Args given (arraycore arrays or tracers)."""
        ac = _ac()
        args, kwargs = fill(self.sample, leaves, lambda c: ac.asarray(c, copy=True),
                            lambda n: getattr(ac, n))
        return self.op.public(*args, **kwargs)

    def f_ac(self, values=None):
        """(function of the differentiated Args, their arraycore values)."""
        all_leaves = self.ac_values(values)

        def f(*xs):
            leaves = list(all_leaves)
            for i, x in zip(self.diff, xs):
                leaves[i] = x
            return self.call_ac(leaves)
        return f, [all_leaves[i] for i in self.diff]

    # JAX side
    def f_jax(self):
        jnp = _jnp()
        consts = [v for v in self.values]

        def f(*xs):
            leaves = list(consts)
            for i, x in zip(self.diff, xs):
                leaves[i] = x
            args, kwargs = fill(self.sample, leaves, lambda c: c, lambda n: getattr(jnp, n))
            return self.info.ref(*args, **kwargs)
        return f, [jnp.asarray(self.values[i]) for i in self.diff]


def cases(name: str, dtype: str, seed: int = 0) -> list:
    info = OP_INFO[name]
    rng = np.random.RandomState(seed)
    return [Case(name, dtype, s, seed + k) for k, s in enumerate(info.samples(rng, dtype))]


def outputs(o) -> list:
    """The arrays of an op's result (tuple, list and namedtuple results flattened)."""
    return list(o) if isinstance(o, (list, tuple)) else [o]
