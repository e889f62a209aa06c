"""L4: `ac.save` / `ac.load`: nested containers of arrays in the safetensors format.

    >>> import arraycore as ac, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "ckpt.safetensors")
    >>> ac.save({"w": ac.ones((2, 3)), "step": 10, "betas": (0.9, 0.999)}, path)
    >>> ckpt = ac.load(path)
    >>> ckpt["step"], ckpt["betas"], ckpt["w"].shape
    (10, (0.9, 0.999), (2, 3))

The file is a standard safetensors file (the container is read and written here, see
`_format.py`): every array is one tensor, named by its path in the object ("state.0.exp_avg"
for `obj["state"][0]["exp_avg"]`; a flat dict of arrays keeps its keys as the names, so other
safetensors readers see the usual layout), and `__metadata__["arraycore.structure"]` holds the
nesting and the non-array leaves as JSON (`_structure.py`).  Loading never unpickles: only
dicts, lists, tuples, arrays, numbers, strings, None and bools can come out of a file.

dtypes: the 11 safetensors-native ones as they are; complex64 as "C64"; complex128, which
safetensors lacks, as an "F64" tensor with a trailing dimension of 2 (real, imaginary; the
layout of `torch.view_as_real`) listed in `__metadata__["arraycore.complex128"]` so that
`ac.load` gives complex128 back.  Files with "F16"/"BF16" tensors load as float32 (exact).
"""

from __future__ import annotations

import json
import math
import mmap as _mmap
import os
import sys

from .._core import dtypes as _dt
from . import _format, _half, _structure

__all__ = ["save", "load"]

_STRUCTURE_KEY = "arraycore.structure"
_COMPLEX128_KEY = "arraycore.complex128"
# PEP 3118 item formats of the real dtypes (what memoryview.cast and from_buffer read).
_STRUCT_FORMAT = {"bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q",
                  "uint8": "B", "uint16": "H", "uint32": "I", "uint64": "Q",
                  "float32": "f", "float64": "d"}


def _ns():
    return sys.modules["arraycore"]


def _array_types():
    from ..native import _native
    return (_native.Array,)


def _is_tracer(x) -> bool:
    from ..autodiff.tracer import Tracer
    return isinstance(x, Tracer)


# --- save --------------------------------------------------------------------------------
def _tensor_record(name, x):
    """(name, tag, shape, contiguous array) for one array; detaches and compacts it."""
    ns = _ns()
    if getattr(x, "requires_grad", False):
        x = x.detach()
    if x.size and not memoryview(x).c_contiguous:
        x = ns.ascontiguousarray(x)
    dt = _dt.BY_CODE[x._dtype_code]
    if dt.name == "complex128":
        return name, "F64", tuple(x.shape) + (2,), x
    return name, _format.DTYPE_TO_TAG[dt.name], tuple(x.shape), x


def _nbytes(x) -> int:
    return x.size * _dt.BY_CODE[x._dtype_code].itemsize


def _raw(x):
    return memoryview(x).cast("B") if x.size else b""


def save(obj, path) -> None:
    """Save arrays, or dicts/lists/tuples nesting arrays, Python numbers, strings, None and
    bools (module and optimizer state dicts), to `path` in the safetensors format.

    The write is atomic: the data go to a temporary file in the same directory that is then
    renamed over `path`, so a crash never leaves a half-written checkpoint.  `path` may also
    be a binary file object with `write` (written in place, not atomically).  Arrays that
    require grad are saved detached; non-contiguous arrays are compacted; namedtuples are
    saved as tuples and dict subclasses as dicts.  Values being traced by a transform
    (inside `ac.func.grad`/`vmap`) cannot be saved.

    >>> import arraycore as ac, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "m.safetensors")
    >>> ac.save({"weight": ac.eye(2), "bias": ac.zeros(2)}, p)
    >>> ac.load(p)["weight"]
    Array([[1., 0.],
           [0., 1.]], dtype=float64)
    """
    _format.require_little_endian("save")
    flat = _structure.Flattener(_array_types() + _tracer_types(), fn="save")
    structure = flat.node(obj, [])
    records, complex128 = [], []
    for name, x in flat.arrays.items():
        if _is_tracer(x):
            raise TypeError(f"save: {name!r} is a value traced by a transform (inside "
                            "ac.func.grad/vmap/...); save concrete arrays outside the transform")
        rec = _tensor_record(name, x)
        if _dt.BY_CODE[rec[3]._dtype_code].name == "complex128":
            complex128.append(name)
        records.append(rec)
    # Widest items first: with the data region 8-byte aligned, every tensor is then aligned
    # to its own item size (what the reference writer does too), which mmap loading needs.
    records.sort(key=lambda r: -_dt.BY_CODE[r[3]._dtype_code].itemsize)
    metadata = {_STRUCTURE_KEY: json.dumps(structure, separators=(",", ":"))}
    if complex128:
        metadata[_COMPLEX128_KEY] = json.dumps(complex128)
    header = _format.build_header([(n, t, s, _nbytes(x)) for n, t, s, x in records], metadata)
    chunks = (_raw(x) for _, _, _, x in records)
    if hasattr(path, "write"):
        path.write(header)
        for c in chunks:
            path.write(c)
        return
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"save: path must be a str, os.PathLike or a binary file object, got "
                        f"{type(path).__name__}")
    _format.write_atomic(path, header, chunks)


def _tracer_types():
    from ..autodiff.tracer import Tracer
    return (Tracer,)


# --- load --------------------------------------------------------------------------------
class _Source:
    """The bytes of a file: a path (read with readinto, or memory-mapped) or a file object."""

    def __init__(self, path, use_mmap: bool):
        self.file, self.owned, self.map = None, False, None
        if hasattr(path, "read"):
            self.file = path
            start = path.tell()
            path.seek(0, os.SEEK_END)
            self.size = path.tell() - start
            path.seek(start)
            self.base = start
            if use_mmap:
                raise ValueError("load: mmap=True needs a path, not a file object")
        elif isinstance(path, (str, bytes, os.PathLike)):
            self.file = open(path, "rb")
            self.owned = True
            self.size = os.fstat(self.file.fileno()).st_size
            self.base = 0
            if use_mmap and self.size:
                # Private copy-on-write mapping: arrays are writable, writes never reach the
                # file, and pages are read from disk only when touched.
                self.map = _mmap.mmap(self.file.fileno(), 0, access=_mmap.ACCESS_COPY)
        else:
            raise TypeError(f"load: path must be a str, os.PathLike or a binary file object, "
                            f"got {type(path).__name__}")

    def read(self, offset, n) -> bytes:
        self.file.seek(self.base + offset)
        return self.file.read(n)

    def read_into(self, offset, view, name, path):
        self.file.seek(self.base + offset)
        got, n = 0, view.nbytes
        while got < n:
            k = self.file.readinto(view[got:])
            if not k:
                raise ValueError(f"load: {path!s}: tensor {name!r}: file ended after {got} of "
                                 f"{n} bytes (truncated while reading?)")
            got += k

    def close(self):
        if self.owned:
            self.file.close()


def _read_tensor(src, entry, data_start, dtype, shape, path, use_mmap):
    """One tensor's array: a copy read straight into a fresh array, or (mmap) a view of the
    mapping when the bytes are aligned for the dtype."""
    ns = _ns()
    from ..native import _native

    offset = data_start + entry.begin
    size = math.prod(shape)
    if use_mmap and src.map is not None and size and dtype.kind != "c" \
            and offset % dtype.itemsize == 0:
        view = memoryview(src.map)[offset:offset + entry.nbytes].cast(_STRUCT_FORMAT[dtype.name])
        return ns.reshape(_native.from_buffer(view, False), shape)
    out = ns.empty(shape, dtype=dtype)
    if size:
        src.read_into(offset, memoryview(out).cast("B"), entry.name, path)
    return out


def _check_bool(arr, name, path):
    from ..native import _native
    if arr.size == 0:
        return
    ns = _ns()
    as_u8 = _native.from_buffer(memoryview(ns.reshape(arr, (-1,))).cast("B"), False)
    if ns.any(as_u8 > 1):
        raise ValueError(f"load: {path!s}: tensor {name!r}: BOOL data hold bytes other than "
                         "0 and 1 (corrupted)")


def load(path, *, mmap: bool = False):
    """Load an object saved by `ac.save`, or any safetensors file (as a dict of arrays).

    Returns arraycore arrays that are **copies** read straight from the file (one read per
    tensor into a fresh array, no intermediate buffers).  With `mmap=True` the file is
    memory-mapped copy-on-write instead and real-valued tensors are zero-copy views of the
    mapping (pages load on first touch; writes to the arrays never reach the file; complex
    tensors and misaligned ones are still copied).

    Every problem with the file (truncated, bad header length, bad JSON, unknown dtype,
    offsets out of range, overlapping or leaving gaps, a byte count that does not match
    dtype x shape, a corrupt structure) raises ValueError naming the file, the tensor and the
    problem, before any array is returned.

    >>> import arraycore as ac, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "x.safetensors")
    >>> ac.save([ac.arange(3), {"lr": 0.1}], p)
    >>> ac.load(p)
    [Array([0, 1, 2], dtype=int64), {'lr': 0.1}]
    """
    _format.require_little_endian("load")
    src = _Source(path, bool(mmap))
    try:
        entries, metadata, data_start = _format.parse_header(
            src.read(0, 8), lambda n: src.read(8, n), src.size, path)
        complex128 = _metadata_json(metadata, _COMPLEX128_KEY, path, default=[])
        if not isinstance(complex128, list) or not all(isinstance(n, str) for n in complex128):
            raise ValueError(f"load: {path!s}: {_COMPLEX128_KEY!r} must list tensor names")
        complex128 = set(complex128)
        arrays = {}
        for e in entries:
            arrays[e.name] = _load_entry(src, e, data_start, e.name in complex128, path,
                                         bool(mmap))
    finally:
        src.close()
    structure = _metadata_json(metadata, _STRUCTURE_KEY, path, default=None)
    if structure is None:
        return arrays

    def bad(msg):
        raise ValueError(f"load: {path!s}: {_STRUCTURE_KEY!r}: {msg}")

    used = set()
    obj = _structure.unflatten(structure, arrays, bad, used=used)
    unused = arrays.keys() - used
    if unused:
        bad(f"tensors {sorted(unused)} are in the file but not in the structure")
    return obj


def _metadata_json(metadata, key, path, default):
    if key not in metadata:
        return default
    try:
        return json.loads(metadata[key])
    except ValueError as e:
        raise ValueError(f"load: {path!s}: __metadata__[{key!r}] is not valid JSON ({e})") \
            from None


def _load_entry(src, e, data_start, is_complex128, path, use_mmap):
    ns = _ns()
    if is_complex128:
        if e.tag != "F64" or not e.shape or e.shape[-1] != 2:
            raise ValueError(f"load: {path!s}: tensor {e.name!r} is listed as complex128 but "
                             f"is {e.tag} of shape {list(e.shape)} (needs F64 with a last "
                             "dimension of 2)")
        return _read_tensor(src, e, data_start, _dt.complex128, e.shape[:-1], path, use_mmap)
    if e.tag in _format.WIDENED_TAGS:
        bits = _read_tensor(src, e, data_start, _dt.uint16, e.shape, path, False)
        widen = _half.float16_bits_to_float32 if e.tag == "F16" \
            else _half.bfloat16_bits_to_float32
        return widen(ns, bits)
    arr = _read_tensor(src, e, data_start, _format.TAG_TO_DTYPE[e.tag], e.shape, path,
                       use_mmap)
    if e.tag == "BOOL":
        _check_bool(arr, e.name, path)
    return arr
