"""L4: loss modules (torch.nn's names, constructor arguments (the deprecated size_average /
reduce included) and buffers: `weight` and `pos_weight` are registered buffers)."""

from __future__ import annotations

from .. import functional as F
from ..functional._layer_utils import legacy_reduction
from .module import Module

__all__ = ["MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss",
           "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "CosineEmbeddingLoss",
           "MarginRankingLoss", "TripletMarginLoss", "SoftMarginLoss", "HingeEmbeddingLoss",
           "PoissonNLLLoss", "GaussianNLLLoss"]


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = legacy_reduction(size_average, reduce, reduction)


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    """Mean squared error (torch.nn.MSELoss).

    >>> import arraycore as ac
    >>> ac.nn.MSELoss()(ac.asarray([1.0, 3.0]), ac.asarray([0.0, 0.0]))
    Array(5., dtype=float64)
    """

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error (torch.nn.L1Loss).

    >>> import arraycore as ac
    >>> ac.nn.L1Loss(reduction="sum")(ac.asarray([1.0, -3.0]), ac.asarray([0.0, 0.0]))
    Array(4., dtype=float64)
    """

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Smooth L1 loss with threshold beta (torch.nn.SmoothL1Loss).

    >>> import arraycore as ac
    >>> ac.nn.SmoothL1Loss()(ac.asarray([0.5]), ac.asarray([0.0]))
    Array(0.125, dtype=float64)
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Huber loss with threshold delta (torch.nn.HuberLoss).

    >>> import arraycore as ac
    >>> ac.nn.HuberLoss()(ac.asarray([3.0]), ac.asarray([0.0]))
    Array(2.5, dtype=float64)
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits with class indices or probabilities (torch.nn.CrossEntropyLoss).

    >>> import arraycore as ac
    >>> ac.nn.CrossEntropyLoss()(ac.asarray([[0.0, 0.0]]), ac.asarray([0]))
    Array(0.69314718, dtype=float64)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean", label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight,
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of log-probabilities (torch.nn.NLLLoss).

    >>> import arraycore as ac
    >>> ac.nn.NLLLoss()(ac.asarray([[-1.0, -2.0]]), ac.asarray([1]))
    Array(2., dtype=float64)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities (torch.nn.BCELoss).

    >>> import arraycore as ac
    >>> ac.nn.BCELoss()(ac.asarray([0.5]), ac.asarray([1.0]))
    Array(0.69314718, dtype=float64)
    """

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight,
                                      reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits, stable form, optional pos_weight
    (torch.nn.BCEWithLogitsLoss).

    >>> import arraycore as ac
    >>> ac.nn.BCEWithLogitsLoss()(ac.asarray([0.0]), ac.asarray([1.0]))
    Array(0.69314718, dtype=float64)
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean",
                 pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class KLDivLoss(_Loss):
    """KL divergence of log-probabilities input from target (torch.nn.KLDivLoss).

    >>> import arraycore as ac
    >>> ac.nn.KLDivLoss(reduction="batchmean")(ac.log(ac.asarray([[0.5, 0.5]])),
    ...                                        ac.asarray([[0.5, 0.5]]))
    Array(0., dtype=float64)
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class CosineEmbeddingLoss(_Loss):
    """Cosine embedding loss (torch.nn.CosineEmbeddingLoss).

    >>> import arraycore as ac
    >>> ac.nn.CosineEmbeddingLoss()(ac.asarray([[1.0, 0.0]]), ac.asarray([[0.0, 1.0]]),
    ...                             ac.asarray([1]))
    Array(1., dtype=float64)
    """

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class MarginRankingLoss(_Loss):
    """max(0, -y (x1 - x2) + margin) (torch.nn.MarginRankingLoss).

    >>> import arraycore as ac
    >>> ac.nn.MarginRankingLoss()(ac.asarray([1.0]), ac.asarray([2.0]), ac.asarray([1.0]))
    Array(1., dtype=float64)
    """

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """Triplet margin loss with p-norm distances (torch.nn.TripletMarginLoss).

    >>> import arraycore as ac
    >>> a = ac.zeros((1, 2))
    >>> ac.nn.TripletMarginLoss()(a, a, a + 3.0)
    Array(0., dtype=float64)
    """

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None,
                 reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: margin must be greater than 0, got {margin}")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-y x)) (torch.nn.SoftMarginLoss).

    >>> import arraycore as ac
    >>> ac.nn.SoftMarginLoss()(ac.asarray([0.0]), ac.asarray([1.0]))
    Array(0.69314718, dtype=float64)
    """

    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """Hinge embedding loss (torch.nn.HingeEmbeddingLoss).

    >>> import arraycore as ac
    >>> ac.nn.HingeEmbeddingLoss()(ac.asarray([2.0]), ac.asarray([1.0]))
    Array(2., dtype=float64)
    """

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin,
                                      reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """Poisson negative log-likelihood (torch.nn.PoissonNLLLoss).

    >>> import arraycore as ac
    >>> ac.nn.PoissonNLLLoss()(ac.asarray([0.0]), ac.asarray([1.0]))
    Array(1., dtype=float64)
    """

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                 reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                  eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """Gaussian negative log-likelihood (torch.nn.GaussianNLLLoss).

    >>> import arraycore as ac
    >>> ac.nn.GaussianNLLLoss()(ac.asarray([0.0]), ac.asarray([0.0]), ac.asarray([1.0]))
    Array(0., dtype=float64)
    """

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction=reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                   reduction=self.reduction)
