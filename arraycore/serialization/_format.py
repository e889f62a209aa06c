"""L4: the safetensors container, read and written without any third-party code.

Layout (https://huggingface.co/docs/safetensors, "Format"):

    8 bytes    N, the header length, unsigned little-endian
    N bytes    a UTF-8 JSON object: {"<name>": {"dtype": "F32", "shape": [2, 3],
               "data_offsets": [begin, end]}, ..., "__metadata__": {"<str>": "<str>"}}
               (padded with spaces so the data starts 8-byte aligned)
    the rest   the tensors' bytes, little-endian, C order; offsets are relative to the
               start of this region and the tensors tile it exactly (no gaps, no overlap)

`parse_header` checks every rule of that layout and names the tensor and the problem, so a
truncated or corrupted file fails before any array is built.  Nothing here unpickles or
evaluates anything: the header is JSON and the data are raw bytes.
"""

from __future__ import annotations

import json
import math
import os
import struct
import sys
import tempfile

from .._core import dtypes as _dt

# safetensors dtype tag -> arraycore dtype for tags stored as they are.
TAG_TO_DTYPE = {
    "BOOL": _dt.bool_, "I8": _dt.int8, "I16": _dt.int16, "I32": _dt.int32, "I64": _dt.int64,
    "U8": _dt.uint8, "U16": _dt.uint16, "U32": _dt.uint32, "U64": _dt.uint64,
    "F32": _dt.float32, "F64": _dt.float64, "C64": _dt.complex64,
}
DTYPE_TO_TAG = {d.name: tag for tag, d in TAG_TO_DTYPE.items()}
# Half-precision tags arraycore reads by widening to float32 (it has no 16-bit float dtype).
WIDENED_TAGS = {"F16": 2, "BF16": 2}
# Tags of the format arraycore cannot represent (8/6/4-bit floats): a clear error on load.
KNOWN_UNSUPPORTED_TAGS = {"F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ", "F8_E5M2FNUZ",
                          "F6_E2M3", "F6_E3M2", "F4"}
TAG_ITEMSIZE = {tag: d.itemsize for tag, d in TAG_TO_DTYPE.items()} | WIDENED_TAGS

METADATA_KEY = "__metadata__"
MAX_HEADER_BYTES = 100 * 1024 * 1024  # the reference implementation's limit
_LITTLE = sys.byteorder == "little"


class TensorEntry:
    """One tensor of a header: its name, dtype tag, shape and byte range in the data."""

    __slots__ = ("name", "tag", "shape", "begin", "end")

    def __init__(self, name, tag, shape, begin, end):
        self.name, self.tag, self.shape, self.begin, self.end = name, tag, shape, begin, end

    @property
    def nbytes(self) -> int:
        return self.end - self.begin


def _fail(fn: str, path, msg: str):
    raise ValueError(f"{fn}: {path!s}: {msg}")


def _reject_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise ValueError(f"duplicate key {k!r}")
        seen[k] = v
    return seen


def parse_header(raw_len: bytes, read_header, file_size: int, path, fn: str = "load"):
    """Validate a header and return (entries in data order, metadata dict, data start).

    raw_len: the first 8 bytes of the file; read_header(n): the next n bytes; file_size:
    the total size in bytes.  Every failure is a ValueError naming the file, the tensor (when
    one is at fault) and the problem.
    """
    if len(raw_len) < 8:
        _fail(fn, path, f"truncated file: {file_size} bytes, shorter than the 8-byte header "
              "length")
    (n,) = struct.unpack("<Q", raw_len)
    if n == 0:
        _fail(fn, path, "bad header length 0 (an empty header)")
    if n > MAX_HEADER_BYTES:
        _fail(fn, path, f"bad header length {n} (more than the {MAX_HEADER_BYTES}-byte limit; "
              "not a safetensors file?)")
    if 8 + n > file_size:
        _fail(fn, path, f"bad header length {n}: the file has only {file_size - 8} bytes after "
              "the length field (truncated?)")
    text = read_header(n)
    if len(text) != n:
        _fail(fn, path, f"truncated header: expected {n} bytes, read {len(text)}")
    try:
        header = json.loads(text.decode("utf-8"), object_pairs_hook=_reject_duplicates)
    except UnicodeDecodeError as e:
        _fail(fn, path, f"header is not UTF-8 ({e})")
    except ValueError as e:  # json.JSONDecodeError and duplicate keys
        _fail(fn, path, f"header is not valid JSON ({e})")
    if not isinstance(header, dict):
        _fail(fn, path, f"header must be a JSON object, got {type(header).__name__}")

    metadata = header.pop(METADATA_KEY, None)
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
        _fail(fn, path, f"{METADATA_KEY!r} must be an object of strings to strings")

    data_size = file_size - 8 - n
    entries = [_parse_entry(name, info, data_size, path, fn) for name, info in header.items()]
    _check_tiling(entries, data_size, path, fn)
    return entries, metadata, 8 + n


def _parse_entry(name, info, data_size, path, fn) -> TensorEntry:
    where = f"tensor {name!r}"
    if not isinstance(info, dict):
        _fail(fn, path, f"{where}: entry must be an object, got {type(info).__name__}")
    missing = {"dtype", "shape", "data_offsets"} - info.keys()
    if missing:
        _fail(fn, path, f"{where}: entry lacks {', '.join(sorted(missing))}")
    tag = info["dtype"]
    if not isinstance(tag, str):
        _fail(fn, path, f"{where}: dtype must be a string, got {tag!r}")
    if tag in KNOWN_UNSUPPORTED_TAGS:
        _fail(fn, path, f"{where}: dtype {tag} has no arraycore equivalent")
    if tag not in TAG_ITEMSIZE:
        _fail(fn, path, f"{where}: unknown dtype {tag!r}")
    shape = info["shape"]
    if not isinstance(shape, list) or not all(
            type(s) is int and s >= 0 for s in shape):
        _fail(fn, path, f"{where}: shape must be a list of non-negative integers, got {shape!r}")
    offsets = info["data_offsets"]
    if (not isinstance(offsets, list) or len(offsets) != 2
            or not all(type(o) is int for o in offsets)):
        _fail(fn, path, f"{where}: data_offsets must be [begin, end] integers, got {offsets!r}")
    begin, end = offsets
    if not 0 <= begin <= end:
        _fail(fn, path, f"{where}: data_offsets {offsets} are not 0 <= begin <= end")
    if end > data_size:
        _fail(fn, path, f"{where}: data_offsets {offsets} run past the end of the data "
              f"({data_size} bytes; truncated file?)")
    expected = math.prod(shape) * TAG_ITEMSIZE[tag]
    if end - begin != expected:
        _fail(fn, path, f"{where}: holds {end - begin} bytes, but dtype {tag} with shape "
              f"{shape} needs {expected}")
    return TensorEntry(name, tag, tuple(shape), begin, end)


def _check_tiling(entries, data_size, path, fn):
    """The tensors must cover the data region exactly once, as the reference reader demands."""
    entries.sort(key=lambda e: (e.begin, e.end))
    pos, prev = 0, None
    for e in entries:
        if e.begin < pos:
            _fail(fn, path, f"tensor {e.name!r}: bytes [{e.begin}, {e.end}) overlap tensor "
                  f"{prev.name!r} [{prev.begin}, {prev.end})")
        if e.begin > pos:
            _fail(fn, path, f"tensor {e.name!r}: bytes [{pos}, {e.begin}) before it belong to "
                  "no tensor (corrupted offsets)")
        if e.nbytes:
            pos, prev = e.end, e
    if pos != data_size:
        _fail(fn, path, f"{data_size - pos} bytes after the last tensor belong to no tensor "
              "(corrupted offsets or trailing garbage)")


def build_header(records, metadata) -> bytes:
    """The padded header (with its length prefix) for records of (name, tag, shape, nbytes)
    laid out in the given order."""
    header = {}
    if metadata:
        header[METADATA_KEY] = metadata
    pos = 0
    for name, tag, shape, nbytes in records:
        header[name] = {"dtype": tag, "shape": list(shape), "data_offsets": [pos, pos + nbytes]}
        pos += nbytes
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-(8 + len(text)) % 8)  # the data starts 8-byte aligned
    return struct.pack("<Q", len(text)) + text


def write_atomic(path, header: bytes, chunks, fn: str = "save"):
    """Write header + chunks (bytes-like) to a temporary file beside `path`, fsync it and
    rename it over `path`: a reader never sees a half-written file, and a failed save leaves
    any previous file in place."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp",
                               dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(header)
            for c in chunks:
                f.write(c)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def require_little_endian(fn: str):
    if not _LITTLE:  # pragma: no cover - every platform arraycore builds on is little-endian
        raise RuntimeError(f"{fn}: safetensors data are little-endian; this machine is not")
