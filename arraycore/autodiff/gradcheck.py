"""L3: `gradcheck` and `gradgradcheck` (torch.autograd.gradcheck's signatures and messages).

The analytical Jacobians (the tape's vjps, and with `check_forward_ad` the jvps of
`func.jvp`) are compared with central finite differences.  Everything is expressed in real
coordinates, which is PyTorch's complex convention written out: a complex input z = x + iy
is perturbed along x and along y, and the Jacobian entry shown for it is
d/dx + i d/dy (the conjugate Wirtinger derivative times 2, what a vjp with a real cotangent
returns); a complex output is checked as its real part (cotangent 1) and its imaginary part
(cotangent 1j) separately, as torch does ("While considering the imaginary part of complex
outputs only, ...").  Jacobians are (input elements, output elements), as in torch.

`fast_mode` is accepted and runs the full (slow-mode) check; `check_undefined_grad` is
accepted (arraycore has no undefined gradients: missing ones are zeros).
"""

from __future__ import annotations

import warnings

from ..native import _native
from . import graph
from .tracer import Tracer

Array = _native.Array
_ARRAYS = (Array, Tracer)


class GradcheckError(RuntimeError):
    """Raised by gradcheck / gradgradcheck when a check fails."""


def _xp():
    import arraycore
    return arraycore


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _requires_grad(x):
    m = getattr(x, "_ad", None)
    return isinstance(x, _ARRAYS) and m is not None and m.requires_grad


def _is_complex(x):
    return x.dtype.kind == "c"


def _flat(x):
    return _xp().reshape(x, (-1,))


def _basis(like, k, scale):
    """An array shaped like `like` with `scale` at flat index k and zeros elsewhere."""
    xp = _xp()
    dt = like.dtype
    if isinstance(scale, complex) and dt.kind != "c":
        dt = xp.complex128 if dt == xp.float64 else xp.complex64
    e = xp.zeros((like.size,), dtype=dt)
    e[k] = scale
    return xp.reshape(e, tuple(like.shape))


def _allclose(a, n, rtol, atol):
    xp = _xp()
    if tuple(a.shape) != tuple(n.shape):
        return False
    if a.size == 0:
        return True
    dt = xp.result_type(a, n)
    a, n = xp.astype(a, dt), xp.astype(n, dt)
    close = xp.abs(a - n) <= atol + rtol * xp.abs(n)
    return bool(xp.all(close | (a == n)))


def _stack_cols(cols, n_rows, dtype):
    """(n_rows, len(cols)) from columns of length n_rows."""
    xp = _xp()
    if not cols:
        return xp.zeros((n_rows, 0), dtype=dtype)
    return xp.stack(cols, axis=1)


def _stack_rows(rows, n_cols, dtype):
    xp = _xp()
    if not rows:
        return xp.zeros((0, n_cols), dtype=dtype)
    return xp.stack(rows, axis=0)


def _part(v, part):
    xp = _xp()
    if v.dtype.kind != "c":
        return v if part == "real" else xp.zeros_like(v)
    return xp.real(v) if part == "real" else xp.imag(v)


# --- numerical Jacobians ------------------------------------------------------------------

def _eval(func, inputs, j, xj):
    """func with input j replaced by xj (a new leaf requiring grad when the original did,
    so functions that differentiate inside, as gradgradcheck's, still work)."""
    args = list(inputs)
    if _requires_grad(inputs[j]):
        xj = xj.requires_grad_()
    args[j] = xj
    outs = _as_tuple(func(*args))
    return [_flat(graph.detach(o)) if isinstance(o, _ARRAYS) and o.dtype.kind in "fc"
            else None for o in outs]


def _check_same(outs1, outs2, j, eps):
    for a, b in zip(outs1, outs2):
        if a is None or b is None:
            continue
        if tuple(a.shape) != tuple(b.shape):
            raise GradcheckError(f"Expected `func` to return outputs with the same shape when "
                                 f"inputs are perturbed on input {j} by {eps}, but got: shapes "
                                 f"{a.shape} and {b.shape}.")
        if a.dtype != b.dtype:
            raise GradcheckError(f"Expected `func` to return outputs with the same dtype when "
                                 f"inputs are perturbed on input {j} by {eps}, but got: dtypes "
                                 f"{a.dtype} and {b.dtype}.")


def _numerical(func, inputs, diff_idx, eps):
    """num[(j, part)] = list over input elements k of the per-output central differences
    (flattened arrays, None for non-float outputs), part "real" (perturbing x) or "imag"
    (perturbing y, complex inputs)."""
    num = {}
    for j in diff_idx:
        x = graph.detach(inputs[j])
        parts = [("real", eps)] + ([("imag", 1j * eps)] if _is_complex(x) else [])
        for part, step in parts:
            cols = []
            for k in range(x.size):
                e = _basis(x, k, step)
                plus = _eval(func, inputs, j, x + e)
                minus = _eval(func, inputs, j, x - e)
                _check_same(plus, minus, j, eps)
                cols.append([None if p is None else (p - m) / (2 * eps)
                             for p, m in zip(plus, minus)])
            num[(j, part)] = cols
    return num


def _numerical_matrix(num, j, part, oi, n_out, dtype):
    """(n_in, n_out) numerical Jacobian of output oi w.r.t. input j, one part of it."""
    return _stack_rows([c[oi] for c in num[(j, part)]], n_out, dtype)


# --- messages -----------------------------------------------------------------------------

def _notallclose_msg(a, n, i, j, complex_prefix=None, forward=False):
    prefix = "" if complex_prefix is None else \
        f"While considering the {complex_prefix[0]} part of complex {complex_prefix[1]} only, "
    mode = "computed with forward mode " if forward else ""
    return (prefix + f"Jacobian {mode}mismatch for output {i:d} with respect to input {j:d},\n"
            f"numerical:{n}\nanalytical:{a}\n")


# --- checks -------------------------------------------------------------------------------

def _analytical_backward(o, diff_inputs, part, check_grad_dtypes):
    """Per diff input, the (n_in, n_out) Jacobian of the real or imaginary part of o."""
    from .tape import grad as tape_grad
    xp = _xp()
    n_out = o.size
    scale = 1.0 if part == "real" else 1j
    cols = [[] for _ in diff_inputs]
    for m in range(n_out):
        g = _basis(o, m, scale)
        gs = tape_grad([o], list(diff_inputs), [g], retain_graph=True, allow_unused=True)
        for c, gi, x in zip(cols, gs, diff_inputs):
            if gi is None:
                gi = xp.zeros_like(graph.detach(x))
            else:
                if tuple(gi.shape) != tuple(x.shape):
                    raise GradcheckError("Analytical gradient has incorrect size")
                if check_grad_dtypes and gi.dtype != x.dtype:
                    raise GradcheckError("Gradient has dtype mismatch")
            c.append(_flat(graph.detach(gi)))
    return [_stack_cols(c, x.size, x.dtype) for c, x in zip(cols, diff_inputs)]


def _check_backward(func_out, diff_outs, inputs, diff_idx, num, rtol, atol, nondet_tol,
                    check_grad_dtypes):
    xp = _xp()
    diff_inputs = [inputs[j] for j in diff_idx]
    # torch's order: the imaginary parts of complex outputs first, then every real part.
    any_complex = any(_is_complex(o) for _, o in diff_outs)
    for part in (["imag"] if any_complex else []) + ["real"]:
        for i, (oi, o) in enumerate(diff_outs):
            if part == "imag" and not _is_complex(o):
                continue
            a1 = _analytical_backward(o, diff_inputs, part, check_grad_dtypes)
            a2 = _analytical_backward(o, diff_inputs, part, check_grad_dtypes)
            for jj, (j, a, b) in enumerate(zip(diff_idx, a1, a2)):
                if a.size and not bool(xp.all(xp.abs(a - b) <= nondet_tol)):
                    raise GradcheckError(
                        "Backward is not reentrant, i.e., running backward with same input "
                        "and grad_output multiple times gives different values, although "
                        "analytical gradient matches numerical gradient.The tolerance for "
                        f"nondeterminism was {nondet_tol}.")
                x = inputs[j]
                n = _part(_numerical_matrix(num, j, "real", oi, o.size, x.dtype), part)
                if _is_complex(x):
                    ni = _part(_numerical_matrix(num, j, "imag", oi, o.size, x.dtype), part)
                    n = n + 1j * ni
                if not _allclose(a, n, rtol, atol):
                    prefix = (_PART_NAME[part], "outputs") if _is_complex(o) else None
                    raise GradcheckError(_notallclose_msg(a, n, i, jj, prefix))


_PART_NAME = {"real": "real", "imag": "imaginary"}


def _jvp_outputs(func, inputs, diff_idx, diff_out_idx, tangents):
    """Tangents of the differentiable outputs (flattened) for input tangents `tangents`."""
    from . import func_api
    primals = tuple(graph.detach(inputs[j]) for j in diff_idx)

    def g(*xs):
        args = list(inputs)
        for j, v in zip(diff_idx, xs):
            # Tape-tracked like the original, for functions that differentiate inside.
            args[j] = v.requires_grad_() if _requires_grad(inputs[j]) else v
        outs = _as_tuple(func(*args))
        return tuple(outs[oi] for oi in diff_out_idx)

    _, touts = func_api.jvp(g, primals, tuple(tangents))
    return [_flat(graph.detach(t)) for t in touts]


def _check_forward(func, diff_outs, inputs, diff_idx, num, rtol, atol):
    xp = _xp()
    diff_out_idx = [oi for oi, _ in diff_outs]
    # torch's order: the imaginary parts of complex inputs first, then every real part.
    any_complex = any(_is_complex(inputs[j]) for j in diff_idx)
    for part in (["imag"] if any_complex else []) + ["real"]:
        scale = 1j if part == "imag" else 1.0
        for jj, j in enumerate(diff_idx):
            x = inputs[j]
            if part == "imag" and not _is_complex(x):
                continue
            rows = [[] for _ in diff_outs]
            for k in range(x.size):
                tangents = [xp.zeros_like(graph.detach(inputs[q])) if q != j else
                            _basis(x, k, scale) for q in diff_idx]
                touts = _jvp_outputs(func, inputs, diff_idx, diff_out_idx, tangents)
                for r, t in zip(rows, touts):
                    r.append(t)
            for i, ((oi, o), r) in enumerate(zip(diff_outs, rows)):
                a = _stack_rows(r, o.size, o.dtype)
                n = _numerical_matrix(num, j, part, oi, o.size, o.dtype)
                if not _allclose(a, n, rtol, atol):
                    prefix = (_PART_NAME[part], "inputs") if _is_complex(x) else None
                    raise GradcheckError(_notallclose_msg(a, n, i, jj, prefix, forward=True))


def _check_no_differentiable_outputs(func_out, num):
    xp = _xp()
    for cols in num.values():
        for c in cols:
            for d in c:
                if d is not None and d.size and not bool(xp.all(d == 0)):
                    raise GradcheckError("Numerical gradient for function expected to be zero")


def _pseudo_random(like, seed):
    """Deterministic values in [-1, 1) shaped like `like` (arraycore has no RNG)."""
    xp = _xp()
    n = like.size
    state = (seed * 2654435761 + 12345) % (1 << 32)
    vals = []
    for _ in range(n * (2 if like.dtype.kind == "c" else 1)):
        state = (1103515245 * state + 12345) % (1 << 31)
        vals.append(state / float(1 << 30) - 1.0)
    if like.dtype.kind == "c":
        vals = [complex(vals[2 * i], vals[2 * i + 1]) for i in range(n)]
    if n == 0:
        return xp.zeros(tuple(like.shape), dtype=like.dtype)
    return xp.reshape(xp.asarray(vals, dtype=like.dtype), tuple(like.shape))


def _check_batched_grad(diff_outs, inputs, diff_idx):
    from .tape import grad as tape_grad
    xp = _xp()
    diff_inputs = [inputs[j] for j in diff_idx]
    for i, (oi, o) in enumerate(diff_outs):
        gos = [_pseudo_random(o, 7 + 13 * i + s) for s in range(2)]
        expected = [tape_grad([o], diff_inputs, [g], retain_graph=True, allow_unused=True,
                              materialize_grads=True) for g in gos]
        try:
            res = tape_grad([o], diff_inputs, [xp.stack(gos)], retain_graph=True,
                            allow_unused=True, is_grads_batched=True)
        except Exception as ex:  # noqa: BLE001 - reported as a gradcheck failure
            raise GradcheckError(f"While computing batched gradients, got: {ex}") from ex
        for jj, r in enumerate(res):
            exp = xp.stack([e[jj] for e in expected])
            if r is None:
                r = xp.zeros_like(exp)
            if not _allclose(graph.detach(r), graph.detach(exp), 1e-5, 1e-8):
                raise GradcheckError(f"For output {i} and input {jj}:\n\nbatched grad "
                                     f"computation failed:\nGot: {r}\n\nExpected: {exp}\n")


def _check_batched_forward_grad(func, diff_outs, inputs, diff_idx):
    from . import func_api
    xp = _xp()
    diff_out_idx = [oi for oi, _ in diff_outs]
    for jj, j in enumerate(diff_idx):
        x = inputs[j]
        ts = [_pseudo_random(x, 29 + 17 * jj + s) for s in range(2)]

        def one(t, j=j):
            tangents = [t if q == j else xp.zeros_like(graph.detach(inputs[q]))
                        for q in diff_idx]
            return tuple(_jvp_outputs(func, inputs, diff_idx, diff_out_idx, tangents))

        expected = [one(t) for t in ts]
        try:
            res = func_api.vmap(one)(xp.stack(ts))
        except Exception as ex:  # noqa: BLE001
            raise GradcheckError(f"While computing batched gradients, got: {ex}") from ex
        for i, r in enumerate(res):
            exp = xp.stack([e[i] for e in expected])
            if not _allclose(r, exp, 1e-5, 1e-8):
                raise GradcheckError(f"For output {i} and input {jj}:\n\nbatched forward grad "
                                     f"computation failed:\nGot: {r}\n\nExpected: {exp}\n")


# --- public -------------------------------------------------------------------------------

def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """Checks the gradients of `func` at `inputs` (those arrays with requires_grad=True)
    against central finite differences; True, or a GradcheckError (False with
    raise_exception=False).  Use float64 / complex128 inputs.

    >>> import arraycore as ac
    >>> x = ac.asarray([0.3, 1.2], dtype=ac.float64); x.requires_grad_()
    >>> ac.autograd.gradcheck(lambda t: ac.sin(t) * t, (x,))
    True
    """
    if not (check_forward_ad or check_backward_ad):
        raise ValueError("Expected at least one of check_forward_ad or check_backward_ad to "
                         "be True")
    if check_batched_grad and not check_backward_ad:
        raise ValueError("Setting check_batched_grad=True requires check_backward_ad to be "
                         "True")
    if check_batched_forward_grad and not check_forward_ad:
        raise ValueError("Setting check_batched_forward_grad=True requires check_forward_ad "
                         "to be True")
    inputs = _as_tuple(inputs)
    diff_idx = [j for j, x in enumerate(inputs) if _requires_grad(x)]
    if not diff_idx:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    xp = _xp()
    for j in diff_idx:
        if inputs[j].dtype not in (xp.float64, xp.complex128):
            warnings.warn(f"Input #{j} requires gradient and is not a double precision "
                          "floating point or complex. This check will likely fail if all the "
                          "inputs are not of double precision floating point or complex. ",
                          stacklevel=2)
    try:
        _gradcheck(func, inputs, diff_idx, eps, atol, rtol, nondet_tol, check_grad_dtypes,
                   check_batched_grad, check_batched_forward_grad, check_forward_ad,
                   check_backward_ad)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def _gradcheck(func, inputs, diff_idx, eps, atol, rtol, nondet_tol, check_grad_dtypes,
               check_batched_grad, check_batched_forward_grad, check_forward_ad,
               check_backward_ad):
    from .grad_mode import enable_grad
    with enable_grad():
        func_out = _as_tuple(func(*inputs))
        diff_outs = [(oi, o) for oi, o in enumerate(func_out) if _requires_grad(o)]
        num = _numerical(func, inputs, diff_idx, eps)
        if not diff_outs:
            _check_no_differentiable_outputs(func_out, num)
            return
        if check_backward_ad:
            _check_backward(func_out, diff_outs, inputs, diff_idx, num, rtol, atol,
                            nondet_tol, check_grad_dtypes)
            if check_batched_grad:
                _check_batched_grad(diff_outs, inputs, diff_idx)
        if check_forward_ad:
            _check_forward(func, diff_outs, inputs, diff_idx, num, rtol, atol)
            if check_batched_forward_grad:
                _check_batched_forward_grad(func, diff_outs, inputs, diff_idx)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False,
                  check_rev_over_rev=True, fast_mode=False, masked=False):
    """Checks second derivatives: gradcheck of (inputs, grad_outputs) -> the gradients of
    func's outputs w.r.t. its inputs requiring grad, computed with create_graph=True.
    Missing grad_outputs are deterministic pseudo-random arrays requiring grad."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise ValueError("Expected at least one of check_fwd_over_rev or check_rev_over_rev "
                         "to be True")
    from .tape import grad as tape_grad
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        from .grad_mode import enable_grad
        with enable_grad():
            outs = [o for o in _as_tuple(func(*inputs)) if _requires_grad(o)]
        grad_outputs = tuple(_pseudo_random(graph.detach(o), 101 + i).requires_grad_()
                             for i, o in enumerate(outs))
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_go = len(grad_outputs)
    diff_idx = [j for j, x in enumerate(inputs) if _requires_grad(x)]

    def new_func(*args):
        input_args = args[:len(args) - n_go]
        gos = args[len(args) - n_go:]
        outs = [o for o in _as_tuple(func(*input_args)) if _requires_grad(o)]
        diff_in = [input_args[j] for j in diff_idx]
        grads = tape_grad(outs, diff_in, list(gos), create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad,
                     check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, fast_mode=fast_mode)


__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]
