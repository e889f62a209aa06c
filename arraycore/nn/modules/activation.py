"""L4: activation layers (torch.nn's names, constructor arguments and reprs); each calls
its nn.functional form."""

from __future__ import annotations

from .. import functional as F
from ..parameter import Parameter
from . import _layer_init as _init
from .module import Module

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "PReLU", "ELU", "SELU", "CELU", "GELU", "SiLU",
           "Mish", "Softplus", "Sigmoid", "Tanh", "Hardtanh", "Hardswish", "Hardsigmoid",
           "Softmax", "LogSoftmax", "Softmin", "LogSigmoid", "Softsign", "Tanhshrink",
           "Threshold", "Hardshrink", "Softshrink", "GLU"]


class _Inplace(Module):
    """An activation with only torch's `inplace=` argument."""

    _fn = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._fn(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class _Plain(Module):
    _fn = None

    def forward(self, input):
        return type(self)._fn(input)


class ReLU(_Inplace):
    """max(x, 0) (torch.nn.ReLU).

    >>> import arraycore as ac
    >>> ac.nn.ReLU()(ac.asarray([-1.0, 1.0]))
    Array([0., 1.], dtype=float64)
    """
    _fn = staticmethod(F.relu)


class ReLU6(_Inplace):
    """min(max(x, 0), 6) (torch.nn.ReLU6).

    >>> import arraycore as ac
    >>> ac.nn.ReLU6()(ac.asarray([7.0]))
    Array([6.], dtype=float64)
    """
    _fn = staticmethod(F.relu6)


class SELU(_Inplace):
    """SELU (torch.nn.SELU).

    >>> import arraycore as ac
    >>> ac.nn.SELU()(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _fn = staticmethod(F.selu)


class SiLU(_Inplace):
    """x sigmoid(x) (torch.nn.SiLU).

    >>> import arraycore as ac
    >>> ac.nn.SiLU()(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _fn = staticmethod(F.silu)


class Mish(_Inplace):
    """x tanh(softplus(x)) (torch.nn.Mish).

    >>> import arraycore as ac
    >>> ac.nn.Mish()(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _fn = staticmethod(F.mish)


class Hardswish(_Inplace):
    """x relu6(x + 3) / 6 (torch.nn.Hardswish).

    >>> import arraycore as ac
    >>> ac.nn.Hardswish()(ac.asarray([4.0]))
    Array([4.], dtype=float64)
    """
    _fn = staticmethod(F.hardswish)


class Hardsigmoid(_Inplace):
    """relu6(x + 3) / 6 (torch.nn.Hardsigmoid).

    >>> import arraycore as ac
    >>> ac.nn.Hardsigmoid()(ac.asarray([0.0]))
    Array([0.5], dtype=float64)
    """
    _fn = staticmethod(F.hardsigmoid)


class Sigmoid(_Plain):
    """1 / (1 + exp(-x)) (torch.nn.Sigmoid).

    >>> import arraycore as ac
    >>> ac.nn.Sigmoid()(ac.asarray([0.0]))
    Array([0.5], dtype=float64)
    """
    _fn = staticmethod(F.sigmoid)


class Tanh(_Plain):
    """tanh(x) (torch.nn.Tanh).

    >>> import arraycore as ac
    >>> ac.nn.Tanh()(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _fn = staticmethod(F.tanh)


class LogSigmoid(_Plain):
    """log(sigmoid(x)) (torch.nn.LogSigmoid).

    >>> import arraycore as ac
    >>> ac.nn.LogSigmoid()(ac.asarray([0.0]))
    Array([-0.69314718], dtype=float64)
    """
    _fn = staticmethod(F.logsigmoid)


class Softsign(_Plain):
    """x / (1 + |x|) (torch.nn.Softsign).

    >>> import arraycore as ac
    >>> ac.nn.Softsign()(ac.asarray([1.0]))
    Array([0.5], dtype=float64)
    """
    _fn = staticmethod(F.softsign)


class Tanhshrink(_Plain):
    """x - tanh(x) (torch.nn.Tanhshrink).

    >>> import arraycore as ac
    >>> ac.nn.Tanhshrink()(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _fn = staticmethod(F.tanhshrink)


class LeakyReLU(Module):
    """x if x > 0 else negative_slope x (torch.nn.LeakyReLU).

    >>> import arraycore as ac
    >>> ac.nn.LeakyReLU(0.1)(ac.asarray([-1.0]))
    Array([-0.1], dtype=float64)
    """

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace
                                                          else "")


class ELU(Module):
    """x if x > 0 else alpha (exp(x) - 1) (torch.nn.ELU).

    >>> import arraycore as ac
    >>> ac.nn.ELU()(ac.asarray([1.0]))
    Array([1.], dtype=float64)
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class CELU(ELU):
    """max(0, x) + min(0, alpha (exp(x / alpha) - 1)) (torch.nn.CELU).

    >>> import arraycore as ac
    >>> ac.nn.CELU()(ac.asarray([1.0]))
    Array([1.], dtype=float64)
    """

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class GELU(Module):
    """x Phi(x), exact or approximate="tanh" (torch.nn.GELU).

    >>> import arraycore as ac
    >>> ac.nn.GELU(approximate="tanh")(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """

    def __init__(self, approximate="none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate must be 'none' or 'tanh', got "
                             f"{approximate!r}")
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    """log(1 + exp(beta x)) / beta, linear above threshold (torch.nn.Softplus).

    >>> import arraycore as ac
    >>> ac.nn.Softplus()(ac.asarray([30.0]))
    Array([30.], dtype=float64)
    """

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """clip(x, min_val, max_val) (torch.nn.Hardtanh).

    >>> import arraycore as ac
    >>> ac.nn.Hardtanh()(ac.asarray([2.0]))
    Array([1.], dtype=float64)
    """

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if max_val <= min_val:
            raise ValueError("Hardtanh: max_val must be greater than min_val")
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (
            ", inplace=True" if self.inplace else "")


class Threshold(Module):
    """x if x > threshold else value (torch.nn.Threshold).

    >>> import arraycore as ac
    >>> ac.nn.Threshold(0.5, 0.0)(ac.asarray([0.2, 1.0]))
    Array([0., 1.], dtype=float64)
    """

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (
            ", inplace=True" if self.inplace else "")


class Hardshrink(Module):
    """x where |x| > lambd, else 0 (torch.nn.Hardshrink).

    >>> import arraycore as ac
    >>> ac.nn.Hardshrink()(ac.asarray([0.2]))
    Array([0.], dtype=float64)
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """Soft thresholding by lambd (torch.nn.Softshrink).

    >>> import arraycore as ac
    >>> ac.nn.Softshrink()(ac.asarray([1.0]))
    Array([0.5], dtype=float64)
    """

    def forward(self, input):
        return F.softshrink(input, self.lambd)


class GLU(Module):
    """a * sigmoid(b) of the halves along dim (torch.nn.GLU).

    >>> import arraycore as ac
    >>> ac.nn.GLU()(ac.ones((2, 4))).shape
    (2, 2)
    """

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class PReLU(Module):
    """x if x > 0 else a x with a learnable a per channel (num_parameters = 1 or the number
    of channels), initialised to `init` (torch.nn.PReLU).

    >>> import arraycore as ac
    >>> ac.nn.PReLU()(ac.asarray([-1.0], dtype=ac.float32))
    Array([-0.25], dtype=float32)
    """

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        import arraycore as xp
        _init.check_device(device, "PReLU")
        self.num_parameters = int(num_parameters)
        self.init = init
        self.weight = Parameter(xp.empty((self.num_parameters,),
                                         dtype=_init.factory_dtype(dtype)))
        self.reset_parameters()

    def reset_parameters(self):
        _init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class _SoftmaxBase(Module):
    _fn = None

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return type(self)._fn(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_SoftmaxBase):
    """softmax along dim (torch.nn.Softmax).

    >>> import arraycore as ac
    >>> ac.nn.Softmax(dim=0)(ac.asarray([0.0, 0.0]))
    Array([0.5, 0.5], dtype=float64)
    """
    _fn = staticmethod(F.softmax)


class LogSoftmax(_SoftmaxBase):
    """log_softmax along dim (torch.nn.LogSoftmax).

    >>> import arraycore as ac
    >>> ac.nn.LogSoftmax(dim=0)(ac.asarray([0.0, 0.0]))
    Array([-0.69314718, -0.69314718], dtype=float64)
    """
    _fn = staticmethod(F.log_softmax)


class Softmin(_SoftmaxBase):
    """softmin along dim (torch.nn.Softmin).

    >>> import arraycore as ac
    >>> ac.nn.Softmin(dim=0)(ac.asarray([0.0, 0.0]))
    Array([0.5, 0.5], dtype=float64)
    """
    _fn = staticmethod(F.softmin)
