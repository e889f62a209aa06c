"""Convolution / pooling benchmarks (issue 10's conv2d target and the demo convnet's shapes):
arraycore vs PyTorch and JAX (`jax.lax.conv_general_dilated` under `jax.jit`), interleaved,
ratios of medians (see harness.py).

    python benchmarks/bench_conv.py --threads 1 --libs arraycore,torch,jax
    python benchmarks/bench_conv.py --threads 1 --quick            # smoke test

Cases (float32):
- conv2d forward+backward, batch 32, 3->64 channels, 32x32, 3x3, padding 1 (the target: at
  most PyTorch's time).  The input is data (no gradient); weight and bias gradients are
  computed, as in training.  `y.backward(g)` on the tape; JAX: the jitted vjp.
- the same forward only (inference);
- conv2d forward+backward with the input gradient too (a hidden layer), 64->64, 16x16;
- the demo's convnet on 8x8 digits, batch 64: conv 1->16 (3x3, pad 1), relu, max_pool 2,
  conv 16->32, relu, max_pool 2, forward+backward (weights and biases), and its layers.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _conv_case(name, n, cin, cout, hw, k, pad, backward=True, input_grad=False, rng=None):
    x = rng.standard_normal((n, cin, hw, hw)).astype(np.float32)
    w = (rng.standard_normal((cout, cin, k, k)) * 0.1).astype(np.float32)
    b = rng.standard_normal(cout).astype(np.float32)
    ho = hw + 2 * pad - k + 1
    g = rng.standard_normal((n, cout, ho, ho)).astype(np.float32)

    def ac_setup(ac):
        from arraycore.nn import functional as F
        xa, wa, ba, ga = (ac.asarray(v) for v in (x, w, b, g))
        if not backward:
            return lambda: F.conv2d(xa, wa, ba, padding=pad)
        wa.requires_grad_()
        ba.requires_grad_()
        if input_grad:
            xa.requires_grad_()

        def step():
            wa.grad = None
            ba.grad = None
            xa.grad = None
            F.conv2d(xa, wa, ba, padding=pad).backward(ga)
        return step

    def torch_setup(torch):
        tf = torch.nn.functional
        xt, wt, bt, gt = (torch.from_numpy(v.copy()) for v in (x, w, b, g))
        if not backward:
            def fwd():
                with torch.no_grad():
                    return tf.conv2d(xt, wt, bt, padding=pad)
            return fwd
        wt.requires_grad_()
        bt.requires_grad_()
        if input_grad:
            xt.requires_grad_()

        def step():
            wt.grad = None
            bt.grad = None
            xt.grad = None
            tf.conv2d(xt, wt, bt, padding=pad).backward(gt)
        return step

    def jax_setup(jnp):
        import jax

        def conv(x, w, b):
            y = jax.lax.conv_general_dilated(x, w, (1, 1), [(pad, pad), (pad, pad)])
            return y + b[None, :, None, None]

        xj, wj, bj, gj = (jnp.asarray(v) for v in (x, w, b, g))
        if not backward:
            f = jax.jit(conv)
            return lambda: f(xj, wj, bj).block_until_ready()
        if input_grad:
            f = jax.jit(lambda x, w, b, g: jax.vjp(conv, x, w, b)[1](g))
        else:
            f = jax.jit(lambda x, w, b, g: jax.vjp(lambda w, b: conv(x, w, b), w, b)[1](g))
        return lambda: jax.block_until_ready(f(xj, wj, bj, gj))

    return Case(name, {"arraycore": ac_setup, "torch": torch_setup, "jax": jax_setup})


def _demo_case(name, n, rng):
    """The demo convnet's conv stack on 8x8 digits, forward+backward."""
    x = rng.standard_normal((n, 1, 8, 8)).astype(np.float32)
    w1 = (rng.standard_normal((16, 1, 3, 3)) * 0.3).astype(np.float32)
    b1 = (rng.standard_normal(16) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((32, 16, 3, 3)) * 0.1).astype(np.float32)
    b2 = (rng.standard_normal(32) * 0.1).astype(np.float32)
    g = rng.standard_normal((n, 32, 2, 2)).astype(np.float32)

    def ac_setup(ac):
        from arraycore.nn import functional as F
        xa, ga = ac.asarray(x), ac.asarray(g)
        ps = [ac.asarray(v) for v in (w1, b1, w2, b2)]
        for p in ps:
            p.requires_grad_()

        def step():
            for p in ps:
                p.grad = None
            h = F.max_pool2d(ac.maximum(F.conv2d(xa, ps[0], ps[1], padding=1), 0.0), 2)
            h = F.max_pool2d(ac.maximum(F.conv2d(h, ps[2], ps[3], padding=1), 0.0), 2)
            h.backward(ga)
        return step

    def torch_setup(torch):
        tf = torch.nn.functional
        xt, gt = torch.from_numpy(x), torch.from_numpy(g)
        ps = [torch.from_numpy(v.copy()).requires_grad_() for v in (w1, b1, w2, b2)]

        def step():
            for p in ps:
                p.grad = None
            h = tf.max_pool2d(torch.relu(tf.conv2d(xt, ps[0], ps[1], padding=1)), 2)
            h = tf.max_pool2d(torch.relu(tf.conv2d(h, ps[2], ps[3], padding=1)), 2)
            h.backward(gt)
        return step

    def jax_setup(jnp):
        import jax

        def pool(h):
            return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2),
                                         "VALID")

        def net(ps, x):
            w1, b1, w2, b2 = ps
            h = jax.lax.conv_general_dilated(x, w1, (1, 1), [(1, 1), (1, 1)])
            h = pool(jax.nn.relu(h + b1[None, :, None, None]))
            h = jax.lax.conv_general_dilated(h, w2, (1, 1), [(1, 1), (1, 1)])
            return pool(jax.nn.relu(h + b2[None, :, None, None]))

        xj, gj = jnp.asarray(x), jnp.asarray(g)
        ps = [jnp.asarray(v) for v in (w1, b1, w2, b2)]
        f = jax.jit(lambda ps, x, g: jax.vjp(lambda p: net(p, x), ps)[1](g))
        return lambda: jax.block_until_ready(f(ps, xj, gj))

    return Case(name, {"arraycore": ac_setup, "torch": torch_setup, "jax": jax_setup})


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)
    n = 8 if quick else 32
    return [
        _conv_case(f"conv2d fwd+bwd f32 N{n} 3->64 32x32 k3", n, 3, 64, 32, 3, 1, rng=rng),
        _conv_case(f"conv2d fwd f32 N{n} 3->64 32x32 k3", n, 3, 64, 32, 3, 1, backward=False,
                   rng=rng),
        _conv_case(f"conv2d fwd+bwd(x,w,b) f32 N{n} 64->64 16x16 k3", n, 64, 64, 16, 3, 1,
                   input_grad=True, rng=rng),
        _conv_case("demo conv1 fwd+bwd f32 N64 1->16 8x8", 64, 1, 16, 8, 3, 1, rng=rng),
        _conv_case("demo conv2 fwd+bwd(x,w,b) f32 N64 16->32 4x4", 64, 16, 32, 4, 3, 1,
                   input_grad=True, rng=rng),
        _demo_case("demo convnet stack fwd+bwd f32 N64 8x8", 64, rng),
    ]


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, argv=sys.argv[1:], description=__doc__.splitlines()[0]))
