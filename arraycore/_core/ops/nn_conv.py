"""L1: op-table entries of the convolution and pooling primitives (see arraycore/_core/op_table.py).

The functions live in arraycore/_nn_ops.py (namespace "_nn_ops": internal primitives with
normalized arguments: batched (N, C, *spatial) inputs, per-dimension tuples); the PyTorch-style
public forms (`ac.nn.functional.conv2d`, `max_pool2d`, `unfold`, ...) parse their arguments
and call these.  Native parts: `_native.conv_*`, `_native.*_pool*` (kernels/conv_*.cpp,
kernels/pool_*.cpp).  Rules: arraycore/autodiff/rules/nn_conv.py.  The three convolution
ops are closed under differentiation (the vjp of each is made of the other two), and so are
the pairs avg_pool / avg_pool_backward, adaptive_avg_pool / adaptive_avg_pool_backward,
im2col / col2im; max pooling's vjp is max_pool_backward, whose vjp is a gather.
"""

from ..op_table import OpDef, TestInfo, register

__all__ = ["conv", "conv_transpose", "conv_weight_grad", "max_pool", "adaptive_max_pool",
           "max_pool_backward", "avg_pool", "avg_pool_backward", "adaptive_avg_pool",
           "adaptive_avg_pool_backward", "im2col", "col2im"]


def _nn(name, arity, ref, notes, **kw):
    return register(OpDef(name, arity, "real floating", family="nn_conv",
                          namespace="_nn_ops",
                          test=TestInfo(ref=ref, rtol=1e-5, rtol64=1e-12, notes=notes), **kw))


conv = _nn("conv", 3, "torch.nn.functional.conv2d",
           "im2col + gemm; (x, weight, bias) -> (N, Cout, *out)")
conv_transpose = _nn("conv_transpose", 3, "torch.nn.functional.conv_transpose2d",
                     "gemm + col2im (the input adjoint of conv)")
conv_weight_grad = _nn("conv_weight_grad", 2, "torch.nn.grad.conv2d_weight",
                       "im2col + gemm: the weight adjoint of conv")
max_pool = _nn("max_pool", 1, "torch.nn.functional.max_pool2d",
               "(values, int64 indices within each input plane)")
adaptive_max_pool = _nn("adaptive_max_pool", 1, "torch.nn.functional.adaptive_max_pool2d",
                        "(values, int64 indices)")
max_pool_backward = _nn("max_pool_backward", 2, "torch.nn.functional.max_unpool2d",
                        "scatter-add through max-pooling indices", linear=True)
avg_pool = _nn("avg_pool", 1, "torch.nn.functional.avg_pool2d",
               "PyTorch's divisors (count_include_pad, divisor_override)", linear=True)
avg_pool_backward = _nn("avg_pool_backward", 1, "torch.nn.functional.avg_pool2d",
                        "the adjoint of avg_pool", linear=True)
adaptive_avg_pool = _nn("adaptive_avg_pool", 1, "torch.nn.functional.adaptive_avg_pool2d",
                        "windows [floor(o*in/out), ceil((o+1)*in/out))", linear=True)
adaptive_avg_pool_backward = _nn("adaptive_avg_pool_backward", 1,
                                 "torch.nn.functional.adaptive_avg_pool2d",
                                 "the adjoint of adaptive_avg_pool", linear=True)
im2col = _nn("im2col", 1, "torch.nn.functional.unfold", "(N, C, *in) -> (N, C*K, L)",
             linear=True)
col2im = _nn("col2im", 1, "torch.nn.functional.fold", "(N, C*K, L) -> (N, C, *out)",
             linear=True)
