"""ac.save / ac.load: round trips of every dtype and structure, interop with the safetensors
package (the reference reader/writer), and every corruption case failing with a clear
ValueError that names the tensor and the problem."""

from __future__ import annotations

import collections
import io
import json
import math
import os
import struct

import numpy as np
import pytest

import arraycore as ac
from conftest import DTYPE_NAMES, random_numpy

st_numpy = pytest.importorskip("safetensors.numpy")


def _np(x):
    return np.asarray(x)


def _same_array(a, b):
    assert isinstance(a, ac.Array) and isinstance(b, ac.Array)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(_np(a), _np(b), strict=True)


def _same_tree(a, b):
    if isinstance(a, ac.Array):
        _same_array(a, b)
        return
    assert type(a) is type(b), (a, b)
    if isinstance(a, dict):
        assert list(a.keys()) == list(b.keys())
        for k in a:
            assert type(k) is type(next(kk for kk in b if kk == k))
            _same_tree(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same_tree(x, y)
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b)
    elif isinstance(a, float):
        assert a == b and math.copysign(1, a) == math.copysign(1, b)
    else:
        assert a == b


def _roundtrip(obj, tmp_path, **kw):
    p = tmp_path / "obj.safetensors"
    ac.save(obj, p)
    return ac.load(p, **kw)


# --- round trips -------------------------------------------------------------------------
SHAPES = [(), (0,), (3, 0, 2), (5,), (3, 4), (2, 3, 4)]


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
@pytest.mark.parametrize("use_mmap", [False, True])
def test_roundtrip_every_dtype_and_shape(dtype, use_mmap, tmp_path):
    rng = np.random.default_rng(1)
    obj = {f"x{i}": ac.asarray(random_numpy(s, dtype, rng)) for i, s in enumerate(SHAPES)}
    back = _roundtrip(obj, tmp_path, mmap=use_mmap)
    _same_tree(obj, back)


def test_extreme_values_roundtrip_bit_exact(tmp_path):
    f64 = np.array([np.nan, np.inf, -np.inf, -0.0, 5e-324, 1.7976931348623157e308])
    with np.errstate(over="ignore"):
        f32 = f64.astype(np.float32)
    obj = {"f64": ac.asarray(f64), "f32": ac.asarray(f32),
           "i64": ac.asarray(np.array([np.iinfo(np.int64).min, -1, np.iinfo(np.int64).max])),
           "u64": ac.asarray(np.array([0, 2**64 - 1], dtype=np.uint64)),
           "c128": ac.asarray(np.array([complex(np.nan, -np.inf), -0.0 + 0j]))}
    back = _roundtrip(obj, tmp_path)
    for k in obj:
        assert _np(back[k]).tobytes() == _np(obj[k]).tobytes(), k


def test_non_contiguous_arrays_are_saved_compacted(tmp_path):
    base = ac.reshape(ac.arange(24, dtype=ac.float32), (4, 6))
    views = {"T": base.T, "step": base[:, ::2], "neg": base[::-1, 1:5], "bcast":
             ac.broadcast_to(ac.arange(3), (4, 3)), "col": base[:, 2]}
    back = _roundtrip(views, tmp_path)
    for k, v in views.items():
        _same_array(v, back[k])


def test_nested_structures_and_leaves(tmp_path):
    Point = collections.namedtuple("Point", "x y")
    obj = {
        "model": {"layer.weight": ac.ones((2, 2)), "layer.bias": ac.zeros(2)},
        "optim": {"state": {0: {"step": 7, "exp_avg": ac.full((2,), 0.5, dtype=ac.float32)},
                            1: {"step": 7, "exp_avg": ac.asarray([1.0])}},
                  "param_groups": [{"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8,
                                    "amsgrad": False, "foreach": None, "params": [0, 1]}]},
        "leaves": [0.1, -0.0, float("inf"), float("-inf"), float("nan"), 2**80, -3, 1 + 2j,
                   "ünïcode ✓", "", None, True, False],
        "keys": {1.5: "float key", None: "none key", True: "bool key", "": "empty"},
        "empty": [[], (), {}],
        "point": Point(ac.asarray([1, 2]), 3),
    }
    back = _roundtrip(obj, tmp_path)
    expected = dict(obj)
    expected["point"] = (obj["point"].x, 3)  # namedtuples come back as tuples
    _same_tree(expected, back)


def test_top_level_array_list_and_scalar(tmp_path):
    _same_tree(ac.arange(5), _roundtrip(ac.arange(5), tmp_path))
    _same_tree([ac.ones(2), 3], _roundtrip([ac.ones(2), 3], tmp_path))
    assert _roundtrip(4.25, tmp_path) == 4.25
    assert _roundtrip({}, tmp_path) == {}


def test_path_names_that_collide_stay_apart(tmp_path):
    obj = {"a.b": ac.asarray([1]), "a": {"b": ac.asarray([2])}, "__metadata__": ac.asarray([3])}
    _same_tree(obj, _roundtrip(obj, tmp_path))


def test_requires_grad_arrays_are_saved_detached(tmp_path):
    w = ac.asarray([1.0, 2.0])
    w.requires_grad_()
    back = _roundtrip({"w": w * 2}, tmp_path)
    assert not back["w"].requires_grad
    np.testing.assert_array_equal(_np(back["w"]), [2.0, 4.0])


def test_traced_values_cannot_be_saved(tmp_path):
    def f(x):
        ac.save({"x": x}, tmp_path / "t.safetensors")
        return ac.sum(x)

    with pytest.raises(TypeError, match="save: 'x' is a value traced"):
        ac.func.grad(f)(ac.ones(3))


@pytest.mark.parametrize("obj, match", [
    ({"a": {1, 2}}, "cannot store an object of type set at a"),
    ([object()], "type object at 0"),
    ({(1, 2): ac.ones(1)}, "dict keys must be str, int, float, bool or None; got tuple"),
])
def test_unsupported_objects_raise_typeerror(obj, match, tmp_path):
    with pytest.raises(TypeError, match=match):
        ac.save(obj, tmp_path / "x.safetensors")
    assert os.listdir(tmp_path) == []


def test_cycles_raise_valueerror(tmp_path):
    a = []
    a.append(a)
    with pytest.raises(ValueError, match="contains itself"):
        ac.save(a, tmp_path / "x.safetensors")


def test_bad_path_types(tmp_path):
    with pytest.raises(TypeError, match="save: path must be"):
        ac.save({}, 3)
    with pytest.raises(TypeError, match="load: path must be"):
        ac.load(3.5)


def test_file_objects(tmp_path):
    buf = io.BytesIO()
    obj = {"w": ac.ones((2, 2)), "meta": {"epoch": 3}}
    ac.save(obj, buf)
    buf.seek(0)
    _same_tree(obj, ac.load(buf))
    with pytest.raises(ValueError, match="mmap=True needs a path"):
        ac.load(io.BytesIO(buf.getvalue()), mmap=True)


def test_mmap_arrays_are_private_and_writable(tmp_path):
    p = tmp_path / "m.safetensors"
    ac.save({"w": ac.arange(6, dtype=ac.float32)}, p)
    raw = p.read_bytes()
    w = ac.load(p, mmap=True)["w"]
    w[0] = 100.0
    assert float(w[0]) == 100.0
    assert p.read_bytes() == raw  # copy-on-write: the file is untouched


# --- atomic writes -----------------------------------------------------------------------
def test_save_replaces_atomically_and_failed_save_keeps_old_file(tmp_path, monkeypatch):
    p = tmp_path / "ckpt.safetensors"
    ac.save({"w": ac.ones(3)}, p)
    ac.save({"w": ac.zeros(3)}, p)  # replace
    np.testing.assert_array_equal(_np(ac.load(p)["w"]), [0, 0, 0])
    old = p.read_bytes()

    import arraycore.serialization as ser
    calls = []

    def failing_raw(x):
        calls.append(1)
        if len(calls) == 2:
            raise OSError("disk full (simulated)")
        return memoryview(x).cast("B")

    monkeypatch.setattr(ser, "_raw", failing_raw)
    with pytest.raises(OSError, match="simulated"):
        ac.save({"a": ac.ones(4), "b": ac.ones(4)}, p)
    assert p.read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["ckpt.safetensors"]  # no temp file left


# --- interop with the safetensors package ------------------------------------------------
def test_flat_dict_loads_with_safetensors_numpy(tmp_path):
    rng = np.random.default_rng(2)
    ref = {n: random_numpy((3, 2), n, rng) for n in DTYPE_NAMES if n != "complex128"}
    ref["scalar"] = np.float32(2.5).reshape(())
    ref["empty"] = np.zeros((0, 3), np.int32)
    p = tmp_path / "flat.safetensors"
    ac.save({k: ac.asarray(v) for k, v in ref.items()}, p)
    got = st_numpy.load_file(str(p))
    assert got.keys() == ref.keys()
    for k in ref:
        np.testing.assert_array_equal(got[k], ref[k], strict=True)


def test_complex128_reads_as_float64_pairs_elsewhere(tmp_path):
    z = np.array([[1 + 2j, -3.5j], [0, 4]], dtype=np.complex128)
    p = tmp_path / "c.safetensors"
    ac.save({"z": ac.asarray(z)}, p)
    got = st_numpy.load_file(str(p))["z"]
    np.testing.assert_array_equal(got, np.stack([z.real, z.imag], axis=-1), strict=True)


def test_safetensors_numpy_files_load(tmp_path):
    rng = np.random.default_rng(3)
    ref = {n: random_numpy((4, 3), n, rng) for n in DTYPE_NAMES if n != "complex128"}
    ref["zero_d"] = np.array(7, dtype=np.int16)
    ref["empty"] = np.zeros((2, 0), dtype=np.float64)
    p = tmp_path / "ref.safetensors"
    st_numpy.save_file(ref, str(p), metadata={"format": "np"})
    for use_mmap in (False, True):
        got = ac.load(p, mmap=use_mmap)
        assert set(got) == set(ref)
        for k, v in ref.items():
            assert got[k].dtype == getattr(ac, v.dtype.name)
            np.testing.assert_array_equal(_np(got[k]), v, strict=True)


def test_float16_widens_to_float32_exactly(tmp_path):
    every_half = np.arange(2**16, dtype=np.uint16).view(np.float16)
    p = tmp_path / "h.safetensors"
    st_numpy.save_file({"h": every_half.reshape(256, 256)}, str(p))
    got = ac.load(p)["h"]
    assert got.dtype == ac.float32 and got.shape == (256, 256)
    want = every_half.astype(np.float32).reshape(256, 256)
    np.testing.assert_array_equal(_np(got).view(np.uint32)[~np.isnan(want)],
                                  want.view(np.uint32)[~np.isnan(want)])
    assert np.array_equal(np.isnan(_np(got)), np.isnan(want))


def test_bfloat16_widens_to_float32_exactly(tmp_path):
    # bfloat16 is the top half of a float32 (what torch.bfloat16 stores): every pattern.
    bits = np.arange(2**16, dtype=np.uint16)
    p = _write_raw(tmp_path / "bf.safetensors",
                   {"t": _entry("BF16", [2**16], 0, 2**17), "e": _entry("BF16", [0], 0, 0)},
                   bits.tobytes())
    got = ac.load(p)
    want = (bits.astype(np.uint32) << 16).view(np.float32)
    assert got["t"].dtype == ac.float32
    np.testing.assert_array_equal(_np(got["t"]).view(np.uint32), want.view(np.uint32))
    assert got["e"].shape == (0,) and got["e"].dtype == ac.float32


# --- corrupted files ---------------------------------------------------------------------
def _write_raw(path, header, data=b"", length=None, pad=True):
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    if pad:
        text += b" " * (-len(text) % 8)
    n = len(text) if length is None else length
    path.write_bytes(struct.pack("<Q", n) + text + data)
    return path


def _entry(dtype, shape, begin, end):
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


CORRUPT_CASES = [
    # (description, header, data, length override, expected message pieces)
    ("short file", None, b"\x01\x02", None, ["truncated file: 2 bytes"]),
    ("zero length", {}, b"", 0, ["bad header length 0"]),
    ("length past end", {"a": _entry("F32", [1], 0, 4)}, bytes(4), 10**6,
     ["bad header length 1000000", "truncated"]),
    ("huge length", {}, b"", 2**40, ["bad header length", "limit"]),
    ("bad json", b"{\"a\": {\"dtype\": ", b"", None, ["header is not valid JSON"]),
    ("not utf8", b"{\"\xff\xfe\": 1}", b"", None, ["header is not UTF-8"]),
    ("not object", [1, 2], b"", None, ["header must be a JSON object, got list"]),
    ("duplicate", b'{"a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]}, '
                  b'"a": {"dtype": "U8", "shape": [1], "data_offsets": [1, 2]}}', bytes(2),
     None, ["duplicate key 'a'"]),
    ("unknown dtype", {"w": _entry("Q7", [1], 0, 1)}, bytes(1), None,
     ["tensor 'w'", "unknown dtype 'Q7'"]),
    ("fp8", {"w": _entry("F8_E4M3", [2], 0, 2)}, bytes(2), None,
     ["tensor 'w'", "F8_E4M3 has no arraycore equivalent"]),
    ("dtype not str", {"w": _entry(4, [1], 0, 4)}, bytes(4), None,
     ["tensor 'w'", "dtype must be a string"]),
    ("missing field", {"w": {"dtype": "F32", "shape": [1]}}, bytes(4), None,
     ["tensor 'w'", "lacks data_offsets"]),
    ("entry not object", {"w": [1]}, b"", None, ["tensor 'w'", "entry must be an object"]),
    ("negative dim", {"w": _entry("F32", [-1], 0, 0)}, b"", None,
     ["tensor 'w'", "shape must be a list of non-negative integers"]),
    ("float dim", {"w": _entry("F32", [1.0], 0, 4)}, bytes(4), None,
     ["tensor 'w'", "shape must be"]),
    ("offsets shape", {"w": {"dtype": "F32", "shape": [1], "data_offsets": [0]}}, bytes(4),
     None, ["tensor 'w'", "data_offsets must be [begin, end]"]),
    ("offsets reversed", {"w": _entry("F32", [0], 4, 0)}, bytes(4), None,
     ["tensor 'w'", "not 0 <= begin <= end"]),
    ("offsets past end", {"w": _entry("F32", [4], 0, 16)}, bytes(12), None,
     ["tensor 'w'", "run past the end of the data (12 bytes; truncated"]),
    ("byte count", {"w": _entry("F32", [2, 2], 0, 12)}, bytes(12), None,
     ["tensor 'w'", "holds 12 bytes, but dtype F32 with shape [2, 2] needs 16"]),
    ("overlap", {"a": _entry("F32", [2], 0, 8), "b": _entry("F32", [2], 4, 12)}, bytes(12),
     None, ["tensor 'b'", "overlap tensor 'a'"]),
    ("gap", {"a": _entry("F32", [1], 0, 4), "b": _entry("F32", [1], 8, 12)}, bytes(12),
     None, ["tensor 'b'", "belong to no tensor"]),
    ("trailing", {"a": _entry("F32", [1], 0, 4)}, bytes(9), None,
     ["5 bytes after the last tensor"]),
    ("metadata type", {"__metadata__": {"k": 1}}, b"", None,
     ["'__metadata__' must be an object of strings to strings"]),
    ("structure json", {"__metadata__": {"arraycore.structure": "[\"t\","}}, b"", None,
     ["__metadata__['arraycore.structure'] is not valid JSON"]),
    ("structure missing tensor", {"__metadata__": {"arraycore.structure": '["t", "w"]'}},
     b"", None, ["refers to tensor 'w', which the file does not hold"]),
    ("structure bad node", {"__metadata__": {"arraycore.structure": '["dict", [[1, 2]]]'}},
     b"", None, ["'arraycore.structure'", "bad dict item"]),
    ("structure bad leaf", {"__metadata__": {"arraycore.structure": '["i", "x"]'}},
     b"", None, ["bad leaf"]),
    ("unreferenced tensor", {"__metadata__": {"arraycore.structure": '["none"]'},
                             "w": _entry("U8", [1], 0, 1)}, bytes(1), None,
     ["tensors ['w'] are in the file but not in the structure"]),
    ("bool bytes", {"m": _entry("BOOL", [3], 0, 3)}, bytes([0, 1, 2]), None,
     ["tensor 'm'", "BOOL data hold bytes other than 0 and 1"]),
    ("complex128 mismatch", {"__metadata__": {"arraycore.complex128": '["z"]'},
                             "z": _entry("F64", [3], 0, 24)}, bytes(24), None,
     ["tensor 'z' is listed as complex128 but is F64 of shape [3]"]),
]


@pytest.mark.parametrize("desc, header, data, length, pieces", CORRUPT_CASES,
                         ids=[c[0] for c in CORRUPT_CASES])
def test_corrupted_files_raise_clear_valueerror(desc, header, data, length, pieces, tmp_path):
    p = tmp_path / "bad.safetensors"
    if header is None:
        p.write_bytes(data)
    else:
        _write_raw(p, header, data, length)
    for use_mmap in (False, True):
        with pytest.raises(ValueError) as info:
            ac.load(p, mmap=use_mmap)
        msg = str(info.value)
        assert msg.startswith("load: ") and str(p) in msg
        for piece in pieces:
            assert piece in msg, (piece, msg)


def test_truncated_real_checkpoint(tmp_path):
    p = tmp_path / "ckpt.safetensors"
    ac.save({"a": ac.ones((10, 10)), "b": ac.ones(5, dtype=ac.int32)}, p)
    raw = p.read_bytes()
    for cut in (3, 20, len(raw) - 1, len(raw) - 41):
        p.write_bytes(raw[:cut])
        with pytest.raises(ValueError, match="truncated"):
            ac.load(p)


def test_foreign_metadata_is_ignored_and_flat_dict_returned(tmp_path):
    p = _write_raw(tmp_path / "f.safetensors",
                   {"__metadata__": {"format": "pt"}, "w": _entry("I32", [2], 0, 8)},
                   struct.pack("<2i", 5, -6))
    got = ac.load(p)
    assert list(got) == ["w"] and got["w"].tolist() == [5, -6]


# --- checkpoints of modules and optimizers -----------------------------------------------
def test_module_and_optimizer_checkpoint_roundtrip(tmp_path):
    nn = pytest.importorskip("arraycore.nn")
    from arraycore.native import _native
    if not hasattr(ac, "optim") or not hasattr(_native, "optim_adam"):
        pytest.skip("ac.optim's native kernels are not in this build")

    def make():
        return nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3))

    ac.manual_seed(0)
    model = make()
    opt = ac.optim.AdamW(model.parameters(), lr=1e-2, betas=(0.8, 0.99), amsgrad=True)
    x = ac.random.Generator(1).standard_normal((4, 5), dtype=ac.float32)
    for _ in range(3):
        opt.zero_grad()
        ac.sum(model(x) ** 2).backward()
        opt.step()
    p = tmp_path / "ckpt.safetensors"
    ac.save({"model": model.state_dict(), "optim": opt.state_dict(), "epoch": 3}, p)

    ckpt = ac.load(p)
    model2 = make()
    model2.load_state_dict(ckpt["model"])
    opt2 = ac.optim.AdamW(model2.parameters(), lr=1e-2)
    opt2.load_state_dict(ckpt["optim"])
    assert ckpt["epoch"] == 3
    assert opt2.param_groups[0]["betas"] == (0.8, 0.99) and opt2.param_groups[0]["amsgrad"]
    _same_tree(opt.state_dict()["param_groups"], opt2.state_dict()["param_groups"])
    for group in (opt, opt2):  # one more step each: the restored run continues identically
        group.zero_grad()
    ac.sum(model(x) ** 2).backward()
    ac.sum(model2(x) ** 2).backward()
    opt.step()
    opt2.step()
    for (k, a), (_, b) in zip(model.state_dict().items(), model2.state_dict().items()):
        np.testing.assert_array_equal(_np(a), _np(b), err_msg=k)
