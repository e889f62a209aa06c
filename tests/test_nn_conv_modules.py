"""The convolution and pooling modules of ac.nn against torch.nn (2.13 CPU): identical weights
(copied through state dicts) give the same outputs and gradients, for every padding mode;
PyTorch's default initialisation (bounds and spread), reprs, ConvTranspose's output_size;
per-example gradients through functional_call + vmap(grad) against a loop in torch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arraycore as ac
from arraycore import nn

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _init_generator(monkeypatch):
    """Until ac.random is merged, nn.init draws from a NumPy Generator (a test stand-in)."""
    try:
        import arraycore.random  # noqa: F401
    except ImportError:
        from arraycore.nn import init
        rng = np.random.default_rng(0)
        monkeypatch.setattr(init, "_generator", lambda g: g if g is not None else rng)
    yield


def _copy_from_torch(m_ac, m_t):
    m_ac.load_state_dict({k: ac.asarray(v.detach().numpy().copy())
                          for k, v in m_t.state_dict().items()})


def _compare(m_ac, m_t, x, rtol=1e-5, **fw):
    xa = ac.asarray(x.copy())
    xt = torch.from_numpy(x.copy())
    xa.requires_grad_()
    xt.requires_grad_()
    ya, yt = m_ac(xa, **fw), m_t(xt, **fw)
    np.testing.assert_allclose(np.asarray(ya), yt.detach().numpy(), rtol=rtol, atol=rtol)
    g = np.random.default_rng(1).standard_normal(tuple(yt.shape)).astype(x.dtype)
    ac.sum(ya * ac.asarray(g)).backward()
    (yt * torch.from_numpy(g)).sum().backward()
    np.testing.assert_allclose(np.asarray(xa.grad), xt.grad.numpy(), rtol=rtol, atol=rtol)
    params_t = dict(m_t.named_parameters())
    for name, p in m_ac.named_parameters():
        np.testing.assert_allclose(np.asarray(p.grad), params_t[name].grad.numpy(), rtol=rtol,
                                   atol=rtol, err_msg=name)


CONV_MODULES = [
    ("Conv1d", (3, 4, 3), dict(padding="same", padding_mode="reflect"), (2, 3, 9)),
    ("Conv1d", (4, 6, 4), dict(stride=2, padding=2, padding_mode="circular", groups=2),
     (2, 4, 11)),
    ("Conv2d", (3, 5, 3), dict(padding=1), (2, 3, 8, 7)),
    ("Conv2d", (4, 4, (3, 2)), dict(padding=(1, 2), padding_mode="replicate", groups=4,
                                    bias=False), (1, 4, 6, 6)),
    ("Conv2d", (2, 3, 4), dict(padding="same", dilation=2, padding_mode="reflect"),
     (2, 2, 9, 8)),
    ("Conv2d", (2, 3, 3), dict(stride=2, padding="valid"), (2, 7, 7)),   # unbatched
    ("Conv3d", (2, 3, 2), dict(padding=1, padding_mode="circular"), (1, 2, 4, 3, 5)),
    ("ConvTranspose1d", (4, 2, 3), dict(stride=2, output_padding=1), (2, 4, 5)),
    ("ConvTranspose2d", (4, 6, 3), dict(stride=2, padding=1, groups=2, dilation=2),
     (2, 4, 4, 5)),
    ("ConvTranspose3d", (2, 2, 2), dict(stride=2), (1, 2, 2, 3, 2)),
]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CONV_MODULES, ids=[f"{c[0]}-{i}" for i, c in
                                                    enumerate(CONV_MODULES)])
def test_conv_modules_match_torch(case, dtype):
    name, args, kw, shape = case
    torch.manual_seed(0)
    m_t = getattr(torch.nn, name)(*args, **kw, dtype=getattr(torch, dtype))
    m_ac = getattr(nn, name)(*args, **kw, dtype=getattr(ac, dtype))
    assert repr(m_ac) == repr(m_t)
    _copy_from_torch(m_ac, m_t)
    x = np.random.default_rng(2).standard_normal(shape).astype(dtype)
    _compare(m_ac, m_t, x, rtol=1e-12 if dtype == "float64" else 2e-5)


def test_conv_transpose_output_size():
    torch.manual_seed(0)
    m_t = torch.nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, dtype=torch.float64)
    m_ac = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, dtype=ac.float64)
    _copy_from_torch(m_ac, m_t)
    x = np.random.default_rng(3).standard_normal((1, 3, 4, 4))
    _compare(m_ac, m_t, x, rtol=1e-12, output_size=(8, 8))
    with pytest.raises(ValueError, match="ConvTranspose2d: requested an output size"):
        m_ac(ac.asarray(x), output_size=(10, 10))


def test_default_initialisation_is_pytorchs():
    m = nn.Conv2d(16, 64, 5)
    assert m.weight.dtype == ac.float32 and m.bias.dtype == ac.float32
    bound = 1 / math.sqrt(16 * 25)  # kaiming_uniform_(a=sqrt(5)): gain*sqrt(3/fan_in)
    w = np.asarray(m.weight)
    assert np.abs(w).max() <= bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.05 * bound
    b = np.asarray(m.bias)
    assert np.abs(b).max() <= bound and b.std() > 0.3 * bound
    mt = nn.ConvTranspose2d(8, 4, 3)  # fan_in of a transposed weight: out/groups * k
    assert np.abs(np.asarray(mt.weight)).max() <= 1 / math.sqrt(4 * 9)
    assert [n for n, _ in m.named_parameters()] == ["weight", "bias"]
    assert nn.Conv1d(2, 2, 3, bias=False).bias is None


def test_module_errors():
    with pytest.raises(ValueError, match="Conv2d: in_channels must be divisible by groups"):
        nn.Conv2d(3, 6, 3, groups=2)
    with pytest.raises(ValueError, match="Conv2d: padding_mode"):
        nn.Conv2d(3, 6, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="Conv1d: padding='same' is not supported for strided"):
        nn.Conv1d(3, 6, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match='ConvTranspose2d: only "zeros" padding mode'):
        nn.ConvTranspose2d(3, 6, 3, padding_mode="reflect")


POOL_MODULES = [
    ("MaxPool1d", (3,), dict(stride=2, padding=1, ceil_mode=True), (2, 3, 10)),
    ("MaxPool2d", (3,), dict(stride=2, padding=1, dilation=1), (2, 3, 9, 8)),
    ("AvgPool1d", (3,), dict(stride=2, count_include_pad=False, padding=1), (2, 3, 10)),
    ("AvgPool2d", (2,), dict(ceil_mode=True, divisor_override=3), (2, 3, 7, 7)),
    ("AdaptiveAvgPool1d", (4,), {}, (2, 3, 10)),
    ("AdaptiveAvgPool2d", ((3, None),), {}, (2, 3, 7, 5)),
    ("AdaptiveMaxPool2d", (2,), {}, (3, 7, 5)),                                # unbatched
    ("Unfold", ((2, 3),), dict(padding=1, stride=2), (2, 3, 6, 7)),
    ("Fold", ((5, 6), (2, 2)), dict(stride=1), (2, 8, 20)),
]


@pytest.mark.parametrize("case", POOL_MODULES, ids=[c[0] for c in POOL_MODULES])
def test_pool_modules_match_torch(case):
    name, args, kw, shape = case
    m_t = getattr(torch.nn, name)(*args, **kw)
    m_ac = getattr(nn, name)(*args, **kw)
    assert repr(m_ac) == repr(m_t)
    x = np.random.default_rng(4).standard_normal(shape)
    _compare(m_ac, m_t, x, rtol=1e-12)


def test_max_pool_module_return_indices():
    x = np.random.default_rng(5).standard_normal((2, 3, 6, 6))
    out, idx = nn.MaxPool2d(2, return_indices=True)(ac.asarray(x))
    ref, ridx = torch.nn.MaxPool2d(2, return_indices=True)(torch.from_numpy(x))
    np.testing.assert_array_equal(np.asarray(idx), ridx.numpy())
    np.testing.assert_array_equal(np.asarray(out), ref.numpy())


def test_per_sample_grads_of_a_convnet():
    """vmap(grad) through functional_call of a small convnet equals per-example torch
    gradients."""
    torch.manual_seed(0)
    nets = []
    for lib in (torch.nn, nn):
        kw = {"dtype": torch.float64} if lib is torch.nn else {"dtype": ac.float64}
        nets.append(lib.Sequential(lib.Conv2d(1, 4, 3, padding=1, **kw), lib.MaxPool2d(2),
                                   lib.Conv2d(4, 3, 3, padding=1, **kw),
                                   lib.AdaptiveAvgPool2d(1)))
    net_t, net_ac = nets
    _copy_from_torch(net_ac, net_t)
    x = np.random.default_rng(6).standard_normal((3, 1, 6, 6))
    params = {k: v.detach() for k, v in net_ac.named_parameters()}

    def loss(p, xi):
        y = ac.func.functional_call(net_ac, p, (ac.expand_dims(xi, axis=0),))
        return ac.sum(y ** 2)

    per = ac.func.vmap(ac.func.grad(loss), in_dims=(None, 0))(params, ac.asarray(x))
    for i in range(3):
        net_t.zero_grad()
        (net_t(torch.from_numpy(x[i:i + 1])) ** 2).sum().backward()
        for k, p in net_t.named_parameters():
            np.testing.assert_allclose(np.asarray(per[k][i]), p.grad.numpy(), rtol=1e-11,
                                       atol=1e-12, err_msg=f"{k}[{i}]")
