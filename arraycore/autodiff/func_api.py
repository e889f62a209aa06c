"""L3: the composable transforms of `arraycore.func` (torch.func / JAX names and signatures).

Each transform enters a new level (an interpreter, dispatch.py), wraps its inputs as that
level's tracers, runs the function, and unwraps the outputs when the level exits.  The
composite transforms are compositions, as in JAX and torch.func: `jacrev` is `vmap` of a
`vjp` over the rows of an identity, `jacfwd` is `vmap` of a `jvp` over its columns,
`hessian` is `jacfwd(jacrev(f))`.
"""

from __future__ import annotations

import functools

from ..native import _native
from . import graph
from . import pytree as pt
from .batching import BatchInterpreter, BatchTracer
from .jvp import JVPInterpreter, JVPTracer
from .reverse import GradInterpreter, GradTracer, level_backward
from .tracer import Tracer

Array = _native.Array
_ns = None


def _ns_():
    global _ns
    if _ns is None:
        import arraycore
        _ns = arraycore
    return _ns


def _is_array(v):
    return isinstance(v, (Array, Tracer))


def _argnums_tuple(argnums, n, who):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)
    if not nums:
        raise ValueError(f"{who}: argnums must be non-empty")
    out = []
    for a in nums:
        if not isinstance(a, int):
            raise TypeError(f"{who}: argnums must be an int or a tuple of ints, got {a!r}")
        if not -n <= a < n:
            raise ValueError(f"{who}: got argnums={argnums} but only {n} positional "
                             "arguments")
        out.append(a % n)
    return tuple(out), single


def _check_leaves(leaves, who):
    for v in leaves:
        if not _is_array(v):
            raise TypeError(f"{who}: expected arrays as the differentiated inputs, got "
                            f"{type(v).__name__}")


def _resolve_promoted(v):
    p = getattr(v, "_promoted", None) if type(v) is Array else None
    return p if p is not None else v


# --- reverse mode -------------------------------------------------------------------------

def _unwrap_grad(it, v):
    if type(v) is Array:
        v = _resolve_promoted(v)
    if isinstance(v, GradTracer) and v._interp is it:
        return v.primal
    return v


def _run_vjp_level(f, args, argnums, has_aux, who):
    """Runs f at a new reverse-mode level: (level, input leaves, input spec, outputs, aux)."""
    it = GradInterpreter()
    args = list(args)
    with it:
        in_leaves, in_specs = [], []
        for a in argnums:
            v = args[a]
            if type(v) is Array:  # one plain array: no tree to walk
                w = args[a] = it.new_leaf(v)
                in_leaves.append([w])
                in_specs.append(pt.LEAF)
                continue
            leaves, spec = pt.flatten(v)
            _check_leaves(leaves, who)
            wrapped = [it.new_leaf(v) for v in leaves]
            in_leaves.append(wrapped)
            in_specs.append(spec)
            args[a] = pt.unflatten(spec, wrapped)
        out = f(*args)
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError(f"{who}(f, has_aux=True): f must return a (output, aux) "
                                   "tuple")
            out, aux = out
    return it, in_leaves, in_specs, out, aux


def _backward_level(it, out_leaves, seeds, in_leaves, retain_graph):
    roots, root_seeds = [], []
    for o, s in zip(out_leaves, seeds):
        if s is None:
            continue
        if type(o) is Array:
            o = _resolve_promoted(o)
        if isinstance(o, GradTracer) and o._interp is it and o.meta is not None:
            roots.append(o.meta.edge())
            root_seeds.append(s)
    flat_in = in_leaves[0] if len(in_leaves) == 1 else [v for g in in_leaves for v in g]
    if not roots:
        cts = [None] * len(flat_in)
    else:
        cts = level_backward(roots, root_seeds, [v.meta.edge() for v in flat_in],
                             retain_graph)
    for i, ct in enumerate(cts):
        if ct is None:
            cts[i] = _ns_().zeros_like(flat_in[i].primal)
    return cts


def _drop_leaf_nodes(in_leaves):
    """Unlinks the input leaves' AccumulateGrad nodes once the level's backward passes are
    over (leaf meta and node point at each other: a cycle left to the garbage collector,
    whose full collections cost milliseconds in a process with many objects)."""
    for group in in_leaves:
        for v in group:
            if v.meta is not None:
                v.meta._accumulate = None


def _regroup(flat, in_leaves, in_specs):
    res, k = [], 0
    for group, spec in zip(in_leaves, in_specs):
        res.append(pt.unflatten(spec, flat[k:k + len(group)]))
        k += len(group)
    return res


def grad_and_value(func, argnums=0, has_aux=False):
    """func.grad_and_value: (gradient, value) of a function with one scalar output."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        f = functools.partial(func, **kwargs) if kwargs else func
        nums, single = _argnums_tuple(argnums, len(args), "grad")
        it, in_leaves, in_specs, out, aux = _run_vjp_level(f, args, nums, has_aux, "grad")
        if not _is_array(_resolve_promoted(out)):
            raise RuntimeError(f"grad: expected f to return an array, got "
                               f"{type(out).__name__}")
        o = _resolve_promoted(out)
        if o.ndim != 0:
            raise RuntimeError(f"grad: expected f(*args) to return a scalar (0-d) array, "
                               f"got shape {o.shape}")
        if o.dtype.kind == "c":
            # torch.func.grad and jax.grad refuse complex outputs: the gradient of a complex
            # function is not defined by one cotangent (take the real part, abs, ...).
            name = getattr(func, "__qualname__", None) or type(func).__name__
            raise RuntimeError(f"grad: expected {name}(*args) to return a real scalar, got "
                               f"a complex one ({o.dtype}); differentiate a real function "
                               "of it instead (e.g. its real part or abs)")
        value = _unwrap_grad(it, o)
        ns = _ns_()
        cts = _backward_level(it, [o], [ns.ones_like(value)], in_leaves, retain_graph=False)
        _drop_leaf_nodes(in_leaves)
        grads = _regroup(cts, in_leaves, in_specs)
        g = grads[0] if single else tuple(grads)
        if has_aux:
            aux = pt.tree_map(lambda v: _unwrap_grad(it, v), aux)
            return g, (value, aux)
        return g, value

    return wrapper


def grad(func, argnums=0, has_aux=False):
    """func.grad: the gradient of a function with one scalar output.

    >>> import arraycore as ac
    >>> ac.func.grad(lambda x: ac.sum(ac.sin(x)))(ac.asarray([0.0, 1.0]))
    """
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, v = gv(*args, **kwargs)
        if has_aux:
            return g, v[1]
        return g

    return wrapper


def vjp(func, *primals, has_aux=False):
    """func.vjp: (output, vjp_fn) or (output, vjp_fn, aux)."""
    nums = tuple(range(len(primals)))
    it, in_leaves, in_specs, out, aux = _run_vjp_level(func, primals, nums, has_aux, "vjp")
    out_leaves, out_spec = pt.flatten(out)
    value = pt.unflatten(out_spec, [_unwrap_grad(it, v) for v in out_leaves])

    def vjp_fn(*cotangents):
        ct = cotangents[0] if len(cotangents) == 1 else cotangents
        ct_leaves, ct_spec = pt.flatten(ct)
        if len(ct_leaves) != len(out_leaves):
            raise RuntimeError(f"vjp_fn: expected cotangents with the structure of the "
                               f"output ({len(out_leaves)} arrays), got {len(ct_leaves)}")
        for o, c in zip(out_leaves, ct_leaves):
            if c is not None and tuple(c.shape) != tuple(o.shape):
                raise RuntimeError(f"vjp_fn: cotangent of shape {c.shape} for an output of "
                                   f"shape {o.shape}")
        cts = _backward_level(it, out_leaves, ct_leaves, in_leaves, retain_graph=True)
        return tuple(_regroup(cts, in_leaves, in_specs))

    if has_aux:
        return value, vjp_fn, pt.tree_map(lambda v: _unwrap_grad(it, v), aux)
    return value, vjp_fn


# --- forward mode -------------------------------------------------------------------------

def _unwrap_jvp(it, v, want_tangent):
    v = _resolve_promoted(v)
    if isinstance(v, JVPTracer) and v._interp is it:
        if want_tangent:
            return v.tangent if v.tangent is not None else _ns_().zeros_like(v.primal)
        return v.primal
    if want_tangent:
        return _ns_().zeros_like(v) if _is_array(v) else None
    return v


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """func.jvp: (output, jvp_out) (and aux) for primals and tangents of the same structure."""
    if not isinstance(primals, tuple) or not isinstance(tangents, tuple):
        raise RuntimeError("jvp: expected primals and tangents to be tuples")
    p_leaves, p_spec = pt.flatten(primals)
    t_leaves, t_spec = pt.flatten(tangents)
    if len(p_leaves) != len(t_leaves):
        raise RuntimeError("jvp: primals and tangents must have the same structure")
    _check_leaves(p_leaves, "jvp")
    for p, t in zip(p_leaves, t_leaves):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError(f"jvp: tangent of shape {t.shape} for a primal of shape "
                               f"{p.shape}")
    it = JVPInterpreter()
    with it:
        args = pt.unflatten(p_spec, [it.lift(p, t) for p, t in zip(p_leaves, t_leaves)])
        out = func(*args)
        aux = None
        if has_aux:
            out, aux = out
    o_leaves, o_spec = pt.flatten(out)
    value = pt.unflatten(o_spec, [_unwrap_jvp(it, v, False) for v in o_leaves])
    tangent = pt.unflatten(o_spec, [_unwrap_jvp(it, v, True) for v in o_leaves])
    if has_aux:
        return value, tangent, pt.tree_map(lambda v: _unwrap_jvp(it, v, False), aux)
    return value, tangent


def linearize(func, *primals):
    """func.linearize: (output, jvp_fn) where jvp_fn(*tangents) is the jvp at `primals`."""
    value = func(*primals)

    def jvp_fn(*tangents):
        return jvp(func, primals, tangents)[1]

    return value, jvp_fn


# --- vmap ---------------------------------------------------------------------------------

def _dims_for(in_dims, args, who):
    """One batch dim (or None) per leaf of args, from an int/None or a prefix tree."""
    out = []
    if isinstance(in_dims, int) or in_dims is None:
        for a in args:
            out.extend([in_dims] * len(pt.flatten(a)[0]))
        return out
    if not isinstance(in_dims, (tuple, list)) or len(in_dims) != len(args):
        raise ValueError(f"{who}: in_dims must be an int, None, or a tuple with one entry per "
                         f"positional argument ({len(args)}), got {in_dims!r}")
    for d, a in zip(in_dims, args):
        out.extend(_prefix_dims(d, a, who))
    return out


def _prefix_dims(d, a, who):
    if isinstance(d, int) or d is None:
        return [d] * len(pt.flatten(a)[0])
    if type(d) is dict:
        if type(a) is not dict or set(d) != set(a):
            raise ValueError(f"{who}: in_dims {d!r} does not match the argument's structure")
        res = []
        for k in sorted(a, key=repr):
            res.extend(_prefix_dims(d[k], a[k], who))
        return res
    if isinstance(d, (tuple, list)):
        if not isinstance(a, (tuple, list)) or len(a) != len(d):
            raise ValueError(f"{who}: in_dims {d!r} does not match the argument's structure")
        res = []
        for dd, aa in zip(d, a):
            res.extend(_prefix_dims(dd, aa, who))
        return res
    raise ValueError(f"{who}: in_dims entries must be ints, None or trees of them, got {d!r}")


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """func.vmap: maps func over a batch axis of its inputs, as one batched computation."""
    if randomness not in ("error", "different", "same"):
        raise ValueError(f"vmap: randomness must be 'error', 'different' or 'same', got "
                         f"{randomness!r}")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        leaves, spec = pt.flatten(args)
        dims = _dims_for(in_dims, args, "vmap")
        size = None
        norm = []
        for v, d in zip(leaves, dims):
            if d is None:
                norm.append(None)
                continue
            if not _is_array(v):
                raise ValueError(f"vmap: in_dim {d} given for a non-array argument "
                                 f"{type(v).__name__}")
            nd = v.ndim
            if not -nd <= d < nd:
                raise ValueError(f"vmap: in_dim {d} out of range for an input of "
                                 f"{nd} dimension(s)")
            d %= nd
            norm.append(d)
            n = v.shape[d]
            if size is None:
                size = n
            elif n != size:
                raise ValueError(f"vmap: expected all batched inputs to have the same size "
                                 f"along their batch dims, got {size} and {n}")
        if size is None:
            raise ValueError("vmap: at least one input must be batched (in_dims all None)")
        return _vmap_run(func, kwargs, leaves, spec, norm, size, out_dims, randomness,
                         chunk_size)

    return wrapper


def _vmap_run(func, kwargs, leaves, spec, norm, size, out_dims, randomness, chunk_size):
    """vmap of func over validated, flattened inputs (leaves with batch dims `norm`, None
    for unbatched), in chunks when chunk_size asks for them."""
    if chunk_size is None:
        return _vmap_once(func, kwargs, leaves, spec, norm, size, out_dims, randomness)
    ns = _ns_()
    parts = []
    first = 0
    if chunk_size == "auto":
        # Probe one example, then size the chunks from its outputs (memory.py).
        sub = [v if d is None else _take_range(ns, v, d, 0, 1)
               for v, d in zip(leaves, norm)]
        probe = _vmap_once(func, kwargs, sub, spec, norm, 1, out_dims, randomness)
        from .memory import chunk_for, nbytes
        cs = chunk_for(nbytes(pt.flatten(probe)[0]), size)
        if size == 1:
            return probe
        parts.append(probe)
        first = 1
    else:
        cs = _chunk(chunk_size, size, leaves, norm)
    if not parts and cs >= size:
        return _vmap_once(func, kwargs, leaves, spec, norm, size, out_dims, randomness)
    for start in range(first, size, cs):
        stop = min(size, start + cs)
        sub = [v if d is None else _take_range(ns, v, d, start, stop)
               for v, d in zip(leaves, norm)]
        parts.append(_vmap_once(func, kwargs, sub, spec, norm, stop - start, out_dims,
                                randomness))
    return _concat_chunks(ns, parts, out_dims)


def _take_range(ns, v, d, start, stop):
    key = (slice(None),) * d + (slice(start, stop),)
    return v[key]


def _concat_chunks(ns, parts, out_dims):
    leaves0, spec = pt.flatten(parts[0])
    all_leaves = [pt.flatten(p)[0] for p in parts]
    od = _out_dims_list(out_dims, parts[0], len(leaves0))
    # An output with out_dim None is the same (unbatched) value in every chunk: keep one.
    res = [leaves0[i] if od[i] is None else
           ns.concat([pl[i] for pl in all_leaves], axis=od[i]) for i in range(len(leaves0))]
    return pt.unflatten(spec, res)


def _chunk(chunk_size, size, leaves, dims):
    if chunk_size is None:
        return None
    if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
        raise ValueError(f"vmap: chunk_size must be None, 'auto' or a positive int, got "
                         f"{chunk_size!r}")
    return chunk_size


def _out_dims_list(out_dims, out, n):
    """One out_dim (int or None) per array leaf of the output `out`, from an int, None, or a
    prefix tree of the output's structure (None entries kept: an unbatched output)."""
    if isinstance(out_dims, int) or out_dims is None:
        return [out_dims] * n
    if isinstance(out_dims, (tuple, list)) and len(out_dims) == 1 and n == 1 \
            and not isinstance(out, (tuple, list)):
        out_dims = out_dims[0]  # out_dims=(0,) for a function returning one array
        if isinstance(out_dims, int) or out_dims is None:
            return [out_dims]
    try:
        res = _prefix_out_dims(out_dims, out)
    except ValueError:
        res = None
    if res is None or len(res) != n:
        raise ValueError(f"vmap: out_dims {out_dims!r} does not match the output's "
                         f"structure ({n} arrays)")
    return res


def _prefix_out_dims(d, o):
    if isinstance(d, int) or d is None:
        return [d] * len(pt.flatten(o)[0])
    if type(d) is dict:
        if type(o) is not dict or set(d) != set(o):
            raise ValueError
        res = []
        for k in sorted(o, key=repr):
            res.extend(_prefix_out_dims(d[k], o[k]))
        return res
    if isinstance(d, (tuple, list)):
        if not isinstance(o, (tuple, list)) or len(o) != len(d):
            raise ValueError
        res = []
        for dd, oo in zip(d, o):
            res.extend(_prefix_out_dims(dd, oo))
        return res
    raise ValueError


def _vmap_once(func, kwargs, leaves, spec, dims, size, out_dims, randomness):
    it = BatchInterpreter(size, randomness)
    with it:
        wrapped = [v if d is None else BatchTracer(it, v, d) for v, d in zip(leaves, dims)]
        out = func(*pt.unflatten(spec, wrapped), **kwargs)
    if type(out_dims) is int:
        # The common cases: one batched array, or a tuple of them.
        if type(out) is BatchTracer and out._interp is it:
            val = out.value
            od = out_dims % val.ndim
            return val if out.bdim == od else _ns_().moveaxis(val, out.bdim, od)
        if type(out) is tuple:
            res = []
            for v in out:
                if type(v) is not BatchTracer or v._interp is not it:
                    break
                val = v.value
                od = out_dims % val.ndim
                res.append(val if v.bdim == od else _ns_().moveaxis(val, v.bdim, od))
            else:
                return tuple(res)
    o_leaves, o_spec = pt.flatten(out)
    ods = _out_dims_list(out_dims, out, len(o_leaves))
    ns = _ns_()
    res = []
    for v, od in zip(o_leaves, ods):
        v = _resolve_promoted(v)
        if isinstance(v, BatchTracer) and v._interp is it:
            if od is None:
                raise ValueError("vmap: out_dims=None for an output that depends on the "
                                 "batched inputs")
            val = v.value
            od = od % val.ndim
            res.append(val if v.bdim == od else ns.moveaxis(val, v.bdim, od))
        elif _is_array(v):
            if od is None:
                res.append(v)
            else:
                b = ns.broadcast_to(ns.expand_dims(v, axis=0), (size,) + tuple(v.shape))
                res.append(b if od == 0 else ns.moveaxis(b, 0, od % b.ndim))
        else:
            if od is not None and v is not None:
                raise ValueError(f"vmap: function returned a {type(v).__name__}; only arrays "
                                 "can be batched outputs (use out_dims=None)")
            res.append(v)
    return pt.unflatten(o_spec, res)


# --- Jacobians and Hessians ---------------------------------------------------------------

_ONE_ARG = pt._flat_tuple_spec(1)  # the spec of `(x,)`


def _basis(ns, like):
    """The identity as a batch of `like`-shaped arrays, (n, *like.shape), built natively."""
    n = like.size
    eye = _native.eye(n, n, 0, like.dtype.code)
    if like.ndim == 1:
        return eye
    return ns.reshape(eye, (n,) + tuple(like.shape))


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """func.jacrev: the Jacobian by reverse mode: one forward pass, then the vjp of the
    whole identity basis of each output as one batched backward pass (vmap of the vjp); a
    scalar output needs one plain backward pass."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        f = functools.partial(func, **kwargs) if kwargs else func
        nums, single = _argnums_tuple(argnums, len(args), "jacrev")
        it, in_leaves, in_specs, out, aux = _run_vjp_level(f, args, nums, has_aux, "jacrev")
        o_leaves, o_spec = pt.flatten(out)
        ns = _ns_()
        n_out = len(o_leaves)
        per_out = []
        for k, o in enumerate(o_leaves):
            val = _unwrap_grad(it, o)
            if val.ndim == 0:
                seeds = [None] * n_out
                seeds[k] = ns.ones_like(val)
                jacs = _backward_level(it, o_leaves, seeds, in_leaves, retain_graph=True)
            else:
                def row(ct, k=k):
                    seeds = [None] * n_out
                    seeds[k] = ct
                    return tuple(_backward_level(it, o_leaves, seeds, in_leaves,
                                                 retain_graph=True))
                basis = _basis(ns, val)
                rows = _vmap_run(row, {}, [basis], _ONE_ARG, [0], basis.shape[0], 0,
                                 "error", chunk_size)
                if val.ndim == 1:
                    jacs = list(rows)
                else:
                    vs = tuple(val.shape)
                    jacs = [ns.reshape(r, vs + tuple(r.shape[1:])) for r in rows]
            groups = _regroup(jacs, in_leaves, in_specs)
            per_out.append(groups[0] if single else tuple(groups))
        _drop_leaf_nodes(in_leaves)
        result = pt.unflatten(o_spec, per_out)
        if has_aux:
            return result, pt.tree_map(lambda v: _unwrap_grad(it, v), aux)
        return result

    return wrapper


def _jvp_tangents(func, primals, tangents, has_aux=False):
    """The output tangents of func at primals (tangent None: a symbolic zero), no checks."""
    it = JVPInterpreter()
    with it:
        out = func(*[it.lift(p, t) for p, t in zip(primals, tangents)])
        if has_aux:
            out = out[0]
    if type(out) is JVPTracer and out._interp is it and out.tangent is not None:
        return out.tangent
    o_leaves, o_spec = pt.flatten(out)
    return pt.unflatten(o_spec, [_unwrap_jvp(it, v, True) for v in o_leaves])


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error", chunk_size=None):
    """func.jacfwd: the Jacobian by forward mode: the jvp of the identity basis of each
    input as one batched forward pass (vmap of the jvp), columns coming out last."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        f = functools.partial(func, **kwargs) if kwargs else func
        nums, single = _argnums_tuple(argnums, len(args), "jacfwd")
        ns = _ns_()
        specs, groups = [], []
        for a in nums:
            leaves, spec = pt.flatten(args[a])
            _check_leaves(leaves, "jacfwd")
            specs.append(spec)
            groups.append(leaves)
        flat_in = [v for g in groups for v in g]
        n_in = len(flat_in)

        if len(nums) == 1 and specs[0] is pt.LEAF:
            a0 = nums[0]

            def f_flat(x):
                new = list(args)
                new[a0] = x
                return f(*new)
        else:
            def f_flat(*flat):
                new = list(args)
                k = 0
                for a, spec, g in zip(nums, specs, groups):
                    new[a] = pt.unflatten(spec, list(flat[k:k + len(g)]))
                    k += len(g)
                return f(*new)

        cols_per_input = []
        out_spec = None
        value = aux = None
        for i, x in enumerate(flat_in):
            def col(t, i=i):
                tangents = [None] * n_in
                tangents[i] = t
                return _jvp_tangents(f_flat, flat_in, tangents, has_aux)
            basis = _basis(ns, x)
            # out_dims=-1: each output's columns come out as its last axis.
            cols = _vmap_run(col, {}, [basis], _ONE_ARG, [0], basis.shape[0], -1,
                             randomness, chunk_size)
            c_leaves, out_spec = pt.flatten(cols)
            cols_per_input.append(c_leaves)
        if has_aux or out_spec is None:
            r = jvp(f_flat, tuple(flat_in), tuple(ns.zeros_like(v) for v in flat_in),
                    has_aux=has_aux)
            value = r[0]
            if has_aux:
                aux = r[2]
            if out_spec is None:
                out_spec = pt.flatten(value)[1]
        n_out = len(cols_per_input[0]) if cols_per_input else 0
        per_out = []
        for k in range(n_out):
            jacs = []
            for i, x in enumerate(flat_in):
                c = cols_per_input[i][k]  # (*out_shape, n_i)
                if x.ndim != 1:
                    c = ns.reshape(c, tuple(c.shape[:-1]) + tuple(x.shape))
                jacs.append(c)
            grouped, pos = [], 0
            for spec, g in zip(specs, groups):
                grouped.append(pt.unflatten(spec, jacs[pos:pos + len(g)]))
                pos += len(g)
            per_out.append(grouped[0] if single else tuple(grouped))
        result = pt.unflatten(out_spec, per_out)
        if has_aux:
            return result, aux
        return result

    return wrapper


def hessian(func, argnums=0):
    """func.hessian: jacfwd(jacrev(func))."""
    return jacfwd(jacrev(func, argnums), argnums)


__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "vmap", "jacrev", "jacfwd",
           "hessian"]
