"""Autodiff benchmarks (issue 7's performance targets), arraycore vs NumPy / PyTorch / JAX.

    python benchmarks/bench_autodiff.py --threads 1            # the targets (all libraries)
    python benchmarks/bench_autodiff.py --threads 1 --quick    # smoke test

Cases: the cost of the autodiff check when nothing is differentiated (`x + y` on 8
float64, a chain of 100 small ops on 16 float32, `zeros((8,))`); one training step of an
MLP 784-512-512-10 (batch 128, float32) on the tape and through `func.grad`; per-sample
gradients with `vmap(grad)` (batch 64); `jacrev`/`jacfwd` of tanh(W @ x) for R^100 -> R^100
and `hessian` of a scalar function of 100 inputs; backward through a chain of 100
elementwise ops on 16 elements.  NumPy has no autodiff: its MLP step is hand-written
backpropagation (the cost floor of the arithmetic); JAX is eager (no jit), as everywhere in
these benchmarks.  The "arraycore / other" block of the report gives the ratios the targets
name.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402

LIBS4 = ("numpy", "arraycore", "torch", "jax")


def _chain_np(np_, y):
    for _ in range(25):
        y = y * 0.9
        y = y + 0.1
        y = np_.tanh(y)
        y = np_.sin(y)
    return y


def small_cases():
    x8 = np.arange(8, dtype=np.float64)
    x16 = np.linspace(-1, 1, 16).astype(np.float32)

    def add_setup(lib):
        def setup(m):
            if lib == "torch":
                a = m.from_numpy(x8.copy())
            elif lib == "jax":
                a = m.asarray(x8)
                return lambda: (a + a).block_until_ready()
            else:
                a = m.asarray(x8)
            return lambda: a + a
        return setup

    def chain_setup(lib):
        def setup(m):
            if lib == "torch":
                y = m.from_numpy(x16.copy())
                return lambda: _chain_np(m, y)
            if lib == "jax":
                y = m.asarray(x16)
                return lambda: _chain_np(m, y).block_until_ready()
            y = m.asarray(x16)
            return lambda: _chain_np(m, y)
        return setup

    def zeros_setup(lib):
        def setup(m):
            if lib == "jax":
                return lambda: m.zeros((8,)).block_until_ready()
            return lambda: m.zeros((8,))
        return setup

    return [
        Case("x + y, 8 float64", {k: add_setup(k) for k in LIBS4}, fast=True),
        Case("chain of 100 ops, 16 float32", {k: chain_setup(k) for k in LIBS4}, fast=True),
        Case("zeros((8,))", {k: zeros_setup(k) for k in LIBS4}, fast=True),
    ]


# --- MLP ----------------------------------------------------------------------------------

def _mlp_data(batch):
    rng = np.random.default_rng(0)
    sizes = [784, 512, 512, 10]
    ws = [(rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
          for a, b in zip(sizes[:-1], sizes[1:])]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    x = rng.standard_normal((batch, 784)).astype(np.float32)
    y = rng.integers(0, 10, batch)
    onehot = np.eye(10, dtype=np.float32)[y]
    return ws, bs, x, onehot


def _loss(xp, params, x, onehot):
    (w1, w2, w3), (b1, b2, b3) = params
    h = xp.tanh(x @ w1 + b1)
    h = xp.tanh(h @ w2 + b2)
    z = h @ w3 + b3
    # Cross-entropy of softmax(z) (log-sum-exp written with namespace functions).
    # (torch.max(z, axis) returns (values, indices); amax is its max-reduction)
    m = (xp.amax(z, dim=-1, keepdim=True) if xp.__name__ == "torch"
         else xp.max(z, axis=-1, keepdims=True))
    lse = xp.log(xp.sum(xp.exp(z - m), axis=-1, keepdims=True)) + m
    return -xp.mean(xp.sum(onehot * (z - lse), axis=-1))


def _np_step(np_, ws, bs, x, onehot, lr=0.01):
    h1 = np_.tanh(x @ ws[0] + bs[0])
    h2 = np_.tanh(h1 @ ws[1] + bs[1])
    z = h2 @ ws[2] + bs[2]
    z = z - z.max(axis=-1, keepdims=True)
    p = np_.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    dz = (p - onehot) / x.shape[0]
    dw3, db3 = h2.T @ dz, dz.sum(0)
    dh2 = (dz @ ws[2].T) * (1 - h2 * h2)
    dw2, db2 = h1.T @ dh2, dh2.sum(0)
    dh1 = (dh2 @ ws[1].T) * (1 - h1 * h1)
    dw1, db1 = x.T @ dh1, dh1.sum(0)
    for p_, g in zip(ws + bs, [dw1, dw2, dw3, db1, db2, db3]):
        p_ -= lr * g


def mlp_cases(quick):
    ws, bs, x, onehot = _mlp_data(128)

    def np_setup(np_):
        W = [w.copy() for w in ws]
        B = [b.copy() for b in bs]
        return lambda: _np_step(np_, W, B, x, onehot)

    def ac_tape(ac):
        params = [ac.asarray(w.copy()) for w in ws] + [ac.asarray(b.copy()) for b in bs]
        for p in params:
            p.requires_grad_()
        X, Y = ac.asarray(x), ac.asarray(onehot)

        def step():
            loss = _loss(ac, (params[:3], params[3:]), X, Y)
            loss.backward()
            with ac.no_grad():
                for p in params:
                    p -= 0.01 * p.grad
                    p.grad = None
        return step

    def torch_tape(torch):
        params = [torch.from_numpy(w.copy()).requires_grad_() for w in ws] + \
                 [torch.from_numpy(b.copy()).requires_grad_() for b in bs]
        X, Y = torch.from_numpy(x), torch.from_numpy(onehot)

        def step():
            loss = _loss(torch, (params[:3], params[3:]), X, Y)
            loss.backward()
            with torch.no_grad():
                for p in params:
                    p -= 0.01 * p.grad
                    p.grad = None
        return step

    def ac_func(ac):
        params = ([ac.asarray(w.copy()) for w in ws], [ac.asarray(b.copy()) for b in bs])
        X, Y = ac.asarray(x), ac.asarray(onehot)
        g = ac.func.grad(lambda p: _loss(ac, p, X, Y))

        def step():
            nonlocal params
            gr = g(params)
            params = ([p - 0.01 * d for p, d in zip(params[0], gr[0])],
                      [p - 0.01 * d for p, d in zip(params[1], gr[1])])
        return step

    def torch_func(torch):
        import torch.func as tf
        params = ([torch.from_numpy(w.copy()) for w in ws], [torch.from_numpy(b.copy())
                                                              for b in bs])
        X, Y = torch.from_numpy(x), torch.from_numpy(onehot)
        g = tf.grad(lambda p: _loss(torch, p, X, Y))

        def step():
            nonlocal params
            gr = g(params)
            params = ([p - 0.01 * d for p, d in zip(params[0], gr[0])],
                      [p - 0.01 * d for p, d in zip(params[1], gr[1])])
        return step

    def jax_func(jnp):
        import jax
        params = ([jnp.asarray(w) for w in ws], [jnp.asarray(b) for b in bs])
        X, Y = jnp.asarray(x), jnp.asarray(onehot)
        g = jax.grad(lambda p: _loss(jnp, p, X, Y))

        def step():
            nonlocal params
            gr = g(params)
            params = ([p - 0.01 * d for p, d in zip(params[0], gr[0])],
                      [p - 0.01 * d for p, d in zip(params[1], gr[1])])
            jax.block_until_ready(params)
        return step

    cases = [Case("MLP step, tape", {"numpy": np_setup, "arraycore": ac_tape,
                                     "torch": torch_tape},
                  note="784-512-512-10, batch 128, float32; numpy = hand-written backprop"),
             Case("MLP step, func.grad", {"numpy": np_setup, "arraycore": ac_func,
                                          "torch": torch_func, "jax": jax_func})]

    # Per-sample gradients, batch 64.
    ws64, bs64, x64, oh64 = _mlp_data(64)

    def ac_ps(ac):
        params = ([ac.asarray(w) for w in ws64], [ac.asarray(b) for b in bs64])
        X, Y = ac.asarray(x64), ac.asarray(oh64)

        def one(p, xi, yi):
            return _loss(ac, p, xi[None], yi[None])
        f = ac.func.vmap(ac.func.grad(one), in_dims=(None, 0, 0))
        return lambda: f(params, X, Y)

    def torch_ps(torch):
        import torch.func as tf
        params = ([torch.from_numpy(w) for w in ws64], [torch.from_numpy(b) for b in bs64])
        X, Y = torch.from_numpy(x64), torch.from_numpy(oh64)

        def one(p, xi, yi):
            return _loss(torch, p, xi[None], yi[None])
        f = tf.vmap(tf.grad(one), in_dims=(None, 0, 0))
        return lambda: f(params, X, Y)

    def jax_ps(jnp):
        import jax
        params = ([jnp.asarray(w) for w in ws64], [jnp.asarray(b) for b in bs64])
        X, Y = jnp.asarray(x64), jnp.asarray(oh64)

        def one(p, xi, yi):
            return _loss(jnp, p, xi[None], yi[None])
        f = jax.vmap(jax.grad(one), in_axes=(None, 0, 0))
        return lambda: jax.block_until_ready(f(params, X, Y))

    cases.append(Case("per-sample grads vmap(grad), batch 64",
                      {"arraycore": ac_ps, "torch": torch_ps, "jax": jax_ps}))
    return cases


# --- Jacobians, Hessian, backward of a small chain ----------------------------------------

def jac_cases():
    rng = np.random.default_rng(1)
    W = (rng.standard_normal((100, 100)) / 10).astype(np.float64)
    x = rng.standard_normal(100)

    def mk(kind):
        def ac_setup(ac):
            Wa, xa = ac.asarray(W), ac.asarray(x)
            f = lambda v: ac.tanh(Wa @ v)  # noqa: E731
            if kind == "hessian":
                g = ac.func.hessian(lambda v: ac.sum(ac.tanh(Wa @ v) ** 2))
            else:
                g = getattr(ac.func, kind)(f)
            return lambda: g(xa)

        def torch_setup(torch):
            import torch.func as tf
            Wt, xt = torch.from_numpy(W), torch.from_numpy(x)
            f = lambda v: torch.tanh(Wt @ v)  # noqa: E731
            if kind == "hessian":
                g = tf.hessian(lambda v: torch.sum(torch.tanh(Wt @ v) ** 2))
            else:
                g = getattr(tf, kind)(f)
            return lambda: g(xt)

        def jax_setup(jnp):
            import jax
            Wj, xj = jnp.asarray(W), jnp.asarray(x)
            f = lambda v: jnp.tanh(Wj @ v)  # noqa: E731
            if kind == "hessian":
                g = jax.hessian(lambda v: jnp.sum(jnp.tanh(Wj @ v) ** 2))
            else:
                g = getattr(jax, kind)(f)
            return lambda: g(xj).block_until_ready()

        return Case(f"{kind} tanh(W@x), n=100", {"arraycore": ac_setup, "torch": torch_setup,
                                                  "jax": jax_setup})

    x16 = np.linspace(-1, 1, 16)

    def ac_chain(ac):
        x0 = ac.asarray(x16)
        x0.requires_grad_()

        def run():
            y = _chain_np(ac, x0)
            ac.sum(y).backward()
            x0.grad = None
        return run

    def torch_chain(torch):
        x0 = torch.from_numpy(x16.copy()).requires_grad_()

        def run():
            y = _chain_np(torch, x0)
            y.sum().backward()
            x0.grad = None
        return run

    return [mk("jacrev"), mk("jacfwd"), mk("hessian"),
            Case("backward, chain of 100 ops on 16", {"arraycore": ac_chain,
                                                       "torch": torch_chain}, fast=True)]


def build_cases(quick: bool = False):
    return small_cases() + mlp_cases(quick) + jac_cases()


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__))
