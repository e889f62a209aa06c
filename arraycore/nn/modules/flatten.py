"""L4: `Flatten`, `Unflatten` (torch.nn's reshaping layers)."""

from __future__ import annotations

from .module import Module

__all__ = ["Flatten", "Unflatten"]


def _ns():
    import arraycore
    return arraycore


def flatten_dims(x, start_dim, end_dim, who="Flatten"):
    """x with axes start_dim..end_dim merged into one (torch.flatten); a view when possible."""
    nd = x.ndim
    if nd == 0:
        return _ns().reshape(x, (1,))
    s = start_dim + nd if start_dim < 0 else start_dim
    e = end_dim + nd if end_dim < 0 else end_dim
    if not (0 <= s < nd and 0 <= e < nd):
        raise IndexError(f"{who}: dimension out of range (start_dim={start_dim}, "
                         f"end_dim={end_dim} for a {nd}-D input)")
    if s > e:
        raise ValueError(f"{who}: start_dim cannot come after end_dim")
    n = 1
    for d in x.shape[s:e + 1]:
        n *= d
    return _ns().reshape(x, tuple(x.shape[:s]) + (n,) + tuple(x.shape[e + 1:]))


class Flatten(Module):
    """Merge axes start_dim..end_dim (default: all but the batch axis) (torch.nn.Flatten).

    >>> import arraycore as ac
    >>> ac.nn.Flatten()(ac.ones((2, 3, 4))).shape
    (2, 12)
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return flatten_dims(input, self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split axis `dim` into `unflattened_size` (one entry may be -1) (torch.nn.Unflatten).

    >>> import arraycore as ac
    >>> ac.nn.Unflatten(1, (3, 4))(ac.ones((2, 12))).shape
    (2, 3, 4)
    """

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, str):
            raise TypeError("Unflatten: named dimensions are not supported by arraycore; "
                            "pass an integer dim")
        if not isinstance(unflattened_size, (tuple, list)) or not all(
                isinstance(s, int) for s in unflattened_size):
            raise TypeError("Unflatten: unflattened_size must be a tuple of ints, but found "
                            f"{unflattened_size!r}")
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size)

    def forward(self, input):
        nd = input.ndim
        d = self.dim + nd if self.dim < 0 else self.dim
        if not 0 <= d < nd:
            raise IndexError(f"Unflatten: dimension out of range (dim={self.dim} for a "
                             f"{nd}-D input)")
        sizes = list(self.unflattened_size)
        n = input.shape[d]
        if sizes.count(-1) > 1:
            raise ValueError("Unflatten: only one dimension can be inferred (-1)")
        known = 1
        for s in sizes:
            if s != -1:
                known *= s
        if -1 in sizes:
            if known == 0 or n % known:
                raise ValueError(f"Unflatten: sizes {tuple(sizes)} don't multiply up to the "
                                 f"size of dim {self.dim} ({n}) in the input")
            sizes[sizes.index(-1)] = n // known
        elif known != n:
            raise ValueError(f"Unflatten: provided sizes {tuple(sizes)} don't multiply up to "
                             f"the size of dim {self.dim} ({n}) in the input tensor")
        shape = tuple(input.shape[:d]) + tuple(sizes) + tuple(input.shape[d + 1:])
        return _ns().reshape(input, shape)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
