"""L4: `Embedding` (torch.nn.Embedding: N(0, 1) init, padding_idx row zero and never
updated by gradients, max_norm renormalization, `from_pretrained`)."""

from __future__ import annotations

from .. import functional as F
from ..parameter import Parameter
from . import _layer_init as _init
from .module import Module

__all__ = ["Embedding"]


def _ns():
    import arraycore
    return arraycore


class Embedding(Module):
    """A lookup table of num_embeddings vectors of size embedding_dim (torch.nn.Embedding).

    >>> import arraycore as ac
    >>> emb = ac.nn.Embedding(10, 3, padding_idx=0)
    >>> emb(ac.asarray([[0, 4]])).shape, float(ac.sum(ac.abs(emb.weight[0])))
    ((1, 2, 3), 0.0)
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, device=None, dtype=None):
        super().__init__()
        xp = _ns()
        _init.check_device(device, "Embedding")
        self.num_embeddings = int(num_embeddings)
        self.embedding_dim = int(embedding_dim)
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= self.num_embeddings:
                raise ValueError("Embedding: padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -self.num_embeddings:
                    raise ValueError("Embedding: padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if _weight is None:
            self.weight = Parameter(xp.empty((self.num_embeddings, self.embedding_dim),
                                             dtype=_init.factory_dtype(dtype)),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (self.num_embeddings, self.embedding_dim):
                raise ValueError("Embedding: shape of weight does not match num_embeddings "
                                 "and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self):
        _init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self):
        if self.padding_idx is not None:
            xp = _ns()
            with xp.no_grad():
                self.weight[self.padding_idx] = 0

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm,
                           self.norm_type, self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None,
                        norm_type=2.0, scale_grad_by_freq=False, sparse=False):
        """An Embedding whose weight is `embeddings` (2-D; shared, not copied); freeze=True
        turns off its gradient (torch.nn.Embedding.from_pretrained).

        >>> import arraycore as ac
        >>> e = ac.nn.Embedding.from_pretrained(ac.eye(3, dtype=ac.float32))
        >>> e(ac.asarray([1])), e.weight.requires_grad
        (Array([[0., 1., 0.]], dtype=float32), False)
        """
        if embeddings.ndim != 2:
            raise ValueError("Embedding.from_pretrained: embeddings parameter is expected to "
                             "be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, _weight=embeddings, _freeze=freeze, padding_idx=padding_idx,
                   max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)
