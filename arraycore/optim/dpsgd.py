"""DP-SGD (Abadi et al. 2016, "Deep Learning with Differential Privacy", algorithm 1):
per-example gradient clipping, Gaussian noise, an SGD step, and an RDP accountant.

PyTorch needs the separate Opacus library for this; here per-example gradients come from
`vmap(grad)` (`ac.nn.utils.per_sample_grads`) and go straight to `DPSGD.step`.
"""

from __future__ import annotations

from ..native import _native
from ._checks import check_lr, check_nonneg
from .accountant import DEFAULT_ORDERS, RDPAccountant
from .optimizer import Optimizer

__all__ = ["DPSGD", "RDPAccountant"]


class DPSGD(Optimizer):
    """Differentially private SGD.

    `step(per_sample_grads)` takes each example's gradients: a list aligned with the
    optimizer's parameters (all groups, in order), each of shape `(B, *param.shape)`, or a
    dict `name -> array` as `ac.nn.utils.per_sample_grads` returns (build the optimizer from
    `model.named_parameters()` so the names are known; a dict is otherwise taken in the
    parameters' order).  A step then

    1. scales each example's gradient (all parameters together) to norm at most
       `max_grad_norm` C: g_b * min(1, C / ||g_b||);
    2. sums the clipped gradients over the batch and adds N(0, (noise_multiplier C)^2) noise
       to every coordinate (from `generator`, an `ac.random.Generator`; the global generator
       of `ac.random` when None);
    3. divides by `expected_batch_size` (the actual batch size B when None), and
    4. takes an SGD step (momentum, dampening, nesterov, weight_decay as `SGD`).

    Parameters' `.grad` is neither read nor written.  With `sample_rate` (the Poisson
    sampling probability of an example, batch size / dataset size) each step is recorded in
    `self.accountant` (an `RDPAccountant`), and `get_epsilon(delta)` reports the privacy
    spent so far.  The unclipped per-example norms of the last step are in
    `self.last_per_sample_norms`.

    Example:
        >>> import arraycore as ac
        >>> w = ac.zeros((2,)); w.requires_grad_()
        >>> opt = ac.optim.DPSGD([w], lr=1.0, max_grad_norm=1.0, noise_multiplier=0.0,
        ...                      expected_batch_size=2)
        >>> per_sample = ac.asarray([[3.0, 4.0], [0.3, 0.4]])   # norms 5 and 0.5
        >>> opt.step([per_sample])
        >>> [round(v, 6) for v in w.tolist()]                   # -(0.6 + 0.3, 0.8 + 0.4) / 2
        [-0.45, -0.6]
    """

    _who = "optim.DPSGD"

    def __init__(self, params, lr, max_grad_norm, noise_multiplier, expected_batch_size=None,
                 sample_rate=None, generator=None, momentum=0.0, dampening=0.0,
                 weight_decay=0.0, nesterov=False, *, accountant_orders=DEFAULT_ORDERS):
        if not float(max_grad_norm) > 0:
            raise ValueError(f"{self._who}: max_grad_norm must be positive, got "
                             f"{max_grad_norm}")
        if float(noise_multiplier) < 0:
            raise ValueError(f"{self._who}: noise_multiplier must be >= 0, got "
                             f"{noise_multiplier}")
        if expected_batch_size is not None and not (isinstance(expected_batch_size, int)
                                                    and expected_batch_size > 0):
            raise ValueError(f"{self._who}: expected_batch_size must be a positive integer, "
                             f"got {expected_batch_size!r}")
        if sample_rate is not None and not 0.0 < float(sample_rate) <= 1.0:
            raise ValueError(f"{self._who}: sample_rate must be in (0, 1], got {sample_rate}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=False)
        super().__init__(params, defaults)
        for g in self.param_groups:
            for p in g["params"]:
                if p.dtype.kind == "c":
                    raise TypeError(f"{self._who}: complex parameters are not supported")
        self.max_grad_norm = float(max_grad_norm)
        self.noise_multiplier = float(noise_multiplier)
        self.expected_batch_size = expected_batch_size
        self.sample_rate = None if sample_rate is None else float(sample_rate)
        self.generator = generator
        self.accountant = RDPAccountant(accountant_orders)
        self.last_per_sample_norms = None

    def _check_group(self, g):
        check_lr(self._who, g["lr"])
        check_nonneg(self._who, "momentum", g["momentum"])
        check_nonneg(self._who, "weight_decay", g["weight_decay"])
        if g["nesterov"] and (g["momentum"] <= 0 or g["dampening"] != 0):
            raise ValueError(f"{self._who}: Nesterov momentum requires a momentum and zero "
                             "dampening")

    # --- per-sample gradients -> list aligned with the parameters --------------------------

    def _aligned(self, per_sample_grads):
        params = [p for g in self.param_groups for p in g["params"]]
        if isinstance(per_sample_grads, dict):
            names = [n for g in self.param_groups for n in g.get("param_names", [])]
            if len(names) == len(params):
                missing = [n for n in names if n not in per_sample_grads]
                extra = [n for n in per_sample_grads if n not in set(names)]
                if missing or extra:
                    raise ValueError(f"{self._who}.step: per-sample gradient names do not match "
                                     f"the parameters' (missing {missing}, unexpected {extra})")
                grads = [per_sample_grads[n] for n in names]
            else:
                grads = list(per_sample_grads.values())
        else:
            grads = list(per_sample_grads)
        if len(grads) != len(params):
            raise ValueError(f"{self._who}.step: got {len(grads)} per-sample gradients for "
                             f"{len(params)} parameters")
        for i, (p, g) in enumerate(zip(params, grads)):
            if not hasattr(g, "shape") or tuple(g.shape[1:]) != tuple(p.shape) or g.ndim < 1:
                raise ValueError(f"{self._who}.step: per-sample gradient {i} must have shape "
                                 f"(batch, *{tuple(p.shape)}), got "
                                 f"{getattr(g, 'shape', type(g).__name__)}")
            if g.dtype != p.dtype:
                raise TypeError(f"{self._who}.step: per-sample gradient {i} has dtype "
                                f"{g.dtype}, its parameter {p.dtype}")
        return params, grads

    def _noise(self, p):
        gen = self.generator
        if gen is None:
            try:
                from .. import random as _random
            except ImportError:
                raise RuntimeError(f"{self._who}: no noise source: pass generator= (an "
                                   "ac.random.Generator)") from None
            gen = _random.get_global_generator()
        return gen.standard_normal(size=p.shape, dtype=p.dtype)

    # --- step -----------------------------------------------------------------------------

    def step(self, per_sample_grads, closure=None):
        """One DP-SGD step from the per-example gradients (see the class docstring).
        Returns the closure's loss when a closure is given."""
        import arraycore as ac
        from ..autodiff.grad_mode import enable_grad, no_grad
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        params, grads = self._aligned(per_sample_grads)
        batch = grads[0].shape[0]
        if any(g.shape[0] != batch for g in grads):
            raise ValueError(f"{self._who}.step: per-sample gradients have different batch "
                             "sizes")
        with no_grad():
            grads = [ac.asarray(g) for g in grads]
            sums = [ac.zeros(p.shape, dtype=p.dtype) for p in params]
            norms = _native.optim_clip_and_sum(grads, sums, self.max_grad_norm)
            self.last_per_sample_norms = norms
            divisor = float(self.expected_batch_size or batch)
            std = self.noise_multiplier * self.max_grad_norm
            private = {}
            for p, s in zip(params, sums):
                if std > 0:
                    s = s + std * self._noise(p)
                private[id(p)] = s / divisor
            for group in self.param_groups:
                self._sgd_group(group, private)
        if self.sample_rate is not None:
            self.accountant.step(self.noise_multiplier, self.sample_rate)
        return loss

    def _sgd_group(self, group, private):
        ps = [p for p in group["params"] if id(p) in private]
        if not ps:
            return
        momentum = float(group["momentum"])
        for bucket in self._buckets(ps, lambda p: p._dtype_code):
            bufs, first = [], []
            if momentum != 0:
                for p in bucket:
                    st = self.state.setdefault_dict(p)
                    buf = st.get("momentum_buffer")
                    first.append(buf is None)
                    if buf is None:
                        buf = st["momentum_buffer"] = self._zeros(p)
                    bufs.append(buf)
            _native.optim_sgd(bucket, [private[id(p)] for p in bucket], bufs, first,
                              float(group["lr"]), momentum, float(group["dampening"]),
                              float(group["weight_decay"]), bool(group["nesterov"]), False)
            self._bump(bucket)

    def get_epsilon(self, delta):
        """Epsilon of (epsilon, delta)-DP spent by the steps taken (RDP accountant)."""
        if self.sample_rate is None:
            raise ValueError(f"{self._who}.get_epsilon: the sampling rate is unknown; create "
                             "the optimizer with sample_rate=batch_size / dataset_size")
        return self.accountant.get_epsilon(delta)

    def state_dict(self):
        d = super().state_dict()
        d["accountant"] = self.accountant.state_dict()
        return d

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        acc = state_dict.pop("accountant", None)
        super().load_state_dict(state_dict)
        if acc is not None:
            self.accountant.load_state_dict(acc)
