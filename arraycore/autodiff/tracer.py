"""L3: `Tracer`, the base class of the values transforms carry (JVP, batch and reverse-mode
levels).  A tracer looks like an arraycore array to user code: it has `shape`, `dtype`,
`device`, the operators, indexing and `__array_namespace__` (so `array_namespace(x)` finds
arraycore), and every operation on it goes through the namespace functions, whose dispatcher
hands it to the interpreter of the tracer's level (see dispatch.py).

Subclasses provide `_shape` (the logical, per-example shape), `dtype`, `_level` (the
interpreter) and `_primal_value()` (the concrete value for `float(t)`, `bool(t)`, printing).
"""

from __future__ import annotations

from .._core import numpy_scalars as _np_scalars

_ns = None  # the arraycore namespace, set by arraycore.autodiff.install


class Tracer:
    __array_priority__ = 100
    _interp = None  # the interpreter (level) this tracer belongs to

    # --- shape and type ------------------------------------------------------------------
    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def size(self):
        n = 1
        for s in self._shape:
            n *= s
        return n

    @property
    def device(self):
        return _ns.Device("cpu") if hasattr(_ns, "Device") else None

    @property
    def mT(self):
        return _ns.matrix_transpose(self)

    @property
    def T(self):
        if self.ndim != 2:
            raise ValueError(f"T: defined for 2-D arrays only (use mT or permute_dims), got "
                             f"{self.ndim} dimensions")
        return _ns.permute_dims(self, (1, 0))

    def __array_namespace__(self, /, *, api_version=None):
        return _ns

    def to_device(self, device, /, *, stream=None):
        return self

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d array")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._shape[0]))

    # --- concrete values -----------------------------------------------------------------
    def _concrete(self, who):
        v = self._primal_value()
        if v is None:
            raise TypeError(f"{who}: the value of a {type(self).__name__} depends on the "
                            "batch (under vmap); data-dependent Python control flow cannot "
                            "be batched")
        return v

    def __bool__(self):
        return bool(self._concrete("__bool__"))

    def __float__(self):
        return float(self._concrete("__float__"))

    def __int__(self):
        return int(self._concrete("__int__"))

    def __complex__(self):
        return complex(self._concrete("__complex__"))

    def __index__(self):
        return self._concrete("__index__").__index__()

    def item(self):
        return self._concrete("item")._item()

    __hash__ = None

    # --- operators: all through the namespace (and so the dispatcher) ---------------------
    def __neg__(self):
        return _ns.negative(self)

    def __pos__(self):
        return _ns.positive(self)

    def __abs__(self):
        return _ns.abs(self)

    def __invert__(self):
        return _ns.bitwise_invert(self)

    def __matmul__(self, other):
        return _ns.matmul(self, other)

    def __rmatmul__(self, other):
        return _ns.matmul(other, self)

    def __getitem__(self, key):
        return _ns._getitem_dispatch(self, key)

    def __setitem__(self, key, value):
        _ns._setitem_dispatch(self, key, value)

    def _assign(self, other):
        """Makes this tracer stand for `other` (in-place operators on tracers)."""
        raise TypeError(f"in-place update of a {type(self).__name__}")


def _numpy_operand(other):
    """NumPy scalars and arrays as the Array operators take them (array_methods.py): a NumPy
    scalar is a 0-d array of its dtype, a NumPy array an arraycore array."""
    if type(other) in (bool, int, float, complex):
        return other
    converted = _np_scalars.operator_operand(other)
    return other if converted is None else converted


def _binop(fname):
    def forward(self, other):
        return getattr(_ns, fname)(self, _numpy_operand(other))

    def reflected(self, other):
        return getattr(_ns, fname)(_numpy_operand(other), self)

    def inplace(self, other):
        self._assign(getattr(_ns, fname)(self, other))
        return self

    return forward, reflected, inplace


for _dunder, _fname in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                        ("truediv", "divide"), ("floordiv", "floor_divide"),
                        ("mod", "remainder"), ("pow", "pow"), ("and", "bitwise_and"),
                        ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                        ("lshift", "bitwise_left_shift"), ("rshift", "bitwise_right_shift")]:
    _f, _r, _i = _binop(_fname)
    setattr(Tracer, f"__{_dunder}__", _f)
    setattr(Tracer, f"__r{_dunder}__", _r)
    setattr(Tracer, f"__i{_dunder}__", _i)

for _dunder, _fname in [("eq", "equal"), ("ne", "not_equal"), ("lt", "less"),
                        ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")]:
    setattr(Tracer, f"__{_dunder}__", _binop(_fname)[0])


def _imatmul(self, other):
    self._assign(_ns.matmul(self, other))
    return self


Tracer.__imatmul__ = _imatmul
Tracer.__array_priority__ = 1000.0  # NumPy's operators defer to the tracer's (as to Array's)
