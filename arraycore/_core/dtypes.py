"""L1: the 13 dtype objects, their categories and the type promotion rules.

Codes match the engine's `DType` enum (arraycore/native/src/dtype.h).  Promotion follows the
Array API table where it speaks and NumPy 2 where it is silent (mixed kinds such as int32 with
float32 give float64; uint64 with a signed integer gives float64).  See docs/architecture.md,
"Defaults and promotion".
"""

from __future__ import annotations

__all__ = [
    "DType", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128", "ALL_DTYPES", "BY_CODE", "BY_NAME",
    "default_float", "default_int", "default_complex", "promote_types", "promote_sequence",
    "promote_with_scalar",
    "KIND_CATEGORIES", "STANDARD_KINDS", "category_mask", "in_category", "promote_operands",
]


class DType:
    """A data type of arraycore arrays (`ac.float32`, ...).  Compare with `==`."""

    __slots__ = ("name", "code", "itemsize", "kind", "bits")  # (`dtype`: a property)

    def __init__(self, name: str, code: int, itemsize: int, kind: str):
        self.name = name
        self.code = code
        self.itemsize = itemsize
        self.kind = kind  # 'b' bool, 'i' signed, 'u' unsigned, 'f' real float, 'c' complex
        self.bits = itemsize * 8

    def __repr__(self) -> str:
        return f"arraycore.{self.name}"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))

    # NumPy interop: np.dtype(ac.float32) and np.asarray(..., dtype=ac.float32) work.
    @property
    def __array_interface_typestr__(self) -> str:  # pragma: no cover - informational
        return _TYPESTR[self.name]

    @property
    def dtype(self):
        """The NumPy dtype of the same name.  NumPy reads a `dtype` attribute wherever it
        takes a dtype, so np.dtype(ac.float32), a_np.astype(ac.float64) and
        np.zeros(3, dtype=ac.int8) work: scikit-learn, with array API dispatch off, hands
        arraycore dtypes to NumPy (RidgeCV's `astype(intercept, X.dtype)`)."""
        try:
            import numpy
        except ImportError:  # (hasattr(dtype, "dtype") is False without NumPy)
            raise AttributeError("dtype: NumPy is not installed") from None
        return numpy.dtype(self.name)


def _dtype_by_name(name: str) -> "DType":
    return BY_NAME[name]


bool_ = DType("bool", 0, 1, "b")
int8 = DType("int8", 1, 1, "i")
int16 = DType("int16", 2, 2, "i")
int32 = DType("int32", 3, 4, "i")
int64 = DType("int64", 4, 8, "i")
uint8 = DType("uint8", 5, 1, "u")
uint16 = DType("uint16", 6, 2, "u")
uint32 = DType("uint32", 7, 4, "u")
uint64 = DType("uint64", 8, 8, "u")
float32 = DType("float32", 9, 4, "f")
float64 = DType("float64", 10, 8, "f")
complex64 = DType("complex64", 11, 8, "c")
complex128 = DType("complex128", 12, 16, "c")

ALL_DTYPES = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              float32, float64, complex64, complex128)
BY_CODE = ALL_DTYPES
BY_NAME = {d.name: d for d in ALL_DTYPES}
_TYPESTR = {"bool": "|b1", "int8": "|i1", "int16": "<i2", "int32": "<i4", "int64": "<i8",
            "uint8": "|u1", "uint16": "<u2", "uint32": "<u4", "uint64": "<u8",
            "float32": "<f4", "float64": "<f8", "complex64": "<c8", "complex128": "<c16"}

# Defaults the standard leaves to the library: NumPy's, which SciPy and scikit-learn expect.
default_float = float64
default_int = int64
default_complex = complex128
default_index = int64

# The standard's dtype categories, by kind letters.
KIND_CATEGORIES = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
    "real numeric": "iuf",  # not a standard kind name for isdtype; used by the op table
    "floating": "fc",
    "integer or boolean": "biu",
    "real": "biuf",
    "any": "biufc",
}


# The kind names the standard's isdtype and __array_namespace_info__().dtypes(kind=) accept.
STANDARD_KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}


def category_mask(category: str) -> int:
    """Bit mask of dtype codes in a category (for the engine's fast paths)."""
    kinds = KIND_CATEGORIES[category]
    return sum(1 << d.code for d in ALL_DTYPES if d.kind in kinds)


def in_category(dtype: DType, category: str) -> bool:
    return dtype.kind in KIND_CATEGORIES[category]


_SIGNED = {8: int8, 16: int16, 32: int32, 64: int64}
_REAL_FLOAT_FOR_COMPLEX = {complex64: float32, complex128: float64}
_COMPLEX_FOR_REAL = {float32: complex64, float64: complex128}


def _min_float_for_int(d: DType) -> DType:
    # The smallest float that holds every value of the integer type (NumPy's rule; float16
    # would hold 8-bit integers, but arraycore has no float16 yet).
    return float32 if d.bits <= 16 else float64


def _promote_pair(a: DType, b: DType) -> DType:
    if a is b:
        return a
    ka, kb = a.kind, b.kind
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if a.bits >= b.bits else b
        s, u = (a, b) if ka == "i" else (b, a)
        if s.bits > u.bits:
            return s
        if u.bits == 64:
            return float64  # no integer type holds both int64 and uint64 (NumPy 2)
        return _SIGNED[u.bits * 2]
    if ka in "iu" or kb in "iu":
        i, f = (a, b) if ka in "iu" else (b, a)
        need = _min_float_for_int(i)
        if f.kind == "f":
            return f if f.bits >= need.bits else need
        need_c = _COMPLEX_FOR_REAL[need]
        return f if f.bits >= need_c.bits else need_c
    # float / complex mixes
    if ka == kb:
        return a if a.bits >= b.bits else b
    f, c = (a, b) if ka == "f" else (b, a)
    real = _REAL_FLOAT_FOR_COMPLEX[c]
    return c if real.bits >= f.bits else _COMPLEX_FOR_REAL[f]


_TABLE = {(a, b): _promote_pair(a, b) for a in ALL_DTYPES for b in ALL_DTYPES}


def promote_types(a: DType, b: DType) -> DType:
    """Result dtype of combining arrays of dtypes `a` and `b`."""
    return _TABLE[a, b]


def _smallest_of_kind(kind: str) -> DType:
    return min((d for d in ALL_DTYPES if d.kind == kind), key=lambda d: d.bits)


def promote_sequence(dtypes) -> DType:
    """Result dtype of combining arrays of all of `dtypes` at once, as NumPy's result_type.

    Folding promote_types pairwise depends on the order once three kinds mix: (uint16, int8)
    gives int32, which with complex64 gives complex128, while (uint16, complex64) then int8
    gives complex64.  NumPy decides the kind first (the pairwise result's kind) and then
    promotes each input on its own to that kind; the largest of those wins.  (Matches
    np.result_type on every triple and quadruple of the 13 dtypes: tests/test_data_types.py.)
    """
    dtypes = list(dtypes)
    r = dtypes[0]
    for d in dtypes[1:]:
        r = promote_types(r, d)
    if len(dtypes) <= 2:
        return r
    base = _smallest_of_kind(r.kind)
    out = promote_types(dtypes[0], base)
    for d in dtypes[1:]:
        out = promote_types(out, promote_types(d, base))
    return out


def promote_with_scalar(d: DType, scalar) -> DType:
    """Result dtype of combining an array of dtype `d` with a Python scalar.

    Python scalars are "weak": they take the array's dtype when their kind fits in it, and the
    default dtype of their kind otherwise (bool array + 1 -> int64, int array + 1.5 -> float64,
    float32 array + 1j -> complex64), as in NumPy 2 and the standard.
    """
    t = type(scalar)
    if t is bool:
        return d
    if t is int:
        return default_int if d.kind == "b" else d
    if t is float:
        return d if d.kind in "fc" else default_float
    if t is complex:
        if d.kind == "c":
            return d
        if d.kind == "f":
            return _COMPLEX_FOR_REAL[d]
        return default_complex
    raise TypeError(f"expected a Python scalar, got {t.__name__}")


def promote_operands(x1, x2, x1_is_scalar: bool, x2_is_scalar: bool) -> DType:
    """Result dtype of two operands where at most one is a Python scalar (validated by the
    caller): array-array promotion, or the array's dtype combined with a weak scalar."""
    if x1_is_scalar:
        return promote_with_scalar(x2.dtype, x1)
    if x2_is_scalar:
        return promote_with_scalar(x1.dtype, x2)
    return promote_types(x1.dtype, x2.dtype)
