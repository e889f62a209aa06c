"""L4: `Upsample`, `UpsamplingNearest2d`, `UpsamplingBilinear2d` (torch.nn's), calls of
nn.functional.interpolate."""

from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]


class Upsample(Module):
    """Resample to `size` or by `scale_factor` (torch.nn.Upsample).

    >>> import arraycore as ac
    >>> ac.nn.Upsample(scale_factor=2, mode="bilinear")(ac.ones((1, 1, 2, 2))).shape
    (1, 1, 4, 4)
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, (int, float)) \
            else (tuple(float(f) for f in scale_factor) if scale_factor else None)
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Nearest upsampling of (N, C, H, W) input (torch.nn.UpsamplingNearest2d).

    >>> import arraycore as ac
    >>> ac.nn.UpsamplingNearest2d(scale_factor=2)(ac.ones((1, 1, 2, 2))).shape
    (1, 1, 4, 4)
    """

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear upsampling with align_corners=True (torch.nn.UpsamplingBilinear2d).

    >>> import arraycore as ac
    >>> ac.nn.UpsamplingBilinear2d(scale_factor=2)(ac.ones((1, 1, 2, 2))).shape
    (1, 1, 4, 4)
    """

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
