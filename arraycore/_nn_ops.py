"""L2: the convolution and pooling primitives of the op table (arraycore/_core/ops/nn_conv.py).

These are the internal building blocks of `ac.nn.functional`'s conv / pool / unfold / fold:
arguments already normalized (a batched (N, C, *spatial) input with 1 to 3 spatial
dimensions, one int per spatial dimension for stride / dilation / kernel size, one
(before, after) pair per dimension for convolution padding).  Each is one native call
(kernels/conv_*.cpp, kernels/pool_*.cpp) on float32 or float64 arrays; autodiff and vmap go
through their rules (arraycore/autodiff/rules/nn_conv.py).  Use the `ac.nn.functional` forms
in user code: they take PyTorch's arguments and raise errors that name the function.

>>> import arraycore as ac
>>> x = ac.ones((1, 1, 4, 4))
>>> w = ac.ones((2, 1, 3, 3))
>>> ac._nn_ops.conv(x, w, None, stride=(1, 1), padding=((1, 1), (1, 1))).shape
(1, 2, 4, 4)
"""

from __future__ import annotations

from .native import _native

__all__ = ["conv", "conv_transpose", "conv_weight_grad", "max_pool", "adaptive_max_pool",
           "max_pool_backward", "avg_pool", "avg_pool_backward", "adaptive_avg_pool",
           "adaptive_avg_pool_backward", "im2col", "col2im"]


# --- sizes ------------------------------------------------------------------------------------

def _ones(nd):
    return (1,) * nd


def _pairs(padding, nd):
    """((lo, hi), ...) from None, ints or pairs."""
    if padding is None:
        return ((0, 0),) * nd
    return tuple((p, p) if isinstance(p, int) else (int(p[0]), int(p[1])) for p in padding)


def conv_output_size(in_size, kernel, stride, padding, dilation, who="conv"):
    """Output spatial sizes of a convolution (padding: (lo, hi) pairs)."""
    out = []
    for i, k, s, (lo, hi), d in zip(in_size, kernel, stride, padding, dilation):
        span = i + lo + hi - d * (k - 1) - 1
        if span < 0:
            raise ValueError(f"{who}: input spatial size {tuple(in_size)} (padded "
                             f"{tuple(i + lo + hi for i, (lo, hi) in zip(in_size, padding))}) "
                             f"is smaller than the dilated kernel "
                             f"{tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))}")
        out.append(span // s + 1)
    return tuple(out)


def conv_transpose_output_size(in_size, kernel, stride, padding, output_padding, dilation,
                               who="conv_transpose"):
    out = []
    for i, k, s, (lo, hi), op, d in zip(in_size, kernel, stride, padding, output_padding,
                                        dilation):
        o = (i - 1) * s - lo - hi + d * (k - 1) + 1 + op
        if o <= 0:
            raise ValueError(f"{who}: computed output size {o} is not positive")
        out.append(o)
    return tuple(out)


def pool_output_size(in_size, kernel, stride, padding, dilation, ceil_mode, who="pool"):
    """PyTorch's pooling output size (a window must start inside the input or its left
    padding when ceil_mode rounds up)."""
    out = []
    for i, k, s, p, d in zip(in_size, kernel, stride, padding, dilation):
        span = i + 2 * p - d * (k - 1) - 1
        o = (span + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (o - 1) * s >= i + p:
            o -= 1
        if span < 0 or o <= 0:
            raise ValueError(f"{who}: output size would be {o} for input size {i}, kernel "
                             f"{k}, stride {s}, padding {p}, dilation {d}")
        out.append(o)
    return tuple(out)


def _spatial(x):
    return tuple(x.shape[2:])


def _lo(padding):
    return [lo for lo, _ in padding]


# --- convolution ------------------------------------------------------------------------------

def conv(x, weight, bias=None, stride=None, padding=None, dilation=None, groups=1):
    """Convolution (cross-correlation) of x (N, Cin, *in) with weight (Cout, Cin/groups, *k)
    plus bias (Cout); padding: one (before, after) pair per spatial dimension."""
    nd = x.ndim - 2
    stride = tuple(stride or _ones(nd))
    dilation = tuple(dilation or _ones(nd))
    padding = _pairs(padding, nd)
    kernel = tuple(weight.shape[2:])
    out = conv_output_size(_spatial(x), kernel, stride, padding, dilation)
    return _native.conv_forward(x, weight, bias, list(_spatial(x)), list(out), list(kernel),
                                list(stride), _lo(padding), list(dilation), int(groups))


def conv_transpose(x, weight, bias=None, stride=None, padding=None, output_padding=None,
                   dilation=None, groups=1):
    """Transposed convolution of x (N, Cin, *in) with weight (Cin, Cout/groups, *k) plus bias
    (Cout): the adjoint in the input of `conv` with the same parameters."""
    nd = x.ndim - 2
    stride = tuple(stride or _ones(nd))
    dilation = tuple(dilation or _ones(nd))
    padding = _pairs(padding, nd)
    output_padding = tuple(output_padding or (0,) * nd)
    kernel = tuple(weight.shape[2:])
    out = conv_transpose_output_size(_spatial(x), kernel, stride, padding, output_padding,
                                     dilation)
    return _native.conv_backward_input(x, weight, bias, list(out), list(_spatial(x)),
                                       list(kernel), list(stride), _lo(padding),
                                       list(dilation), int(groups))


def conv_weight_grad(x, grad_output, kernel_size, stride=None, padding=None, dilation=None,
                     groups=1):
    """The gradient of `conv` with respect to its weight: x (N, Cin, *in), grad_output
    (N, Cout, *out) -> (Cout, Cin/groups, *kernel_size)."""
    nd = x.ndim - 2
    stride = tuple(stride or _ones(nd))
    dilation = tuple(dilation or _ones(nd))
    padding = _pairs(padding, nd)
    out = conv_output_size(_spatial(x), tuple(kernel_size), stride, padding, dilation,
                           "conv_weight_grad")
    if out != _spatial(grad_output):
        raise ValueError(f"conv_weight_grad: grad_output spatial size {_spatial(grad_output)} "
                         f"is not the convolution's output size {out}")
    return _native.conv_backward_weight(x, grad_output, list(_spatial(x)),
                                        list(_spatial(grad_output)), list(kernel_size),
                                        list(stride), _lo(padding), list(dilation),
                                        int(groups))


# --- pooling ----------------------------------------------------------------------------------

def _pool_params(x, kernel_size, stride, padding, dilation):
    nd = x.ndim - 2
    kernel_size = tuple(kernel_size)
    stride = tuple(stride) if stride else kernel_size
    padding = tuple(padding) if padding else (0,) * nd
    dilation = tuple(dilation) if dilation else _ones(nd)
    return kernel_size, stride, padding, dilation


def max_pool(x, kernel_size, stride=None, padding=None, dilation=None, ceil_mode=False):
    """Max pooling of x (N, C, *in): (values, int64 indices of the maxima, flat within each
    input plane)."""
    k, s, p, d = _pool_params(x, kernel_size, stride, padding, dilation)
    out = pool_output_size(_spatial(x), k, s, p, d, ceil_mode, "max_pool")
    return tuple(_native.max_pool(x, list(_spatial(x)), list(out), list(k), list(s), list(p),
                                  list(d)))


def adaptive_max_pool(x, output_size):
    """Adaptive max pooling of x (N, C, *in) to output_size: (values, int64 indices)."""
    return tuple(_native.adaptive_max_pool(x, [int(v) for v in output_size]))


def max_pool_backward(grad_output, indices, input_size):
    """Scatter-add of grad_output (N, C, *out) through max-pooling indices into
    (N, C, *input_size): the gradient of max_pool / adaptive_max_pool."""
    return _native.max_pool_backward(grad_output, indices, [int(v) for v in input_size])


def avg_pool(x, kernel_size, stride=None, padding=None, ceil_mode=False,
             count_include_pad=True, divisor_override=None):
    """Average pooling of x (N, C, *in) with PyTorch's divisors."""
    k, s, p, d = _pool_params(x, kernel_size, stride, padding, None)
    out = pool_output_size(_spatial(x), k, s, p, d, ceil_mode, "avg_pool")
    return _native.avg_pool(x, list(_spatial(x)), list(out), list(k), list(s), list(p),
                            bool(count_include_pad), int(divisor_override or 0))


def avg_pool_backward(grad_output, input_size, kernel_size, stride=None, padding=None,
                      ceil_mode=False, count_include_pad=True, divisor_override=None):
    """The adjoint of avg_pool: grad_output (N, C, *out) -> (N, C, *input_size)."""
    nd = grad_output.ndim - 2
    k = tuple(kernel_size)
    s = tuple(stride) if stride else k
    p = tuple(padding) if padding else (0,) * nd
    out = pool_output_size(tuple(input_size), k, s, p, _ones(nd), ceil_mode, "avg_pool")
    if out != _spatial(grad_output):
        raise ValueError(f"avg_pool_backward: gradient spatial size {_spatial(grad_output)} "
                         f"does not match the pooling output {out}")
    return _native.avg_pool_backward(grad_output, [int(v) for v in input_size], list(out),
                                     list(k), list(s), list(p), bool(count_include_pad),
                                     int(divisor_override or 0))


def adaptive_avg_pool(x, output_size):
    """Adaptive average pooling of x (N, C, *in) to output_size."""
    return _native.adaptive_avg_pool(x, [int(v) for v in output_size])


def adaptive_avg_pool_backward(grad_output, input_size):
    """The adjoint of adaptive_avg_pool: (N, C, *out) -> (N, C, *input_size)."""
    return _native.adaptive_avg_pool_backward(grad_output, [int(v) for v in input_size])


# --- im2col / col2im --------------------------------------------------------------------------

def im2col(x, kernel_size, dilation=None, padding=None, stride=None):
    """Sliding blocks of x (N, C, *in) as columns: (N, C*prod(kernel_size), L)
    (torch.nn.functional.unfold for any 1-3 spatial dimensions)."""
    nd = x.ndim - 2
    k = tuple(kernel_size)
    d = tuple(dilation or _ones(nd))
    p = tuple(padding or (0,) * nd)
    s = tuple(stride or _ones(nd))
    out = conv_output_size(_spatial(x), k, s, tuple((v, v) for v in p), d, "unfold")
    return _native.conv_unfold(x, list(_spatial(x)), list(out), list(k), list(s), list(p),
                               list(d))


def col2im(x, output_size, kernel_size, dilation=None, padding=None, stride=None):
    """Sums columns x (N, C*prod(kernel_size), L) back into (N, C, *output_size), the adjoint
    of im2col (torch.nn.functional.fold)."""
    nd = len(output_size)
    k = tuple(kernel_size)
    d = tuple(dilation or _ones(nd))
    p = tuple(padding or (0,) * nd)
    s = tuple(stride or _ones(nd))
    blocks = conv_output_size(tuple(output_size), k, s, tuple((v, v) for v in p), d, "fold")
    kprod = 1
    for v in k:
        kprod *= v
    if x.ndim != 3 or x.shape[1] % kprod:
        raise ValueError(f"fold: expected (N, C * {kprod}, L) input, got shape {tuple(x.shape)}")
    nblocks = 1
    for v in blocks:
        nblocks *= v
    if x.shape[2] != nblocks:
        raise ValueError(f"fold: expected {nblocks} blocks (the last dimension) for output size "
                         f"{tuple(output_size)}, got {x.shape[2]}")
    return _native.conv_fold(x, x.shape[1] // kprod, [int(v) for v in output_size],
                             list(blocks), list(k), list(s), list(p), list(d))
