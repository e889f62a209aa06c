"""L4: module backward hooks (`register_full_backward_hook`, `register_full_backward_pre_hook`).

As PyTorch's `BackwardHook` does, the module's array inputs and outputs are passed through an
identity `autograd.Function` each: the outputs' node receives the gradients of the outputs
(the pre-hooks run there and may replace them), the inputs' node receives the gradients of
the inputs, and the full hooks run there with both (and may replace the input gradients).
Only the tape is hooked (no transform level active), as PyTorch does not run module backward
hooks under torch.func either.
"""

from __future__ import annotations

from ...autodiff.function import Function
from ...autodiff.grad_mode import is_grad_enabled
from ...autodiff.state import STATE
from ...native import _native

Array = _native.Array


def _requires_grad(v):
    return isinstance(v, Array) and v.requires_grad


class _Identity(Function):
    """y_i = x_i; backward hands the gradients to `hook(grads) -> grads`."""

    @staticmethod
    def forward(hook, *xs):
        import arraycore as ac
        return tuple(ac.positive(x) for x in xs)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.hook = inputs[0]
        ctx.set_materialize_grads(False)  # an unused output's gradient is None, as in PyTorch

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.hook(tuple(grads)))


class BackwardHookState:
    """The gradients seen by one call of a module with backward hooks."""

    def __init__(self, module, n_args):
        self.module = module
        self.n_args = n_args
        self.input_positions: list[int] = []
        self.grad_outputs = None

    def _check(self, new, old, who):
        if new is None:
            return old
        new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
        if len(new) != len(old):
            raise RuntimeError(f"{who} hook returned {len(new)} gradients, expected "
                               f"{len(old)}")
        return new

    def _run_full_hooks(self, grad_input):
        m = self.module
        for hook in list(m._backward_hooks.values()):
            grad_input = self._check(hook(m, grad_input, self.grad_outputs), grad_input,
                                     "backward")
        return grad_input

    def wrap_inputs(self, args):
        self.args = args
        self.input_positions = [i for i, a in enumerate(args) if _requires_grad(a)]
        if not self.input_positions:
            return args

        def on_input_grads(grads):
            # PyTorch's grad_input: None for non-array arguments, zeros for arrays that do
            # not require grad
            import arraycore as ac
            full = [ac.zeros_like(a) if isinstance(a, Array) else None for a in self.args]
            for pos, g in zip(self.input_positions, grads):
                full[pos] = g
            full = self._run_full_hooks(tuple(full))
            return tuple(full[pos] for pos in self.input_positions)

        wrapped = _Identity.apply(on_input_grads, *(args[i] for i in self.input_positions))
        args = list(args)
        for pos, w in zip(self.input_positions, wrapped):
            args[pos] = w
        return tuple(args)

    def wrap_outputs(self, out):
        single = isinstance(out, Array)
        outs = (out,) if single else tuple(out) if isinstance(out, (tuple, list)) else None
        if outs is None:
            return out
        positions = [i for i, o in enumerate(outs) if _requires_grad(o)]
        if not positions:
            return out
        m = self.module

        def on_output_grads(grads):
            for hook in list(m._backward_pre_hooks.values()):
                grads = self._check(hook(m, grads), grads, "backward pre-")
            self.grad_outputs = grads
            if not self.input_positions:  # nothing below to hook: call the hooks now
                self._run_full_hooks((None,) * self.n_args)
            return grads

        wrapped = _Identity.apply(on_output_grads, *(outs[i] for i in positions))
        new = list(outs)
        for pos, w in zip(positions, wrapped):
            new[pos] = w
        if single:
            return new[0]
        return type(out)(new) if isinstance(out, tuple) and type(out) is tuple else \
            (tuple(new) if isinstance(out, tuple) else new)


def active() -> bool:
    """Backward hooks run on the tape only (grad mode on, no transform level)."""
    return is_grad_enabled() and not STATE.stack

