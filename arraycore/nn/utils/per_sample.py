"""L4: per-example gradients of a model's loss (`ac.nn.utils.per_sample_grads`), beyond
PyTorch (where DP-SGD needs Opacus): one `vmap(grad(...))` of the loss of a single example,
run through `functional_call`.

Note [Modules that mix examples]: a module class whose training-mode forward combines the
examples of a batch (BatchNorm's batch statistics) sets the class attribute
`_mixes_examples_in_training = True` (declared False on `Module`).  Per-example gradients are
not defined for such a model in training mode (one example's output depends on the others),
so `per_sample_grads` refuses it with a ValueError suggesting GroupNorm or eval mode.
`ac.optim.DPSGD` relies on the same check.
"""

from __future__ import annotations

from ..modules.module import Module
from .stateless import functional_call

__all__ = ["per_sample_grads", "check_per_sample_safe"]


def check_per_sample_safe(model: Module, who: str = "per_sample_grads") -> None:
    """Raises ValueError when a submodule in training mode mixes the examples of a batch
    (see Note [Modules that mix examples])."""
    for name, m in model.named_modules():
        if m.training and getattr(m, "_mixes_examples_in_training", False):
            where = f" (at '{name}')" if name else ""
            raise ValueError(
                f"{who}: {type(m).__name__}{where} mixes the examples of a batch in training "
                "mode (batch statistics), so per-example gradients are not defined. Use "
                "GroupNorm (or LayerNorm) instead, or call model.eval() to use its running "
                "statistics.")


def per_sample_grads(model: Module, loss_fn, inputs, targets=None, *,
                     randomness: str | None = None, chunk_size: int | None = None) -> dict:
    """The gradient of `loss_fn(model(x), y)` with respect to each trainable parameter, for
    every example (x, y) of the batch separately: a dict name -> array whose first axis is the
    batch.  Each example is run as a batch of one (`x[None]`, `y[None]`), so `loss_fn` is the
    batch loss used in training (e.g. a mean-reduced cross entropy).  `inputs` may be an array
    or a tuple of arrays (several forward arguments, batched on axis 0); `targets` may be
    None (then `loss_fn(output)`).  `randomness` is passed to `vmap` (Dropout in training mode
    needs "different" or "same"); `chunk_size` bounds memory.  Parameters with
    requires_grad=False are held constant.  Models that mix examples in training mode
    (BatchNorm) raise ValueError.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Affine(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.w = nn.Parameter(ac.ones((1, 3), dtype=ac.float32))
    ...     def forward(self, x):
    ...         return x @ self.w.mT
    >>> mse = lambda out, y: ac.mean((out[:, 0] - y) ** 2)
    >>> g = nn.utils.per_sample_grads(Affine(), mse, ac.ones((5, 3), dtype=ac.float32),
    ...                               ac.zeros(5, dtype=ac.float32))
    >>> g["w"].shape
    (5, 1, 3)
    """
    import arraycore as ac
    if not isinstance(model, Module):
        raise TypeError(f"per_sample_grads: expected an ac.nn.Module, got "
                        f"{type(model).__name__}")
    check_per_sample_safe(model)
    multi = isinstance(inputs, (tuple, list))
    xs = tuple(inputs) if multi else (inputs,)
    if not xs:
        raise ValueError("per_sample_grads: no inputs given")
    n = xs[0].shape[0] if xs[0].ndim else None
    for x in xs:
        if x.ndim == 0 or x.shape[0] != n:
            raise ValueError("per_sample_grads: every input needs the batch as its first "
                             f"axis of one size; got shapes {[tuple(v.shape) for v in xs]}")
    if targets is not None and (targets.ndim == 0 or targets.shape[0] != n):
        raise ValueError(f"per_sample_grads: targets have shape {tuple(targets.shape)}, "
                         f"expected a first axis of {n} examples")
    trainable = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}
    if not trainable:
        raise ValueError("per_sample_grads: the model has no parameter that requires grad")
    frozen = {k: p.detach() for k, p in model.named_parameters() if not p.requires_grad}
    buffers = {k: b for k, b in model.named_buffers()}
    frozen.update(buffers)

    def loss_of_one(params, example, target):
        batch = tuple(x[None] for x in example)
        out = functional_call(model, (params, frozen), batch)
        if target is None:
            return loss_fn(out)
        return loss_fn(out, target[None])

    grad_fn = ac.func.grad(loss_of_one)
    kw = {"chunk_size": chunk_size}
    if randomness is not None:
        kw["randomness"] = randomness
    in_dims = (None, 0, 0 if targets is not None else None)
    grads = ac.func.vmap(grad_fn, in_dims=in_dims, **kw)(trainable, xs, targets)
    return {k: grads[k] for k in trainable}  # named_parameters' order (pytrees sort keys)
