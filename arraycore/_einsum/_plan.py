"""einsum's plan: from the labels and the operands' shapes, the steps that compute the
result with namespace operations (no data is touched here; plans are cached per
subscripts, shapes and `optimize`).

1. Each operand alone (`Unary`): the diagonal of every label it repeats (`'ii->i'`); its
   size-1 dimensions whose label is longer in another operand dropped (NumPy's broadcasting
   of a size-1 dimension: such an operand does not depend on the label); the sum over
   labels that no other operand and not the output has.
2. The operands contracted two at a time (`Pair`), in the order `optimize` picks
   (`contraction_order`).  A pair with labels in common that the rest no longer needs is one
   `matmul`: each operand permuted to (batch..., free..., contracted...) and its free and
   contracted labels merged into one dimension each (views when the strides allow;
   transposed operands go to BLAS as they are).  A pair with nothing to contract is a
   broadcast `multiply`.
3. The last result permuted into the output's order (the last pair is laid out in that
   order when it can be, so the result is usually contiguous, not a transposed view).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Optional, Tuple

from ._parse import expand

# Batched dot products (one number per batch entry) of at most this many terms are a
# multiply and a matmul by a vector of ones rather than a batched matmul; sums over at most
# this many elements take that matmul too on plain arrays (see SHORT_SUM in __init__.py).
DOT_MAX_K = 256


@dataclass(frozen=True)
class Unary:
    # per repeated label: the permutation that puts its two axes last (None: they are)
    diagonals: Tuple[Optional[Tuple[int, ...]], ...]
    squeeze: Optional[Tuple[int, ...]]  # the shape without size-1 axes broadcast elsewhere
    sum_axes: Tuple[int, ...]           # axes summed (labels no one else needs)
    sum_perm: Optional[Tuple[int, ...]]  # kept axes first, summed ones last (None: they are)
    sum_rows: Tuple[int, int]           # (kept size, summed size): the sum as a matrix's rows
    kept_shape: Tuple[int, ...]         # the shape after the sum


@dataclass(frozen=True)
class Pair:
    i: int  # the two operands' positions in the current list (the result is appended)
    j: int
    kind: str  # "matmul", "multiply" (broadcast), or "dot" (multiply, sum the last axis)
    perm_a: Optional[Tuple[int, ...]]  # None: already in order
    shape_a: Optional[Tuple[int, ...]]  # None: no reshape
    perm_b: Optional[Tuple[int, ...]]
    shape_b: Optional[Tuple[int, ...]]
    shape_out: Optional[Tuple[int, ...]]  # reshape of the product (matmul's free dims split)


@dataclass(frozen=True)
class Plan:
    unary: Tuple[Tuple[int, Unary], ...]  # (operand position, its steps) where it has some
    pairs: Tuple[Pair, ...]
    final_perm: Optional[Tuple[int, ...]]


def _sizes(labels, shapes):
    """Each label's size: the common size of its dimensions, size-1 ones broadcasting."""
    sizes = {}
    for k, (ls, shape) in enumerate(zip(labels, shapes)):
        seen = {}
        for lab, n in zip(ls, shape):
            if lab in seen and seen[lab] != n:
                raise ValueError(f"einsum: operand {k} repeats label {_show(lab)} on "
                                 f"dimensions of different sizes ({seen[lab]} and {n})")
            seen[lab] = n
            old = sizes.get(lab)
            if old is None or old == 1:
                sizes[lab] = n
            elif n != 1 and n != old:
                raise ValueError(f"einsum: label {_show(lab)} has size {old} in one operand "
                                 f"and {n} in operand {k} (sizes must agree or be 1)")
    return sizes


def _show(lab):
    return repr(lab) if len(lab) == 1 else f"'...' (dimension {lab[1:]} of the ellipsis)"


def _unary(labels, shape, sizes, needed_elsewhere):
    """The steps of one operand alone, and its labels afterwards."""
    labels, shape = list(labels), list(shape)
    diagonals = []
    while True:
        rep = next((lab for k, lab in enumerate(labels) if lab in labels[k + 1:]), None)
        if rep is None:
            break
        p = labels.index(rep)
        q = labels.index(rep, p + 1)
        others = [k for k in range(len(labels)) if k not in (p, q)]
        perm = tuple(others + [p, q])  # diagonal() takes the last two axes
        diagonals.append(None if perm == tuple(range(len(labels))) else perm)
        labels = [labels[k] for k in others] + [rep]
        shape = [shape[k] for k in others] + [shape[p]]
    drop = [k for k, lab in enumerate(labels) if shape[k] == 1 and sizes[lab] != 1]
    labels = [lab for k, lab in enumerate(labels) if k not in drop]
    squeeze = tuple(sizes[lab] for lab in labels) if drop else None
    sum_axes = tuple(k for k, lab in enumerate(labels) if lab not in needed_elsewhere)
    kept = [k for k in range(len(labels)) if k not in sum_axes]
    sum_perm = _perm(labels, [labels[k] for k in kept + list(sum_axes)])
    kept_shape = tuple(sizes[labels[k]] for k in kept)
    sum_rows = (math.prod(kept_shape), math.prod(sizes[labels[k]] for k in sum_axes))
    labels = [labels[k] for k in kept]
    step = Unary(tuple(diagonals), squeeze, sum_axes, sum_perm, sum_rows, kept_shape)
    return (step if (diagonals or drop or sum_axes) else None), tuple(labels)


def _size(labels, sizes):
    return math.prod(sizes[lab] for lab in labels)


def _greedy(terms, out, sizes):
    """Pairs (positions, result appended) chosen greedily: among the pairs that share a
    label, the one whose result is smallest relative to its inputs (size(result) -
    size(a) - size(b), opt_einsum's and NumPy's 'greedy' criterion), ties broken by the
    product's cost; when no pair shares a label, the two smallest operands (an outer
    product)."""
    terms = [frozenset(t) for t in terms]
    path = []
    while len(terms) > 1:
        best = None
        for i in range(len(terms)):
            for j in range(i + 1, len(terms)):
                a, b = terms[i], terms[j]
                if not (a & b):
                    continue
                keep = out.union(*(t for k, t in enumerate(terms) if k not in (i, j)))
                res = (a | b) & keep
                key = (_size(res, sizes) - _size(a, sizes) - _size(b, sizes),
                       _size(a | b, sizes), i, j)
                if best is None or key < best[0]:
                    best = (key, i, j, res)
        if best is None:  # nothing shared: outer product of the two smallest
            order = sorted(range(len(terms)), key=lambda k: (_size(terms[k], sizes), k))
            i, j = sorted(order[:2])
            res = terms[i] | terms[j]
        else:
            _, i, j, res = best
        path.append((i, j))
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [res]
    return path


OPTIMAL_MAX_OPERANDS = 8


def _optimal(terms, out, sizes):
    """The pairwise order of least total cost (the sum over contractions of the product of
    the sizes of every label involved, i.e. multiply-adds), by dynamic programming over the
    subsets of operands (3^n steps: n <= OPTIMAL_MAX_OPERANDS, greedy beyond)."""
    n = len(terms)
    if n > OPTIMAL_MAX_OPERANDS:
        return _greedy(terms, out, sizes)
    terms = [frozenset(t) for t in terms]
    full = (1 << n) - 1
    held = {}  # labels of the intermediate of a subset: its labels still needed outside it

    def labels(mask):
        got = held.get(mask)
        if got is None:
            inside = frozenset().union(*(terms[k] for k in range(n) if mask >> k & 1))
            outside = out.union(*(terms[k] for k in range(n) if not mask >> k & 1))
            got = held[mask] = inside & outside
        return got

    best = {1 << k: (0, None) for k in range(n)}
    for mask in range(1, full + 1):  # every proper subset is a smaller number: done before
        if mask in best:
            continue
        choice = None
        sub = (mask - 1) & mask
        while sub:
            rest = mask ^ sub
            if sub < rest:
                cost = best[sub][0] + best[rest][0] + _size(labels(sub) | labels(rest), sizes)
                if choice is None or cost < choice[0]:
                    choice = (cost, (sub, rest))
            sub = (sub - 1) & mask
        best[mask] = choice
    path, items = [], [1 << k for k in range(n)]

    def emit(mask):
        split = best[mask][1]
        if split is None:
            return
        emit(split[0])
        emit(split[1])
        i, j = sorted((items.index(split[0]), items.index(split[1])))
        path.append((i, j))
        items[:] = [m for k, m in enumerate(items) if k not in (i, j)] + [mask]
    emit(full)
    return path


def _left_to_right(n):
    """((0, 1), then the running result (last) with the next operand (first))."""
    path = [(0, 1)] if n > 1 else []
    for m in range(n - 1, 1, -1):
        path.append((0, m - 1))
    return path


def _check_path(path, n):
    out, m = [], n
    for step in path:
        try:
            i, j = (int(v) for v in step)
        except (TypeError, ValueError):
            raise ValueError(f"einsum: optimize path entries must be pairs of operand "
                             f"positions, got {step!r}") from None
        if not (0 <= i < m and 0 <= j < m and i != j):
            raise ValueError(f"einsum: optimize path entry {step!r} does not name two of the "
                             f"{m} operands left at that point")
        out.append((min(i, j), max(i, j)))
        m -= 1
    if m > 1:
        raise ValueError(f"einsum: optimize path leaves {m} operands uncontracted")
    return out


def _ordered(labels, order):
    """labels sorted by their position in `order`."""
    pos = {lab: k for k, lab in enumerate(order)}
    return sorted(labels, key=pos.__getitem__)


def _pair(i, j, la, lb, keep, sizes, out_order):
    """The layout of contracting operands i (labels la) and j (lb); returns the step and the
    result's labels.  keep: labels needed afterwards; out_order: the output's labels when
    this is the last pair (laid out in that order when possible)."""
    sb = set(lb)
    sa = set(la)
    batch = [lab for lab in la if lab in sb and lab in keep]
    contract = [lab for lab in la if lab in sb and lab not in keep]
    afree = [lab for lab in la if lab not in sb]
    bfree = [lab for lab in lb if lab not in sa]
    if out_order is not None:
        batch = _ordered(batch, out_order)
        afree, bfree = _ordered(afree, out_order), _ordered(bfree, out_order)
        # The output reading (batch, b's free, a's free): b plays a's part, so matmul writes
        # the output's layout directly.
        nb = len(batch)
        if (tuple(out_order[:nb]) == tuple(batch) and bfree and afree
                and tuple(out_order[nb:nb + len(bfree)]) == tuple(bfree)):
            i, j, la, lb, afree, bfree = j, i, lb, la, bfree, afree
    if not contract:
        res = batch + afree + bfree
        if out_order is not None:
            res = _ordered(res, out_order)
        pa, sha = _broadcast_view(la, res, sizes)
        pb, shb = _broadcast_view(lb, res, sizes)
        return Pair(i, j, "multiply", pa, sha, pb, shb, None), tuple(res)
    if out_order is None and _size(lb, sizes) > _size(la, sizes):
        contract = [lab for lab in lb if lab in contract]  # the larger operand's order
    bsz = [sizes[lab] for lab in batch]
    m, k, n = _size(afree, sizes), _size(contract, sizes), _size(bfree, sizes)
    res = batch + afree + bfree
    want = tuple(sizes[lab] for lab in res)
    if batch and not afree and not bfree and k <= DOT_MAX_K:
        # A batch of short dot products: matmul would make one BLAS call per dot (25 ns
        # each); a broadcast multiply then one gemv by a vector of ones is 8x faster for
        # 10000 dots of 16 (the reduction kernel is slow on short rows: multiply + sum
        # over the last axis was only 2.4x faster).
        pa, pb = _perm(la, batch + contract), _perm(lb, batch + contract)
        shape = tuple(bsz) + (k,)
        return Pair(i, j, "dot", pa, _reshape(la, pa, shape, sizes), pb,
                    _reshape(lb, pb, shape, sizes),
                    None if tuple(bsz) == want else want), tuple(res)
    if batch or afree:
        shape_a = tuple(bsz) + (m, k)
    else:
        shape_a = (k,)  # a vector: matmul's 1-D operand (gemv, or a dot)
    if batch or bfree:
        shape_b = tuple(bsz) + (k, n)
    else:
        shape_b = (k,)
    pa = _perm(la, batch + afree + contract)
    pb = _perm(lb, batch + contract + bfree)
    if len(shape_a) == 1 and len(shape_b) == 1:
        got = ()
    elif len(shape_a) == 1:
        got = (n,)
    elif len(shape_b) == 1:
        got = tuple(bsz) + (m,)
    else:
        got = tuple(bsz) + (m, n)
    return Pair(i, j, "matmul", pa, _reshape(la, pa, shape_a, sizes), pb,
                _reshape(lb, pb, shape_b, sizes),
                None if got == want else want), tuple(res)


def _perm(labels, order):
    p = tuple(labels.index(lab) for lab in order)
    return None if p == tuple(range(len(labels))) else p


def _reshape(labels, perm, shape, sizes):
    cur = tuple(sizes[labels[k]] for k in (perm if perm is not None else range(len(labels))))
    return None if cur == tuple(shape) else tuple(shape)


def _broadcast_view(labels, res, sizes):
    """Permutation and reshape that align an operand with the labels `res` (size 1 where it
    lacks a label), for a broadcast multiply."""
    perm = _perm(list(labels), [lab for lab in res if lab in labels])
    shape = tuple(sizes[lab] if lab in labels else 1 for lab in res)
    return perm, (None if len(shape) == len(labels) else shape)


@functools.lru_cache(maxsize=512)
def make_plan(subscripts: str, shapes: tuple, optimize):
    """The Plan of `einsum(subscripts, *operands)` for operands of these shapes."""
    labels, out = expand(subscripts, tuple(len(s) for s in shapes))
    sizes = _sizes(labels, shapes)
    out_set = frozenset(out)
    # Labels dropped by broadcasting no longer count as held by that operand.
    held = []
    for ls, shape in zip(labels, shapes):
        held.append(frozenset(lab for lab, n in zip(ls, shape) if n != 1 or sizes[lab] == 1))
    unary, terms = [], []
    for k, (ls, shape) in enumerate(zip(labels, shapes)):
        elsewhere = out_set.union(*(h for m, h in enumerate(held) if m != k))
        step, now = _unary(ls, shape, sizes, elsewhere)
        unary.append(step)
        terms.append(now)
    n = len(terms)
    if optimize is False:
        path = _left_to_right(n)
    elif isinstance(optimize, tuple):
        path = _check_path(optimize, n)
    elif optimize == "optimal":
        path = _optimal(terms, out_set, sizes)
    else:
        path = _greedy(terms, out_set, sizes)
    pairs = []
    for step_no, (i, j) in enumerate(path):
        rest = [t for m, t in enumerate(terms) if m not in (i, j)]
        keep = out_set.union(*map(frozenset, rest))
        last = step_no == len(path) - 1
        pair, res = _pair(i, j, list(terms[i]), list(terms[j]), keep, sizes,
                          out if last else None)
        pairs.append(pair)
        terms = rest + [res]
    final = _perm(list(terms[0]), list(out))
    return Plan(tuple((k, u) for k, u in enumerate(unary) if u is not None), tuple(pairs),
                final)
