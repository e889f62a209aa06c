"""The tape's graph and memory: saved values are freed as each node runs, and a graph is
freed by reference counting (no node <-> meta cycles), without the cyclic GC."""

from __future__ import annotations

import gc
import os
import warnings
import weakref

import numpy as np

import arraycore as ac


def _leaf(v=(0.5, -1.0, 2.0)):
    x = ac.asarray(np.array(v))
    x.requires_grad_()
    return x


def test_backward_frees_each_saved_array_as_soon_as_it_is_used():
    x = _leaf()
    h = x * 1.0
    t = ac.sin(h)          # SinBackward saves h
    u = ac.sum(ac.exp(t))  # ExpBackward saves its output
    w_h = weakref.ref(h)
    seen = []
    # The gradient reaches h's node right after SinBackward ran: h must be gone by then.
    h.register_hook(lambda g: seen.append(w_h() is None))
    del h, t
    assert w_h() is not None  # kept by SinBackward until backward
    u.backward()
    assert seen == [True]
    np.testing.assert_allclose(np.asarray(x.grad),
                               np.exp(np.sin(np.asarray(x.detach()))) *
                               np.cos(np.asarray(x.detach())))


def test_retain_graph_keeps_saved_arrays():
    x = _leaf()
    h = x * 1.0
    u = ac.sum(ac.sin(h))
    w_h = weakref.ref(h)
    del h
    u.backward(retain_graph=True)
    assert w_h() is not None
    u.backward()
    assert w_h() is None


def test_graph_is_freed_by_reference_counting():
    was = gc.isenabled()
    gc.disable()
    try:
        x = _leaf()

        def build():
            y = ac.tanh(x * 2.0)      # saves its output
            y.register_hook(lambda g: g)
            z = ac.sin(y) + 1.0
            z.retain_grad()
            return z

        z = build()
        node = z.grad_fn
        w_nodes = [weakref.ref(node)]
        while node.next_functions:
            node = node.next_functions[0][0]
            w_nodes.append(weakref.ref(node))
        del node
        assert type(w_nodes[-1]()).__name__ == "AccumulateGrad"
        del z
        assert all(w() is None for w in w_nodes)

        # After a backward pass (hooks and retain_grad ran), and after double backward.
        z = build()
        s = ac.sum(z)
        w = weakref.ref(s.grad_fn)
        s.backward()
        del s, z
        assert w() is None
        y = ac.exp(x)
        (g,) = ac.autograd.grad(ac.sum(y * y), x, create_graph=True)
        w = weakref.ref(g.grad_fn)
        del y
        ac.sum(g).backward()
        del g
        assert w() is None
    finally:
        if was:
            gc.enable()


def test_second_backward_through_nodes_that_saved_nothing():
    x = _leaf()
    s = ac.sum(ac.reshape(x + 1.0, (3, 1)) - x[:, None])
    s.backward()
    s.backward()
    np.testing.assert_allclose(np.asarray(x.grad), np.zeros(3))


def test_anomaly_trace_has_user_frames_only():
    pkg = os.path.dirname(ac.__file__)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with ac.autograd.detect_anomaly():
            x = ac.asarray(np.array([0.0, 1.0]))
            x.requires_grad_()
            y = ac.sqrt(x) * 0.0
            trace = y.grad_fn.next_functions[0][0].creation_trace
    assert trace
    assert not any(pkg in line for line in trace)
    assert "test_anomaly_trace_has_user_frames_only" in trace[-1]


class _Cube(ac.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * 3.0 * y / x


def test_function_graph_is_freed_by_reference_counting():
    """An autograd.Function node that saves its output keeps no meta of it either."""
    was = gc.isenabled()
    gc.disable()
    try:
        x = _leaf()
        y = _Cube.apply(x)
        w = weakref.ref(y.grad_fn)
        del y
        assert w() is None
        y = _Cube.apply(x)
        (g,) = ac.autograd.grad(ac.sum(y), x, create_graph=True)  # double backward
        np.testing.assert_allclose(np.asarray(g), 3 * np.asarray(x.detach()) ** 2)
        wg = weakref.ref(g.grad_fn)
        del y, g
        assert wg() is None
    finally:
        if was:
            gc.enable()


def test_mT_and_T_keep_the_history():
    x = _leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = np.arange(6.0).reshape(3, 2)
    for y in (x.mT, x.T):
        assert y.requires_grad and y.grad_fn is not None
        x.grad = None
        ac.sum(y * ac.asarray(w)).backward()
        np.testing.assert_array_equal(np.asarray(x.grad), w.T)
