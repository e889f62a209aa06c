"""Table-driven checks of nn.functional forms against PyTorch 2.13 CPU.

A `Case` names a function of arrays (arraycore and torch spellings), how to draw its inputs,
which inputs are differentiated and its tolerances.  `check_forward_backward` compares the
forward values and the tape's gradients (a random cotangent) with torch; `check_transforms`
compares `ac.func.grad`, `ac.func.jvp` (through <J t, g> = <t, J^T g>) and `ac.func.vmap`
with the tape's results.  A new layer case gets all of them by being added to a table.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import torch

import arraycore as ac

TOLS = {"float32": (2e-5, 2e-6), "float64": (1e-10, 1e-12)}


@dataclass
class Case:
    name: str
    ac_fn: Callable
    torch_fn: Callable
    make: Callable  # (rng, np dtype) -> list of numpy arrays / Python values
    diff: Optional[tuple] = None  # indices of differentiated inputs; None: every float array
    vmap_dims: Optional[tuple] = None  # in_dims for vmap (None: 0 for every array)
    transforms: bool = True
    vmap: bool = True
    dtypes: tuple = ("float32", "float64")
    tol: dict = field(default_factory=dict)  # dtype name -> (rtol, atol)
    grad: bool = True
    # False where, as in PyTorch, the backward is not the adjoint of the forward derivative
    # (embedding's padding_idx / scale_grad_by_freq change only the backward).
    jvp_is_adjoint: bool = True

    def __str__(self):
        return self.name


def _is_float(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def draw(case, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return case.make(rng, np.dtype(dtype))


def diff_indices(case, arrays):
    if case.diff is not None:
        return case.diff
    return tuple(i for i, a in enumerate(arrays) if _is_float(a))


def to_ac(arrays):
    return [ac.asarray(a) if isinstance(a, np.ndarray) else a for a in arrays]


def to_torch(arrays):
    return [torch.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a for a in arrays]


def tol_for(case, dtype):
    return case.tol.get(dtype, TOLS[dtype])


def assert_close(got, want, rtol, atol, what):
    got = np.asarray(got)
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what, equal_nan=True)


def _cotangent(shape, dtype, seed=1):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def check_forward_backward(case, dtype):
    """Forward values and tape gradients equal torch's.  Returns (inputs, cotangent, grads)."""
    arrays = draw(case, dtype)
    rtol, atol = tol_for(case, dtype)
    idx = diff_indices(case, arrays) if case.grad else ()
    t_in = to_torch(arrays)
    for i in idx:
        t_in[i].requires_grad_(True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_out = case.torch_fn(*t_in)
    a_in = to_ac(arrays)
    for i in idx:
        a_in[i].requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a_out = case.ac_fn(*a_in)
    assert_close(a_out, t_out, rtol, atol, f"{case.name} forward ({dtype})")
    if not idx or t_out.dtype not in (torch.float32, torch.float64):
        return arrays, None, None
    g = _cotangent(tuple(t_out.shape), np.dtype(dtype))
    t_grads = torch.autograd.grad(t_out, [t_in[i] for i in idx], torch.from_numpy(g),
                                  allow_unused=True)
    ac.sum(a_out * ac.asarray(g)).backward()
    grads = []
    for k, i in enumerate(idx):
        got = a_in[i].grad
        want = t_grads[k]
        if want is None:
            want = torch.zeros_like(t_in[i])
        if got is None:
            got = np.zeros(arrays[i].shape, arrays[i].dtype)
        assert_close(got, want, rtol * 4, atol * 4, f"{case.name} grad of input {i} ({dtype})")
        grads.append(np.asarray(got).copy())
    return arrays, g, grads


def _partial(case, arrays, idx):
    """f(*differentiated arrays) with the other inputs fixed."""
    def f(*d):
        full = to_ac(arrays)
        for k, i in enumerate(idx):
            full[i] = d[k]
        return case.ac_fn(*full)
    return f


def check_transforms(case, dtype="float64"):
    """func.grad and func.jvp agree with the tape; func.vmap with a loop over examples."""
    arrays, g, grads = check_forward_backward(case, dtype)
    rtol, atol = tol_for(case, dtype)
    idx = diff_indices(case, arrays) if case.grad else ()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if idx and g is not None:
            f = _partial(case, arrays, idx)
            ga = ac.asarray(g)
            primals = tuple(ac.asarray(arrays[i]) for i in idx)
            loss = lambda *d: ac.sum(f(*d) * ga)  # noqa: E731
            fg = ac.func.grad(loss, argnums=tuple(range(len(idx))))(*primals)
            for k, i in enumerate(idx):
                assert_close(fg[k], grads[k], rtol * 4, atol * 4,
                             f"{case.name} func.grad of input {i}")
        if idx and g is not None and case.jvp_is_adjoint:
            f = _partial(case, arrays, idx)
            ga = ac.asarray(g)
            primals = tuple(ac.asarray(arrays[i]) for i in idx)
            rng = np.random.default_rng(7)
            tangents = tuple(ac.asarray(rng.standard_normal(arrays[i].shape)
                                        .astype(arrays[i].dtype)) for i in idx)
            out, jt = ac.func.jvp(f, primals, tangents)
            lhs = float(ac.sum(jt * ga))
            rhs = sum(float(np.sum(np.asarray(t) * gr)) for t, gr in zip(tangents, grads))
            scale = max(1.0, abs(rhs))
            if np.isnan(lhs) and np.isnan(rhs):
                return  # (an infinite derivative, e.g. xlogy at 0, on both sides)
            assert abs(lhs - rhs) <= (rtol * 50) * scale + atol * 50, \
                f"{case.name} jvp: <J t, g> = {lhs} but <t, J^T g> = {rhs}"
        if case.vmap:
            _check_vmap(case, dtype)


def _check_vmap(case, dtype, size=3):
    sets = [draw(case, dtype, seed=s) for s in range(size)]
    base = sets[0]
    dims = case.vmap_dims
    if dims is None:
        dims = tuple(0 if isinstance(a, np.ndarray) else None for a in base)
    stacked = []
    for j, a in enumerate(base):
        if dims[j] is None:
            stacked.append(ac.asarray(a) if isinstance(a, np.ndarray) else a)
        else:
            stacked.append(ac.asarray(np.stack([s[j] for s in sets], axis=dims[j])))
    got = ac.func.vmap(case.ac_fn, in_dims=tuple(dims))(*stacked)
    per = []
    for s in sets:
        one = [s[j] if dims[j] is not None else base[j] for j in range(len(base))]
        per.append(np.asarray(case.ac_fn(*to_ac(one))))
    rtol, atol = tol_for(case, dtype)
    want = np.stack(per)
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol, equal_nan=True,
                               err_msg=f"{case.name} vmap")
