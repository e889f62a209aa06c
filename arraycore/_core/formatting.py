"""L1: NumPy-like text for arrays: `repr(x)` -> "Array([0.  , 0.25], dtype=float64)"."""

from __future__ import annotations

import math
import struct

__all__ = ["format_array"]

_SUMMARY_THRESHOLD = 1000
_EDGE_ITEMS = 3
_LINE_WIDTH = 75


def _summarized_values(x, summarize: bool):
    """Nested lists of Python scalars, with '...' markers where elements are skipped."""
    if not summarize:
        return x._tolist()
    return _edges(x, 0)


def _edges(x, dim):
    from .indexing import basic_view  # local: indexing imports the native module

    if dim == x.ndim:
        return x._item()
    n = x.shape[0]
    if n > 2 * _EDGE_ITEMS:
        idx = list(range(_EDGE_ITEMS)) + [None] + list(range(n - _EDGE_ITEMS, n))
    else:
        idx = list(range(n))
    return [Ellipsis if i is None else _edges_sub(basic_view(x, i), dim) for i in idx]


def _edges_sub(x, dim):
    if x.ndim == 0:
        return x._item()
    return _edges(x, dim)


def _flat(v, out):
    if isinstance(v, list):
        for e in v:
            _flat(e, out)
    elif v is not Ellipsis:
        out.append(v)
    return out


def _float_digits(v: float, single: bool, max_digits: int = 8) -> int:
    """Fewest fractional digits (<= max_digits) that round-trip v at its precision."""
    for d in range(max_digits + 1):
        s = f"{v:.{d}f}"
        back = float(s)
        if single:
            back = struct.unpack("f", struct.pack("f", back))[0]
        if back == v:
            return d
    return max_digits


def _make_float_formatter(values, single: bool):
    finite = [abs(v) for v in values if math.isfinite(v)]
    nonzero = [v for v in finite if v != 0]
    # NumPy's rule (arrayprint.FloatingFormat): scientific notation when the largest
    # magnitude is >= 1e8, the smallest nonzero one < 1e-4, or their ratio > 1e3.
    sci = bool(nonzero) and (max(nonzero) >= 1e8 or min(nonzero) < 1e-4
                             or max(nonzero) / min(nonzero) > 1e3)
    if sci:
        prec = 0
        for v in finite:
            for d in range(9):
                s = f"{v:.{d}e}"
                back = float(s)
                if single:
                    back = struct.unpack("f", struct.pack("f", back))[0]
                if back == v:
                    prec = max(prec, d)
                    break
            else:
                prec = 8

        def fmt(v):
            if not math.isfinite(v):
                return _nonfinite(v)
            m, e = f"{v:.{prec}e}".split("e")
            if "." not in m:
                m += "."
            return f"{m}e{int(e):+03d}"
        return fmt
    digits = max((_float_digits(v, single) for v in finite), default=0)

    def fmt(v):
        if not math.isfinite(v):
            return _nonfinite(v)
        s = f"{v:.{digits}f}"
        if digits == 0:
            return s + "."
        whole, frac = s.split(".")
        stripped = frac.rstrip("0")
        return f"{whole}.{stripped}" + " " * (len(frac) - len(stripped))
    return fmt


def _nonfinite(v: float) -> str:
    return "nan" if v != v else ("inf" if v > 0 else "-inf")


def _element_formatter(flat, dtype):
    kind = dtype.kind
    if kind == "b":
        return lambda v: "True" if v else "False"
    if kind in "iu":
        return str
    single = dtype.name in ("float32", "complex64")
    if kind == "f":
        return _make_float_formatter(flat, single)
    re_fmt = _make_float_formatter([v.real for v in flat], single)
    im_fmt = _make_float_formatter([v.imag for v in flat], single)

    def parts(v):
        im = im_fmt(abs(v.imag) if not math.isnan(v.imag) else v.imag).lstrip()
        sign = "-" if (v.imag < 0 or (v.imag == 0 and math.copysign(1, v.imag) < 0)) else "+"
        return re_fmt(v.real), sign + im

    # NumPy's layout: real parts right-aligned in one column, imaginary parts (with their
    # sign) in another, and the 'j' right after the digits (before the padding).
    re_w = max((len(parts(v)[0]) for v in flat), default=0)
    im_w = max((len(parts(v)[1]) for v in flat), default=0)

    def fmt(v):
        re, im = parts(v)
        im = im.rjust(im_w)
        n = len(im.rstrip())
        return re.rjust(re_w) + im[:n] + "j" + im[n:]
    return fmt


def _render(v, fmt, width, indent, depth, ndim, comma=","):
    if not isinstance(v, list):
        return "..." if v is Ellipsis else fmt(v).rjust(width)
    if depth == ndim - 1:
        # Innermost row: wrap at the line width.
        # NumPy writes the summary marker as a bare '...' (not padded to the column width).
        items = ["..." if e is Ellipsis else fmt(e).rjust(width) for e in v]
        lines, line = [], ""
        for i, it in enumerate(items):
            piece = it + (comma if i < len(items) - 1 else "")
            if line and len(indent) + len(line) + len(piece) + 1 > _LINE_WIDTH:
                lines.append(line.rstrip())
                line = ""
            line += piece + " "
        lines.append(line[:-1])  # drop the separator only: keep the element's padding
        return "[" + ("\n" + indent + " ").join(lines) + "]"
    sep = comma + "\n" * (ndim - depth - 1) + indent + " "
    parts = []
    for e in v:
        if e is Ellipsis:
            parts.append("...")
        else:
            parts.append(_render(e, fmt, width, indent + " ", depth + 1, ndim, comma))
    return "[" + sep.join(parts) + "]"


def format_array(x, prefix: str = "Array(", with_dtype: bool = True) -> str:
    summarize = x.size > _SUMMARY_THRESHOLD
    values = _summarized_values(x, summarize)
    flat = _flat(values, [])
    fmt = _element_formatter(flat, x.dtype)
    width = max((len(fmt(v)) for v in flat), default=0)
    if x.ndim == 0:
        body = fmt(values).strip()
    elif x.size == 0:
        if not with_dtype:
            return "[]"
        if x.ndim == 1:
            return f"{prefix}[], dtype={x.dtype.name})"
        return f"{prefix}[], shape={x.shape}, dtype={x.dtype.name})"  # as NumPy
    else:
        if not with_dtype:  # str(): NumPy's layout, no commas, no prefix
            return _render(values, fmt, width, "", 0, x.ndim, comma="")
        body = _render(values, fmt, width, " " * len(prefix), 0, x.ndim)
    if not with_dtype:
        return body
    return f"{prefix}{body}, dtype={x.dtype.name})"
