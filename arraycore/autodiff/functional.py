"""L3: `autograd.functional` (torch.autograd.functional): jacobian, hessian, vjp, jvp, hvp, vhp.

Built on the tape, as torch's are: the inputs become fresh leaves requiring grad, the
function runs once, and `autograd.grad` gives the products (jvp and hvp by the double
backward trick).  Return structures follow torch: a single array where the inputs (or
outputs) were a single array, tuples where they were tuples (nested for jacobian and
hessian).  `strict=True` raises torch's errors when an output is independent of an input;
`vectorize=True` computes all rows in one batched `autograd.grad` (`is_grads_batched`, i.e.
`func.vmap`); `strategy="forward-mode"` uses `func.jvp` under `func.vmap`.
"""

from __future__ import annotations

from ..native import _native
from . import graph
from .grad_mode import enable_grad, set_grad_enabled
from .state import STATE
from .tracer import Tracer

Array = _native.Array
_ARRAYS = (Array, Tracer)


def _xp():
    import arraycore
    return arraycore


def _requires_grad(x):
    m = getattr(x, "_ad", None)
    return m is not None and m.requires_grad


# --- tuples in and out --------------------------------------------------------------------

def _as_tuple(inp, arg_name, fn_name):
    """(whether inp was a tuple, inp as a tuple of arrays)."""
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, _ARRAYS):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either an Array or "
                                f"a tuple of Arrays but the value at index {i} has type "
                                f"{type(el)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either an Array or a "
                            f"tuple of Arrays but the given {arg_name} has type {type(el)}.")
    return is_tuple, items


def _untuple(res, to_unpack):
    """Undoes _as_tuple on a (possibly nested) result: to_unpack is a bool or a pair of
    bools (outer, inner)."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _new_leaf(x):
    v = graph.detach(x)
    if v is x:  # a view, so the caller's array never gets tape state from us
        v = v._view(v.shape, v._strides, 0) if type(v) is Array else v._fresh()
    return v


def _preprocess(inputs, create_graph, need_graph):
    """Fresh arrays for the inputs: differentiable views of them when create_graph and they
    already require grad (gradients flow back to the caller's graph), else new leaves."""
    xp = _xp()
    res = []
    for x in inputs:
        if create_graph and _requires_grad(x):
            res.append(xp.reshape(x, tuple(x.shape)))
        else:
            v = _new_leaf(x)
            if need_graph:
                v.requires_grad_()
            res.append(v)
    return tuple(res)


def _postprocess(items, create_graph):
    if not items:
        return items
    if isinstance(items[0], (tuple, list)):
        return tuple(_postprocess(el, create_graph) for el in items)
    if create_graph:
        return tuple(items)
    return tuple(graph.detach(v) if v is not None else None for v in items)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but "
                               f"got {len(v)}.")
        raise RuntimeError("The given v should contain a single Array.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if tuple(el_v.shape) != tuple(el_other.shape):
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {tuple(el_other.shape)} "
                               f"but got {tuple(el_v.shape)}.")


# --- strict mode --------------------------------------------------------------------------

def _check_requires_grad(items, kind, strict):
    if not strict:
        return
    for i, x in enumerate(items):
        if x is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if _requires_grad(x):
            continue
        if kind == "hessian":
            raise RuntimeError(f"The hessian of the user-provided function with respect to "
                               f"input {i} is independent of the input. This is not allowed in "
                               "strict mode. You should ensure that your function is thrice "
                               "differentiable and that the hessian depends on the inputs.")
        if kind == "jacobian":
            raise RuntimeError("While computing the hessian, found that the jacobian of the "
                               f"user-provided function with respect to input {i} is "
                               "independent of the input. This is not allowed in strict mode. "
                               "You should ensure that your function is twice differentiable "
                               "and that the jacobian depends on the inputs (this would be "
                               "violated by a linear function for example).")
        if kind == "grad_inputs":
            raise RuntimeError(f"The gradient with respect to input {i} is independent of the "
                               "inputs of the user-provided function. This is not allowed in "
                               "strict mode.")
        raise RuntimeError(f"Output {i} of the user-provided function does not require "
                           "gradients. The outputs must be computed in a differentiable manner "
                           "from the input when running in strict mode.")


_ZERO_MSG = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    xp = _xp()
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_MSG[stage].format(i=i))
            g = xp.zeros_like(graph.detach(refs[i]))
        elif strict and create_graph and not _requires_grad(g):
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        res.append(g)
    return tuple(res)


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None,
          is_grads_batched=False):
    """autograd.grad that skips outputs not requiring grad (None for every input when no
    output does) and allows unused inputs."""
    from .tape import grad as tape_grad
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    outs, gos = [], []
    for o, g in zip(outputs, grad_outputs):
        if o is not None and _requires_grad(o):
            outs.append(o)
            gos.append(g)
    if not outs:
        return (None,) * len(inputs)
    return tape_grad(outs, list(inputs), gos, retain_graph=retain_graph,
                     create_graph=create_graph, allow_unused=True,
                     is_grads_batched=is_grads_batched)


def _need_v(v, items, what):
    if v is None and (len(items) != 1 or items[0].size != 1):
        raise RuntimeError(f"The vector v can only be None if {what} a single Array with a "
                           "single element.")


# --- public -------------------------------------------------------------------------------

def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at `inputs`.

    >>> ac.autograd.functional.vjp(lambda x: ac.sum(ac.exp(x), axis=1), x, v)
    """
    with enable_grad():
        is_in_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _preprocess(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        is_out_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                          "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _preprocess(v, create_graph, need_graph=False)
            _validate_v(v, outputs, is_out_tuple)
        else:
            _need_v(v, outputs, "the user-provided function returns")
    with set_grad_enabled(True if create_graph else STATE.grad_enabled):
        res = _grad(outputs, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "back")
    return (_untuple(_postprocess(outputs, create_graph), is_out_tuple),
            _untuple(_postprocess(res, create_graph), is_in_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double backward trick (as
    torch's; `arraycore.func.jvp` is the direct forward mode)."""
    xp = _xp()
    with enable_grad():
        is_in_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _preprocess(inputs, create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
            v = _preprocess(v, create_graph, need_graph=False)
            _validate_v(v, inputs, is_in_tuple)
        else:
            _need_v(v, inputs, "the input to the user-provided function is")
        outputs = func(*inputs)
        is_out_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                          "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        grad_outputs = tuple(xp.zeros_like(graph.detach(o)).requires_grad_()
                             if o.dtype.kind in "fc" else xp.zeros_like(graph.detach(o))
                             for o in outputs)
        grad_inputs = _grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(True if create_graph else STATE.grad_enabled):
        res = _grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, outputs, strict, create_graph, "back_trick")
    return (_untuple(_postprocess(outputs, create_graph), is_out_tuple),
            _untuple(_postprocess(res, create_graph), is_out_tuple))


def _standard_basis(items, dtype_of):
    """One (total, numel_i) block per item: together the identity of size total."""
    xp = _xp()
    sizes = [x.size for x in items]
    total = sum(sizes)
    blocks, start = [], 0
    for x, n in zip(items, sizes):
        eye = xp.eye(total, n, k=-start, dtype=dtype_of(x))
        blocks.append(eye)
        start += n
    return blocks, sizes


def _jacfwd(func, inputs, strict, vectorize):
    from . import func_api
    xp = _xp()
    if strict:
        raise RuntimeError('arraycore.autograd.functional.jacobian: `strict=True` and '
                           '`strategy="forward-mode"` are not supported together (yet). Please '
                           'either set `strict=False` or `strategy="reverse-mode"`.')
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian is only implemented for `vectorize=True`.")
    is_in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    primals = tuple(graph.detach(x) for x in inputs)
    blocks, sizes = _standard_basis(inputs, lambda x: x.dtype)
    info = {}

    def one(*ts):
        tangents = tuple(xp.reshape(t, tuple(x.shape)) for t, x in zip(ts, inputs))

        def f(*xs):
            out = func(*xs)
            info["is_tuple"], outs = _as_tuple(out, "outputs of the user-provided function",
                                               "jacobian")
            return outs
        outs, touts = func_api.jvp(f, primals, tangents)
        info["outs"] = [tuple(o.shape) for o in outs]
        return tuple(touts)

    cols = func_api.vmap(one)(*blocks)  # per output: (total, *out_shape)
    jac = []
    for c, oshape in zip(cols, info["outs"]):
        row, start = [], 0
        for x, n in zip(inputs, sizes):
            part = c[start:start + n]
            start += n
            part = xp.moveaxis(part, 0, -1) if part.ndim > 1 else part
            row.append(xp.reshape(part, oshape + tuple(x.shape)))
        jac.append(tuple(row))
    return _untuple(tuple(jac), (info["is_tuple"], is_in_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of func at inputs: shape output.shape + input.shape; a tuple over inputs
    and/or outputs where those are tuples (jac[i][j]: output i, input j)."""
    xp = _xp()
    if strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                         'Hint: If your function has more outputs than inputs, "forward-mode" '
                         'tends to be more performant. Otherwise, prefer to use '
                         '"reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                'arraycore.autograd.functional.jacobian: `create_graph=True` and '
                '`strategy="forward-mode"` are not supported together (yet). Please either '
                'set `create_graph=False` or `strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    with enable_grad():
        is_in_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _preprocess(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        is_out_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function",
                                          "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize:
            if strict:
                raise RuntimeError("arraycore.autograd.functional.jacobian: `strict=True` and "
                                   "`vectorized=True` are not supported together. Please "
                                   "either set `strict=False` or `vectorize=False`.")
            blocks, sizes = _standard_basis(outputs, lambda o: o.dtype)
            flat = tuple(xp.reshape(o, (-1,)) for o in outputs)
            total = sum(sizes)
            vj = list(_grad(flat, inputs, tuple(blocks), create_graph=create_graph,
                            is_grads_batched=True))
            for k, g in enumerate(vj):
                if g is None:
                    vj[k] = xp.zeros((total,) + tuple(inputs[k].shape), dtype=inputs[k].dtype)
            jac = []
            for o_idx, o in enumerate(outputs):
                start = sum(sizes[:o_idx])
                jac.append(tuple(
                    xp.reshape(g[start:start + sizes[o_idx]], tuple(o.shape) + tuple(x.shape))
                    for g, x in zip(vj, inputs)))
            return _untuple(_postprocess(tuple(jac), create_graph),
                            (is_out_tuple, is_in_tuple))
        jac = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = xp.reshape(out, (-1,))
            for m in range(out.size):
                e = flat[m]
                # An explicit unit cotangent: the tape creates implicit ones for real
                # scalars only (PyTorch); a complex output's rows are vjps of real units.
                vj = _grad((e,), inputs, (xp.ones_like(graph.detach(e)),),
                           retain_graph=True, create_graph=create_graph)
                for k, (r, g, x) in enumerate(zip(rows, vj, inputs)):
                    if g is not None:
                        if strict and create_graph and not _requires_grad(g):
                            raise RuntimeError(
                                "The jacobian of the user-provided function is independent of "
                                f"input {i}. This is not allowed in strict mode when "
                                "create_graph=True.")
                        r.append(g)
                    else:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {k}. This is not allowed in strict mode.")
                        r.append(xp.zeros_like(graph.detach(x)))
            jac.append(tuple(
                xp.reshape(xp.stack(r), tuple(out.shape) + tuple(x.shape)) if r else
                xp.zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype)
                for r, x in zip(rows, inputs)))
        return _untuple(_postprocess(tuple(jac), create_graph), (is_out_tuple, is_in_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a function with one scalar output: a single array for a single input,
    else a tuple of tuples (hess[i][j]: inputs i and j)."""
    is_in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    xp = _xp()

    def scalar_output(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function",
                                        "hessian")
        _check_requires_grad(t_out, "outputs", strict)
        if is_out_tuple or not isinstance(out, _ARRAYS):
            raise RuntimeError("The function given to hessian should return a single Array")
        if out.size != 1:
            raise RuntimeError("The Array returned by the function given to hessian should "
                               "contain a single element")
        return xp.reshape(out, ())

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_() for t in inp)
        jac = jacobian(scalar_output, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _untuple(res, (is_in_tuple, is_in_tuple))


def _scalar_output_checks(outputs, is_out_tuple, fn_name):
    if is_out_tuple or not isinstance(outputs[0], _ARRAYS):
        raise RuntimeError(f"The function given to {fn_name} should return a single Array")
    if outputs[0].size != 1:
        raise RuntimeError(f"The Array returned by the function given to {fn_name} should "
                           "contain a single element")


def _first_derivative(func, inputs, v, create_graph, strict, who):
    """The common start of vhp and hvp (call with grad enabled): checked inputs and v, the
    scalar output, and its gradient recorded for differentiating again."""
    is_in_tuple, inputs = _as_tuple(inputs, "inputs", who)
    inputs = _preprocess(inputs, create_graph, need_graph=True)
    if v is not None:
        _, v = _as_tuple(v, "v", who)
        v = _preprocess(v, create_graph, need_graph=False)
        _validate_v(v, inputs, is_in_tuple)
    else:
        _need_v(v, inputs, "the input to the user-provided function is")
    outputs = func(*inputs)
    is_out_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", who)
    _check_requires_grad(outputs, "outputs", strict)
    _scalar_output_checks(outputs, is_out_tuple, who)
    jac = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return is_in_tuple, inputs, v, is_out_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function with one scalar output."""
    with enable_grad():
        is_in_tuple, inputs, v, is_out_tuple, outputs, jac = _first_derivative(
            func, inputs, v, create_graph, strict, "vhp")
    with set_grad_enabled(True if create_graph else STATE.grad_enabled):
        res = _grad(jac, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back")
    return (_untuple(_postprocess(outputs, create_graph), is_out_tuple),
            _untuple(_postprocess(res, create_graph), is_in_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function with one scalar output (double backward trick)."""
    xp = _xp()
    with enable_grad():
        is_in_tuple, inputs, v, is_out_tuple, outputs, jac = _first_derivative(
            func, inputs, v, create_graph, strict, "hvp")
        grad_jac = tuple(xp.zeros_like(graph.detach(x)).requires_grad_() for x in inputs)
        double_back = _grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(True if create_graph else STATE.grad_enabled):
        res = _grad(double_back, grad_jac, v, create_graph=create_graph)
        res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back_trick")
    return (_untuple(_postprocess(outputs, create_graph), is_out_tuple),
            _untuple(_postprocess(res, create_graph), is_in_tuple))


__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]
