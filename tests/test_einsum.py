"""ac.einsum against np.einsum (random inputs over a table of subscripts and layouts), its
errors, and its derivatives and batching against JAX's jnp.einsum and finite differences."""

import numpy as np
import pytest

import arraycore as ac

RNG = np.random.default_rng(1234)

# (subscripts, shapes): every einsum feature on small shapes.
CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),                     # matrix product
    ("ij,jk", [(3, 4), (4, 5)]),                          # implicit
    ("ij,kj->ik", [(3, 4), (5, 4)]),                      # transposed operand
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),                      # transposed output
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),             # batched
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),    # attention scores
    ("bhqk,bhkd->bqhd", [(2, 3, 4, 6), (2, 3, 6, 5)]),    # attention output, permuted
    ("i,i->", [(7,), (7,)]),                               # dot
    ("i,i", [(7,), (7,)]),
    ("i,i->i", [(7,), (7,)]),                              # Hadamard
    ("i,j->ij", [(3,), (4,)]),                             # outer
    ("i,j", [(3,), (4,)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),                                      # implicit sorts: a transpose
    ("ii->i", [(4, 4)]),                                   # diagonal
    ("ii", [(4, 4)]),                                      # trace
    ("iii->i", [(3, 3, 3)]),
    ("iij->j", [(3, 3, 5)]),
    ("ijij->ij", [(2, 3, 2, 3)]),
    ("iji->j", [(3, 4, 3)]),
    ("ii,i->i", [(4, 4), (4,)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),          # ellipsis, broadcast batch
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij,...jk", [(2, 3, 4), (2, 4, 5)]),
    ("i...,i...->...", [(3, 2, 2), (3, 2, 2)]),
    ("...i,i->...", [(2, 3, 4), (4,)]),
    ("i...j,...j->...i", [(2, 3, 4), (5, 1, 4)]),
    ("...,...", [(2, 3), (3,)]),
    ("...->...", [(2, 3)]),
    ("ij...->...ji", [(2, 3, 4, 5)]),
    ("ij,jk", [(2, 1), (3, 4)]),                          # size-1 broadcast of a label
    ("ij,ij->ij", [(3, 1), (1, 4)]),
    ("i,->i", [(4,), ()]),                                # 0-d operands
    (",->", [(), ()]),
    (",i,->i", [(), (3,), ()]),
    ("->", [()]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),          # chains
    ("ij,jk,kl,lm->im", [(2, 6), (6, 3), (3, 7), (7, 4)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 2), (3, 2), (2, 2, 2, 2), (3, 2), (3, 2)]),
    ("ab,cd,ef->abcdef", [(2, 2), (2, 1), (1, 3)]),      # outer products only
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("ij,jk,ki->", [(3, 4), (4, 5), (5, 3)]),             # cyclic trace
    ("ab,bc,cd,de,ef->af", [(2, 3), (3, 4), (4, 3), (3, 2), (2, 5)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),       # bilinear form
    ("ij,jk->ik", [(0, 4), (4, 5)]),                      # empty dimensions
    ("ij,jk->ik", [(3, 0), (0, 5)]),
    ("ij->", [(0, 3)]),
    ("ii->i", [(0, 0)]),
    ("i,j->ij", [(0,), (3,)]),
    ("ij,jk->ik", [(1, 1), (1, 1)]),
    ("AB,Bc->Ac", [(2, 3), (3, 4)]),                      # upper-case labels
    ("aB,Ba", [(2, 3), (3, 2)]),
    ("Ba", [(2, 3)]),                                     # implicit: upper case sorts first
]


def _operands(shapes, dtype=np.float64):
    out = []
    for s in shapes:
        if np.dtype(dtype).kind == "c":
            out.append((RNG.standard_normal(s) + 1j * RNG.standard_normal(s)).astype(dtype))
        elif np.dtype(dtype).kind in "iu":
            out.append(RNG.integers(-5, 6, size=s).astype(dtype))
        elif np.dtype(dtype).kind == "b":
            out.append(RNG.random(s) < 0.5)
        else:
            out.append(RNG.standard_normal(s).astype(dtype))
    return out


def _check(got, want, rtol=1e-12, atol=1e-12):
    got = np.asarray(got)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("subscripts,shapes", CASES, ids=[c[0] + str(c[1]) for c in CASES])
@pytest.mark.parametrize("optimize", ["greedy", False])
def test_against_numpy(subscripts, shapes, optimize):
    xs = _operands(shapes)
    _check(ac.einsum(subscripts, *map(ac.asarray, xs), optimize=optimize),
           np.einsum(subscripts, *xs))


@pytest.mark.parametrize("subscripts,shapes", CASES, ids=[c[0] + str(c[1]) for c in CASES])
def test_traced_path(subscripts, shapes):
    """Traced operands take the namespace functions (plain ones take views and the native
    matmul directly): the same values, here as jvp's primal output and tangent (einsum is
    linear in each operand: the tangent in operand 0 is einsum with that operand replaced)."""
    xs = _operands(shapes)
    if not xs:
        return
    t0 = _operands([shapes[0]])[0]
    A = [ac.asarray(x) for x in xs]
    out, tan = ac.func.jvp(lambda x0: ac.einsum(subscripts, x0, *A[1:]), (A[0],),
                           (ac.asarray(t0),))
    want = np.einsum(subscripts, *xs)
    _check(out, want)
    _check(tan, np.einsum(subscripts, t0, *xs[1:]))


@pytest.mark.parametrize("dtype,tol", [(np.float32, 2e-6), (np.complex64, 2e-6),
                                       (np.complex128, 1e-12), (np.int32, 0), (np.int64, 0),
                                       (np.uint8, 0), (np.int8, 0), (np.bool_, 0)])
@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ii", [(4, 4)]), ("i,i->", [(6,), (6,)]), ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ij->j", [(3, 4)]), ("i,j->ij", [(3,), (4,)])])
def test_dtypes(subscripts, shapes, dtype, tol):
    xs = _operands(shapes, dtype)
    _check(ac.einsum(subscripts, *map(ac.asarray, xs)), np.einsum(subscripts, *xs),
           rtol=tol, atol=tol)


def test_mixed_dtypes_promote():
    a = _operands([(3, 4)], np.int32)[0]
    b = _operands([(4, 2)], np.float32)[0]
    c = _operands([(2,)], np.int8)[0]
    want = np.einsum("ij,jk,k->i", a, b, c)
    _check(ac.einsum("ij,jk,k->i", ac.asarray(a), ac.asarray(b), ac.asarray(c)), want,
           rtol=1e-12)
    f, z = _operands([(3,)], np.float32)[0], _operands([(3,)], np.complex64)[0]
    _check(ac.einsum("i,i->i", ac.asarray(f), ac.asarray(z)), np.einsum("i,i->i", f, z),
           rtol=1e-6, atol=1e-6)


def _layouts(x):
    """x as a C array, a transposed view, a strided slice and a reversed (negative-stride)
    view, each with the same values as x."""
    a = ac.asarray(x)
    yield "contiguous", a
    yield "transposed", ac.permute_dims(ac.asarray(np.ascontiguousarray(x.T)),
                                        tuple(range(x.ndim))[::-1])
    big = np.zeros(tuple(2 * n for n in x.shape))
    big[tuple(slice(None, None, 2) for _ in x.shape)] = x
    yield "strided", ac.asarray(big)[tuple(slice(None, None, 2) for _ in x.shape)]
    rev = ac.asarray(np.ascontiguousarray(x[(slice(None, None, -1),) * x.ndim]))
    yield "reversed", rev[(slice(None, None, -1),) * x.ndim]


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bkj->bik", [(2, 3, 4), (2, 5, 4)]),
    ("ii->i", [(4, 4)]), ("ij,ij->i", [(3, 4), (3, 4)]), ("ijk,kj->i", [(2, 3, 4), (4, 3)])])
def test_layouts(subscripts, shapes):
    xs = _operands(shapes)
    want = np.einsum(subscripts, *xs)
    for (name_a, a), (name_b, b) in zip(_layouts(xs[0]), _layouts(xs[-1])):
        ops = [a, b] if len(xs) == 2 else [a]
        _check(ac.einsum(subscripts, *ops), want)


def test_interleaved_form():
    a, b, c = _operands([(3, 4), (4, 5), (5,)])
    A, B, C = map(ac.asarray, (a, b, c))
    _check(ac.einsum(A, [0, 1], B, [1, 2], [0, 2]), a @ b)
    _check(ac.einsum(A, [0, 1], B, [1, 2]), np.einsum(a, [0, 1], b, [1, 2]))
    _check(ac.einsum(A, [0, 1], B, [1, 2], C, [2], [0]), a @ b @ c)
    _check(ac.einsum(A, [Ellipsis, 1], C[:4], [1], [Ellipsis]), a @ c[:4])
    _check(ac.einsum(A, [51, 0], [0, 51]), a.T)


def test_identity_is_a_new_view():
    a = ac.asarray(_operands([(2, 3)])[0])
    for sub in ("ij", "ij->ij", "...", "i...->i..."):
        out = ac.einsum(sub, a)
        assert out is not a
        _check(out, np.asarray(a))


def test_operands_as_one_list():  # PyTorch's einsum(eq, [a, b])
    a, b = _operands([(3, 4), (4, 5)])
    _check(ac.einsum("ij,jk->ik", [ac.asarray(a), ac.asarray(b)]), a @ b)


def test_paths():
    a, b, c = _operands([(3, 4), (4, 5), (5, 2)])
    want = np.einsum("ij,jk,kl->il", a, b, c)
    path, _ = np.einsum_path("ij,jk,kl->il", a, b, c, optimize="greedy")
    ops = list(map(ac.asarray, (a, b, c)))
    for optimize in (True, False, "greedy", "optimal", "auto", path, [(1, 2), (0, 1)],
                     [(0, 2), (0, 1)]):
        _check(ac.einsum("ij,jk,kl->il", *ops, optimize=optimize), want)


def test_greedy_order_avoids_the_big_intermediate():
    from arraycore._einsum._plan import make_plan
    # (a b) c would make a 64 x 64 intermediate; b c is 64 x 1
    plan = make_plan("ij,jk,kl->il", ((64, 2), (2, 64), (64, 1)), "greedy")
    assert (plan.pairs[0].i, plan.pairs[0].j) == (1, 2)


def _path_cost(sub, shapes, pairs):
    """Multiply-adds of a contraction order (product of the sizes of every label involved)."""
    terms = [set(t) for t in sub.split("->")[0].split(",")]
    out = set(sub.split("->")[1])
    size = {c: n for t, s in zip(sub.split("->")[0].split(","), shapes) for c, n in zip(t, s)}
    cost = 0
    for i, j in pairs:
        a, b = terms[i], terms[j]
        rest = [t for k, t in enumerate(terms) if k not in (i, j)]
        cost += int(np.prod([size[c] for c in a | b]))
        terms = rest + [(a | b) & set().union(out, *rest)]
    return cost


@pytest.mark.parametrize("odd", [False, True])
def test_random_networks_and_optimal_order(odd):
    """Random expressions of 1-5 operands, every order against NumPy; `odd`: with repeated
    labels in a term and size-1 dimensions broadcast against longer ones."""
    from arraycore._einsum._plan import make_plan
    rng = np.random.default_rng(7 + odd)
    letters = "abcdefgh"
    for trial in range(40):
        n_ops = int(rng.integers(1, 6))
        terms = ["".join(rng.choice(list(letters), size=int(rng.integers(0, 4)),
                                    replace=bool(odd and rng.random() < 0.3)))
                 for _ in range(n_ops)]
        counts = {c: "".join(terms).count(c) for c in letters}
        out = "".join(c for c in letters if counts[c] == 1 and rng.random() < 0.7)
        if odd and rng.random() < 0.5:  # an output label seen several times
            out += "".join(c for c in letters if counts[c] > 1 and c not in out)[:1]
        sub = ",".join(terms) + "->" + out
        size = {c: int(rng.integers(1, 5)) for c in letters}
        shapes = [tuple(1 if odd and rng.random() < 0.2 and t.count(c) == 1 else size[c]
                        for c in t) for t in terms]
        xs = _operands(shapes)
        want = np.einsum(sub, *xs)
        for optimize in ("greedy", "optimal", False):
            _check(ac.einsum(sub, *map(ac.asarray, xs), optimize=optimize), want, rtol=1e-10,
                   atol=1e-10)
        if not odd:
            cost = {o: _path_cost(sub, shapes, [(min(p.i, p.j), max(p.i, p.j)) for p in
                                                make_plan(sub, tuple(shapes), o).pairs])
                    for o in ("greedy", "optimal")}
            assert cost["optimal"] <= cost["greedy"], (sub, shapes, cost)


def test_random_ellipses_agree_with_numpy():
    """Random terms with and without '...', implicit and explicit outputs, size-1
    dimensions: einsum raises exactly when NumPy does (ValueError naming einsum), else
    gives NumPy's values."""
    rng = np.random.default_rng(11)
    agreed = 0
    for trial in range(400):
        terms, xs = [], []
        for _ in range(int(rng.integers(1, 4))):
            letters = "".join(rng.choice(list("ijk"), size=int(rng.integers(0, 4))))
            ell = rng.random() < 0.6
            pos = int(rng.integers(0, len(letters) + 1))
            terms.append(letters[:pos] + ("..." if ell else "") + letters[pos:])
            nd = len(letters) + (int(rng.integers(0, 3)) if ell else 0)
            xs.append(rng.standard_normal(tuple(int(rng.choice([1, 2, 3])) for _ in range(nd))))
        sub = ",".join(terms)
        if rng.random() < 0.6:
            used = sorted(set("".join(terms).replace(".", "")))
            out = "".join(rng.permutation(used))[:int(rng.integers(0, 4))] if used else ""
            pos = int(rng.integers(0, len(out) + 1))
            sub += "->" + out[:pos] + ("..." if rng.random() < 0.7 else "") + out[pos:]
        try:
            want = np.einsum(sub, *xs)
        except ValueError:
            with pytest.raises(ValueError, match="einsum"):
                ac.einsum(sub, *map(ac.asarray, xs))
            continue
        _check(ac.einsum(sub, *map(ac.asarray, xs)), want)
        agreed += 1
    assert agreed > 150


def test_many_operands():
    shapes = [(2, 3)] + [(3, 3)] * 10 + [(3, 2)]
    letters = "abcdefghijklmnop"
    terms = [letters[k] + letters[k + 1] for k in range(len(shapes))]
    sub = ",".join(terms) + "->" + letters[0] + letters[len(shapes)]
    xs = _operands(shapes)
    _check(ac.einsum(sub, *map(ac.asarray, xs)), np.linalg.multi_dot(xs), rtol=1e-10)


ERRORS = [
    (ValueError, "ij,jk->ik", [(3, 4), (5, 6)]),        # size mismatch
    (ValueError, "ij,jk->ik", [(3, 4)]),                # too few operands
    (ValueError, "ij->ik", [(3, 4)]),                   # output label not in inputs
    (ValueError, "ij->ii", [(3, 4)]),                   # repeated output label
    (ValueError, "ij->i", [(3, 4, 5)]),                 # rank mismatch
    (ValueError, "ijk->i", [(3, 4)]),
    (ValueError, "i1->i", [(3, 3)]),                    # invalid characters
    (ValueError, "i-j", [(3, 3)]),
    (ValueError, "ij->ji->", [(3, 3)]),
    (ValueError, "..i->i", [(3, 3)]),
    (ValueError, "......->", [(3, 3)]),
    (ValueError, "...i->i", [(3, 3)]),                  # ellipsis dims with nowhere to go
    (ValueError, "ii->i", [(3, 4)]),                    # diagonal of unequal dims
    (ValueError, "ii->i", [(1, 3)]),
]


@pytest.mark.parametrize("exc,subscripts,shapes", ERRORS, ids=[e[1] for e in ERRORS])
def test_errors(exc, subscripts, shapes):
    ops = [ac.ones(s) for s in shapes]
    with pytest.raises(exc, match="einsum"):
        ac.einsum(subscripts, *ops)
    if len(shapes) < 2 and subscripts.count(",") == 0:
        with pytest.raises(exc):
            np.einsum(subscripts, *[np.ones(s) for s in shapes])


def test_type_errors():
    a = ac.ones((2, 2))
    with pytest.raises(TypeError, match="einsum"):
        ac.einsum("ij,jk", a, np.ones((2, 2)))
    with pytest.raises(TypeError, match="einsum"):
        ac.einsum("i,", ac.ones(2), 2.0)
    with pytest.raises(TypeError, match="einsum"):
        ac.einsum()
    with pytest.raises(TypeError, match="einsum"):
        ac.einsum(a, [0, "x"])
    with pytest.raises(ValueError, match="einsum"):
        ac.einsum(a, [0, 52])
    with pytest.raises(ValueError, match="einsum"):
        ac.einsum("ij")
    with pytest.raises(ValueError, match="einsum"):
        ac.einsum("ij", a, optimize="fastest")
    with pytest.raises(ValueError, match="einsum"):
        ac.einsum("ij,jk,kl", a, a, a, optimize=[(0, 5), (0, 1)])
    with pytest.raises(ValueError, match="einsum"):
        ac.einsum("ij,jk,kl", a, a, a, optimize=[(0, 1)])


# ----- derivatives and batching (every step is a namespace op with its own rules) -----

AD_CASES = [  # (subscripts, shapes): the loss is sum(sin(einsum(...)))
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ("ij,jk,kl->il", [(3, 4), (4, 2), (2, 5)]),
    ("iij,j->i", [(3, 3, 2), (2,)]),                # a diagonal
    ("...i,i->...", [(2, 3, 4), (4,)]),
    ("ij,ij->j", [(3, 4), (3, 4)]),                 # batched dots: multiply, gemv by ones
    ("ij,jk", [(3, 1), (2, 4)]),                    # a size-1 dimension broadcast
    ("i,->i", [(3,), ()]),                          # a 0-d operand
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
]


def _loss(xp, subscripts):
    def f(*xs):
        return xp.sum(xp.sin(xp.einsum(subscripts, *xs)))
    return f


def _jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


def _references(jax, subscripts, xs, v, xb):
    """JAX's gradient, Hessian-vector product (first operand, direction v), gradient of the
    squared gradient norm, and vmap of einsum and of the gradient over xb (a batch of first
    operands): one jit, so one compilation per case (eager JAX compiles every op)."""
    jnp = jax.numpy
    f = _loss(jnp, subscripts)
    argnums = tuple(range(len(xs)))

    def refs(xs, v, xb):
        rest = tuple(xs[1:])
        grad = jax.grad(f, argnums=argnums)(*xs)
        hvp = jax.jvp(lambda x0: jax.grad(f)(x0, *rest), (xs[0],), (v,))[1]
        gg = jax.grad(lambda *a: jnp.sum(jax.grad(f)(*a) ** 2))(*xs)
        in_axes = (0,) + (None,) * len(rest)
        vm = jax.vmap(lambda *a: jnp.einsum(subscripts, *a), in_axes=in_axes)(xb, *rest)
        vg = jax.vmap(jax.grad(f), in_axes=in_axes)(xb, *rest)
        return grad, hvp, gg, vm, vg
    return jax.jit(refs)(tuple(xs), v, xb)


@pytest.mark.parametrize("subscripts,shapes", AD_CASES, ids=[c[0] for c in AD_CASES])
def test_transforms_vs_jax(subscripts, shapes):
    jax = _jax()
    xs = _operands(shapes)
    v, xb = _operands([shapes[0], (3,) + shapes[0]])
    grad, hvp, gg, vm, vg = (jax.tree_util.tree_map(np.asarray, r)
                             for r in _references(jax, subscripts, xs, v, xb))
    F = ac.func
    f = _loss(ac, subscripts)
    A = [ac.asarray(x) for x in xs]
    rest = A[1:]
    argnums = tuple(range(len(xs)))
    for g, w in zip(F.grad(f, argnums=argnums)(*A), grad):  # ac.func.grad
        _check(g, w)
    leaves = [ac.asarray(x) for x in xs]  # the tape
    for t in leaves:
        t.requires_grad_()
    f(*leaves).backward()
    for t, w in zip(leaves, grad):
        _check(t.grad, w)
    # second order: forward over reverse, and reverse over reverse
    _check(F.jvp(lambda x0: F.grad(f)(x0, *rest), (A[0],), (ac.asarray(v),))[1], hvp)
    _check(F.grad(lambda *a: ac.sum(F.grad(f)(*a) ** 2))(*A), gg)
    # vmap of einsum and per-example gradients (vmap of grad)
    in_dims = (0,) + (None,) * len(rest)
    _check(F.vmap(lambda *a: ac.einsum(subscripts, *a), in_dims=in_dims)(ac.asarray(xb), *rest),
           vm)
    _check(F.vmap(F.grad(f), in_dims=in_dims)(ac.asarray(xb), *rest), vg)


def test_batched_last_operand_and_both():
    jax = _jax()
    a, b = _operands([(2, 3, 4), (4, 5, 2)])
    got = ac.func.vmap(lambda x, y: ac.einsum("ij,jk->ik", x, y), in_dims=(0, 2))(
        ac.asarray(a), ac.asarray(b))
    want = jax.vmap(lambda x, y: jax.numpy.einsum("ij,jk->ik", x, y), in_axes=(0, 2))(a, b)
    _check(got, np.asarray(want))


def test_grad_finite_differences():
    a, b, c = _operands([(3, 4), (4, 5), (5,)])
    f = lambda x: ac.sum(ac.einsum("ij,jk,k->i", x, ac.asarray(b), ac.asarray(c)) ** 2)  # noqa
    g = np.asarray(ac.func.grad(f)(ac.asarray(a)))
    h = 1e-6
    for idx in np.ndindex(a.shape):
        e = np.zeros_like(a)
        e[idx] = h
        fd = (float(f(ac.asarray(a + e))) - float(f(ac.asarray(a - e)))) / (2 * h)
        assert abs(fd - g[idx]) <= 1e-6 * max(1.0, abs(fd))


def test_float32_grad_stays_float32():
    a, b = (x.astype(np.float32) for x in _operands([(3, 4), (4, 5)]))
    g = ac.func.grad(_loss(ac, "ij,jk->ik"))(ac.asarray(a), ac.asarray(b))
    assert g.dtype == ac.float32


def test_complex_grad_vs_torch():
    torch = pytest.importorskip("torch")
    a, b = _operands([(3, 4), (4, 5)], np.complex128)
    A, B = ac.asarray(a), ac.asarray(b)
    for t in (A, B):
        t.requires_grad_()
    ac.sum(ac.abs(ac.einsum("ij,jk->ik", A, B)) ** 2).backward()
    ta, tb = (torch.tensor(x, requires_grad=True) for x in (a, b))
    (torch.einsum("ij,jk->ik", ta, tb).abs() ** 2).sum().backward()
    _check(A.grad, ta.grad.numpy())
    _check(B.grad, tb.grad.numpy())
