"""ac.nn.Module, Parameter and the containers against torch.nn: the same structures built in
both give the same names, state-dict keys, repr, hook order, and the same values/gradients.

The layers here are test-local (x @ w.T + b), so these tests do not depend on ac.nn's layers.
"""

from __future__ import annotations

import copy
from collections import OrderedDict

import numpy as np
import pytest
import torch

import arraycore as ac
from arraycore import nn

F32 = ac.float32


def t2a(t):
    return ac.asarray(t.detach().numpy().copy())


# --- twin test-local modules ------------------------------------------------------------------

class ALin(nn.Module):
    def _get_name(self):  # the same name in both libraries' reprs
        return "Lin"

    def __init__(self, i, o, bias=True):
        super().__init__()
        self.in_features, self.out_features = i, o
        rng = np.random.default_rng(i * 31 + o)
        self.weight = nn.Parameter(ac.asarray(rng.standard_normal((o, i)).astype(np.float32)))
        if bias:
            self.bias = nn.Parameter(ac.zeros(o, dtype=F32))
        else:
            self.register_parameter("bias", None)

    def forward(self, x):
        y = x @ self.weight.T
        return y if self.bias is None else y + self.bias

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, " \
               f"bias={self.bias is not None}"


class TLin(torch.nn.Module):
    def _get_name(self):  # the same name in both libraries' reprs
        return "Lin"

    def __init__(self, i, o, bias=True):
        super().__init__()
        self.in_features, self.out_features = i, o
        rng = np.random.default_rng(i * 31 + o)
        self.weight = torch.nn.Parameter(torch.from_numpy(
            rng.standard_normal((o, i)).astype(np.float32)))
        if bias:
            self.bias = torch.nn.Parameter(torch.zeros(o))
        else:
            self.register_parameter("bias", None)

    def forward(self, x):
        y = x @ self.weight.T
        return y if self.bias is None else y + self.bias

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, " \
               f"bias={self.bias is not None}"


class AStats(nn.Module):
    def _get_name(self):  # the same name in both libraries' reprs
        return "Stats"

    """Buffers, one of them not persistent."""

    def __init__(self, n):
        super().__init__()
        self.register_buffer("running", ac.zeros(n, dtype=F32))
        self.register_buffer("steps", ac.zeros((), dtype=ac.int64))
        self.register_buffer("scratch", ac.zeros(n, dtype=F32), persistent=False)

    def forward(self, x):
        return x


class TStats(torch.nn.Module):
    def _get_name(self):  # the same name in both libraries' reprs
        return "Stats"

    def __init__(self, n):
        super().__init__()
        self.register_buffer("running", torch.zeros(n))
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))
        self.register_buffer("scratch", torch.zeros(n), persistent=False)

    def forward(self, x):
        return x


def build(lib):
    """The same nested model in arraycore (lib='ac') or torch."""
    Lin, Stats = (ALin, AStats) if lib == "ac" else (TLin, TStats)
    tnn = nn if lib == "ac" else torch.nn

    class Net(tnn.Module):
        def __init__(self):
            super().__init__()
            self.embed = Lin(3, 4)
            self.stats = Stats(4)
            self.body = tnn.Sequential(Lin(4, 4), Lin(4, 4, bias=False))
            self.blocks = tnn.ModuleList([Lin(4, 4) for _ in range(3)])
            self.heads = tnn.ModuleDict({"a": Lin(4, 2), "b": Lin(4, 1)})
            self.scales = tnn.ParameterList([tnn.Parameter(_ones(lib, 4)) for _ in range(2)])
            self.extra = tnn.ParameterDict({"shift": tnn.Parameter(_ones(lib, 2))})

        def forward(self, x):
            x = self.stats(self.body(self.embed(x)))
            for blk, s in zip(self.blocks, [*self.scales, self.scales[0]]):
                x = blk(x) * s
            return self.heads["a"](x) + self.extra["shift"] + self.heads["b"](x)

    return Net()


def _ones(lib, n):
    return ac.ones(n, dtype=F32) if lib == "ac" else torch.ones(n)


def copy_weights(tm, am):
    am.load_state_dict({k: t2a(v) for k, v in tm.state_dict().items()})


# --- structure ------------------------------------------------------------------------------

def test_names_and_state_dict_keys_match_torch():
    a, t = build("ac"), build("torch")
    assert [n for n, _ in a.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert [n for n, _ in a.named_buffers()] == [n for n, _ in t.named_buffers()]
    assert [n for n, _ in a.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in a.named_children()] == [n for n, _ in t.named_children()]
    assert list(a.state_dict()) == list(t.state_dict())
    assert [n for n, _ in a.named_parameters(prefix="m", recurse=False)] == \
        [n for n, _ in t.named_parameters(prefix="m", recurse=False)]
    assert [n for n, _ in a.body.named_parameters(prefix="body")] == \
        [n for n, _ in t.body.named_parameters(prefix="body")]
    for (na, pa), (nt, pt) in zip(a.state_dict().items(), t.state_dict().items()):
        assert pa.shape == tuple(pt.shape)
        assert str(pa.dtype) == str(pt.dtype).replace("torch.", "")
    assert len(list(a.parameters())) == len(list(t.parameters()))
    assert len(list(a.modules())) == len(list(t.modules()))


def test_repr_matches_torch():
    a, t = build("ac"), build("torch")
    ra, rt = repr(a), repr(t)
    # ParameterList/Dict print the array type and dtype their own way: compare their
    # structure (indices, keys, shapes), and everything else line by line.
    norm = {"torch.float32": "float32", "torch.FloatTensor": "float32", "TLin": "ALin",
            "TStats": "AStats"}
    for k, v in norm.items():
        rt = rt.replace(k, v)
    assert ra.splitlines() == rt.splitlines()
    assert repr(nn.Sequential()) == repr(torch.nn.Sequential())
    assert repr(ALin(2, 3))[1:] == repr(TLin(2, 3))[1:]


def test_shared_parameters_and_modules_listed_once():
    for lib in ("ac", "torch"):
        tnn = nn if lib == "ac" else torch.nn
        Lin = ALin if lib == "ac" else TLin
        shared = Lin(2, 2)
        m = tnn.Sequential(shared, Lin(2, 2), shared)
        m[1].weight = m[0].weight  # tied
        names = [n for n, _ in m.named_parameters()]
        all_names = [n for n, _ in m.named_parameters(remove_duplicate=False)]
        mods = [n for n, _ in m.named_modules()]
        keys = list(m.state_dict())
        if lib == "ac":
            a = (names, all_names, mods, keys)
        else:
            assert a == (names, all_names, mods, keys)


def test_parameter_is_marked_array():
    w = nn.Parameter(ac.ones((2, 3), dtype=F32))
    assert isinstance(w, nn.Parameter) and isinstance(w, ac.Array)
    assert type(w) is ac.Array and w.requires_grad and w.is_leaf
    assert not isinstance(w * 2, nn.Parameter)
    assert not isinstance(w.detach(), nn.Parameter)
    assert not isinstance(ac.ones(2), nn.Parameter)
    frozen = nn.Parameter(ac.ones(2, dtype=F32), requires_grad=False)
    assert isinstance(frozen, nn.Parameter) and not frozen.requires_grad
    empty = nn.Parameter()
    assert empty.shape == (0,) and empty.dtype == F32
    base = ac.zeros(3, dtype=F32)
    p = nn.Parameter(base)
    base[0] = 5.0  # shares the buffer, as torch.nn.Parameter(t) shares t's storage
    assert float(p[0]) == 5.0
    with pytest.raises(TypeError, match="floating point"):
        nn.Parameter(ac.ones(2, dtype=ac.int64))
    assert not nn.Parameter(ac.ones(2, dtype=ac.int64), requires_grad=False).requires_grad


def test_setattr_rules_match_torch():
    m = ALin(2, 2)
    with pytest.raises(TypeError, match="parameter 'weight'"):
        m.weight = ac.ones((2, 2), dtype=F32)
    m.weight = None
    assert m.weight is None and "weight" in m._parameters
    m.weight = nn.Parameter(ac.ones((2, 2), dtype=F32))
    m.scratch = ac.ones(2)  # a plain array attribute is not registered
    assert "scratch" not in dict(m.named_buffers())
    m.register_buffer("buf", ac.ones(2))
    m.buf = ac.zeros(2)
    assert float(ac.sum(m.buf)) == 0
    with pytest.raises(TypeError, match="buffer 'buf'"):
        m.buf = 3
    m.child = ALin(1, 1)
    with pytest.raises(TypeError, match="child module 'child'"):
        m.child = 3
    del m.child
    assert "child" not in m._modules
    with pytest.raises(KeyError):
        m.register_buffer("weight", ac.ones(2))
    with pytest.raises(KeyError, match='contain'):
        m.register_parameter("a.b", None)
    with pytest.raises(TypeError, match="is not a Module"):
        m.add_module("x", 3)
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        m.missing
    assert "weight" in dir(m) and "buf" in dir(m)

    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(ac.ones(1, dtype=F32))

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Early()


def test_forward_backward_match_torch():
    a, t = build("ac"), build("torch")
    copy_weights(t, a)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 3)).astype(np.float32)
    ya, yt = a(ac.asarray(x)), t(torch.from_numpy(x))
    np.testing.assert_allclose(np.asarray(ya), yt.detach().numpy(), rtol=1e-5, atol=1e-6)
    ac.sum(ya * ya).backward()
    (yt * yt).sum().backward()
    for (na, pa), (nt, pt) in zip(a.named_parameters(), t.named_parameters()):
        assert na == nt
        np.testing.assert_allclose(np.asarray(pa.grad), pt.grad.numpy(), rtol=2e-5,
                                   atol=1e-5, err_msg=na)


def test_state_dict_values_and_keep_vars():
    a = build("ac")
    sd = a.state_dict()
    w = sd["embed.weight"]
    assert not w.requires_grad and not isinstance(w, nn.Parameter)
    assert w._buffer_ptr == a.embed.weight._buffer_ptr  # shares the module's memory
    assert "stats.scratch" not in sd
    kv = a.state_dict(keep_vars=True)
    assert kv["embed.weight"] is a.embed.weight
    sd2 = a.state_dict(prefix="model.")
    assert all(k.startswith("model.") for k in sd2)


def test_load_state_dict_from_torch_directly():
    a, t = build("ac"), build("torch")
    with torch.no_grad():
        for p in t.parameters():
            p.add_(torch.randn_like(p))
        t.stats.running.fill_(3.0)
        t.stats.steps.fill_(7)
    via_dlpack = {k: ac.from_dlpack(v) for k, v in t.state_dict().items()}
    assert a.load_state_dict(via_dlpack).missing_keys == []
    res = a.load_state_dict(t.state_dict())  # torch tensors go through ac.asarray (DLPack)
    assert res.missing_keys == [] and res.unexpected_keys == []
    assert repr(res) == "<All keys matched successfully>"
    for k, v in t.state_dict().items():
        np.testing.assert_array_equal(np.asarray(a.state_dict()[k]), v.numpy())
    assert a.embed.weight.requires_grad and isinstance(a.embed.weight, nn.Parameter)


def test_load_state_dict_missing_unexpected_match_torch():
    a, t = build("ac"), build("torch")
    sd_t = t.state_dict()
    del sd_t["body.0.bias"]
    sd_t["bogus.weight"] = torch.zeros(1)
    sd_t["embed.extra"] = torch.zeros(1)
    sd_a = OrderedDict((k, t2a(v)) for k, v in sd_t.items())
    rt = t.load_state_dict(sd_t, strict=False)
    ra = a.load_state_dict(sd_a, strict=False)
    assert ra.missing_keys == rt.missing_keys
    assert sorted(ra.unexpected_keys) == sorted(rt.unexpected_keys)
    with pytest.raises(RuntimeError, match="Missing key") as ea:
        a.load_state_dict(sd_a)
    with pytest.raises(RuntimeError, match="Missing key") as et:
        t.load_state_dict(sd_t)
    assert "body.0.bias" in str(ea.value) and "bogus.weight" in str(ea.value)
    assert str(ea.value).splitlines()[0] == str(et.value).splitlines()[0]


@pytest.mark.parametrize("problem", ["shape", "dtype", "missing", "not_array"])
def test_failed_load_changes_nothing(problem):
    a = build("ac")
    before = {k: np.asarray(v).copy() for k, v in a.state_dict().items()}
    sd = {k: ac.asarray(np.asarray(v) + 1) for k, v in a.state_dict().items()}
    bad = "heads.b.weight"  # late in the order: earlier keys would have been written
    if problem == "shape":
        sd[bad] = ac.zeros((7, 7), dtype=F32)
        match = "size mismatch for heads.b.weight"
    elif problem == "dtype":
        sd[bad] = ac.zeros((1, 4), dtype=ac.float64)
        match = "dtype mismatch for heads.b.weight"
    elif problem == "missing":
        del sd[bad]
        match = "Missing key.*heads.b.weight"
    else:
        sd[bad] = object()
        match = "heads.b.weight"
    with pytest.raises((RuntimeError, TypeError), match=match):
        a.load_state_dict(sd)
    for k, v in a.state_dict().items():
        np.testing.assert_array_equal(np.asarray(v), before[k], err_msg=k)


def test_load_state_dict_assign_and_override():
    a = build("ac")
    sd = {k: ac.asarray(np.asarray(v) * 0 + 2) for k, v in a.state_dict().items()}
    new_w = sd["embed.weight"]
    a.load_state_dict(sd, assign=True)
    assert isinstance(a.embed.weight, nn.Parameter) and a.embed.weight.requires_grad
    assert a.embed.weight._buffer_ptr == new_w._buffer_ptr

    class Renamed(ALin):
        # old checkpoints called the weight "w": a subclass renames before loading
        def _load_from_state_dict(self, state_dict, prefix, *args):
            if prefix + "w" in state_dict:
                state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")
            super()._load_from_state_dict(state_dict, prefix, *args)

    m = nn.Sequential(Renamed(2, 2))
    m.load_state_dict({"0.w": ac.full((2, 2), 4.0, dtype=F32), "0.bias": ac.zeros(2, dtype=F32)})
    assert float(ac.sum(m[0].weight)) == 16.0


def test_train_eval_apply_requires_grad_zero_grad():
    for lib in ("ac", "torch"):
        m = build(lib)
        m.eval()
        modes = [mod.training for mod in m.modules()]
        m.train()
        modes2 = [mod.training for mod in m.modules()]
        seen = []
        m.apply(lambda mod: seen.append(type(mod).__name__.replace("TLin", "ALin")
                                        .replace("TStats", "AStats")))
        if lib == "ac":
            got = (modes, modes2, seen)
        else:
            assert got == (modes, modes2, seen)
    assert not any(modes) and all(modes2)
    a = build("ac")
    with pytest.raises(ValueError, match="boolean"):
        a.train("yes")
    a.requires_grad_(False)
    assert not any(p.requires_grad for p in a.parameters())
    a.requires_grad_(True)
    ac.sum(a(ac.ones((2, 3), dtype=F32))).backward()
    g = a.embed.weight.grad
    a.zero_grad(set_to_none=False)
    assert a.embed.weight.grad is g and float(ac.sum(ac.abs(g))) == 0
    a.zero_grad()
    assert all(p.grad is None for p in a.parameters())


def test_to_float_double_match_torch():
    a, t = build("ac"), build("torch")
    a.body[1].weight = a.body[0].weight
    a.double()
    t.double()
    for (na, va), (nt, vt) in zip(a.state_dict().items(), t.state_dict().items()):
        assert str(va.dtype) == str(vt.dtype).replace("torch.", ""), na
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in a.parameters())
    assert a.body[1].weight is a.body[0].weight  # still tied
    assert a.stats.steps.dtype == ac.int64
    a.to(ac.float32)
    assert a.embed.weight.dtype == F32
    a.to("cpu")
    a.to(device="cpu", dtype=ac.float64)
    assert a.embed.weight.dtype == ac.float64
    a.float()
    assert a.embed.weight.dtype == F32
    with pytest.raises(ValueError, match="CPU"):
        a.to("cuda")
    with pytest.raises(TypeError, match="floating point"):
        a.to(ac.int32)
    y = a(ac.ones((2, 3), dtype=F32))
    assert y.dtype == F32


def test_deepcopy_keeps_parameters():
    a = build("ac")
    a.body[1].weight = a.body[0].weight
    b = copy.deepcopy(a)
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in b.parameters())
    assert b.body[1].weight is b.body[0].weight
    assert b.embed.weight is not a.embed.weight
    assert b.embed.weight._buffer_ptr != a.embed.weight._buffer_ptr
    np.testing.assert_array_equal(np.asarray(b.embed.weight), np.asarray(a.embed.weight))
    assert [n for n, _ in a.named_parameters()] == [n for n, _ in b.named_parameters()]


# --- hooks ---------------------------------------------------------------------------------

def _hook_trace(lib):
    tnn = nn if lib == "ac" else torch.nn
    Lin = ALin if lib == "ac" else TLin
    log = []
    m = Lin(2, 2)
    outer = tnn.Sequential(m)
    h1 = m.register_forward_pre_hook(lambda mod, args: log.append("pre1"))
    m.register_forward_pre_hook(lambda mod, args: log.append("pre0"), prepend=True)

    def pre_kw(mod, args, kwargs):
        log.append(("prekw", sorted(kwargs)))
        return (args[0] * 2,), kwargs

    m.register_forward_pre_hook(pre_kw, with_kwargs=True)

    def post(mod, args, out):
        log.append("post")
        return out + 1

    m.register_forward_hook(post)
    m.register_forward_hook(lambda mod, args, kwargs, out: log.append(("postkw", len(args))),
                            with_kwargs=True)
    outer.register_forward_hook(lambda mod, args, out: log.append("outer"))
    ones = ac.ones((1, 2), dtype=F32) if lib == "ac" else torch.ones(1, 2)
    y1 = outer(ones)
    h1.remove()
    y2 = outer(ones)
    return log, np.asarray(y1.detach()), np.asarray(y2.detach())


def test_hooks_order_and_values_match_torch():
    la, ya1, ya2 = _hook_trace("ac")
    lt, yt1, yt2 = _hook_trace("torch")
    assert la == lt
    np.testing.assert_allclose(ya1, yt1, rtol=1e-6)
    np.testing.assert_allclose(ya2, yt2, rtol=1e-6)


def test_pre_hook_single_value_and_always_call():
    m = ALin(2, 2)
    m.register_forward_pre_hook(lambda mod, args: args[0] * 0)  # a single value: wrapped
    y = m(ac.ones((1, 2), dtype=F32))
    assert float(ac.sum(ac.abs(y))) == 0
    calls = []

    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    b = Boom()
    with b.register_forward_hook(lambda mod, args, out: calls.append(out), always_call=True):
        with pytest.raises(ValueError, match="boom"):
            b(1)
    assert calls == [None]
    with pytest.raises(ValueError, match="boom"):
        b(1)
    assert calls == [None]  # removed by the with-block


def test_global_forward_hooks():
    from arraycore.nn.modules.module import register_module_forward_hook
    seen = []
    h = register_module_forward_hook(lambda mod, args, out: seen.append(type(mod).__name__))
    try:
        nn.Sequential(ALin(2, 2))(ac.ones((1, 2), dtype=F32))
    finally:
        h.remove()
    assert seen == ["ALin", "Sequential"]


def test_missing_forward():
    with pytest.raises(NotImplementedError, match='missing the required "forward"'):
        nn.Module()(1)


# --- containers ----------------------------------------------------------------------------

def test_sequential_like_torch():
    a = nn.Sequential(ALin(2, 3), ALin(3, 3), ALin(3, 1))
    t = torch.nn.Sequential(TLin(2, 3), TLin(3, 3), TLin(3, 1))
    assert len(a) == len(t) == 3
    assert repr(a[1:]) == repr(t[1:]).replace("TLin", "ALin")
    assert repr(a[-1])[1:] == repr(t[-1])[1:]
    assert [n for n, _ in a[1:].named_parameters()] == [n for n, _ in t[1:].named_parameters()]
    for s in (a, t):
        del s[0]
        s.append(s[0])
        s.insert(0, s[1])
    assert list(a.state_dict()) == list(t.state_dict())
    assert repr(a) == repr(t).replace("TLin", "ALin")
    assert repr(a + a) == repr(t + t).replace("TLin", "ALin")
    assert a.pop(0) is not None and t.pop(0) is not None and len(a) == len(t)
    with pytest.raises(IndexError):
        a[10]
    named = nn.Sequential(OrderedDict([("first", ALin(1, 2)), ("second", ALin(2, 1))]))
    assert [n for n, _ in named.named_children()] == ["first", "second"]
    assert named(ac.ones((4, 1), dtype=F32)).shape == (4, 1)


def test_module_list_and_dict_like_torch():
    for lib in ("ac", "torch"):
        tnn = nn if lib == "ac" else torch.nn
        Lin = ALin if lib == "ac" else TLin
        ml = tnn.ModuleList([Lin(1, 1), Lin(1, 2)])
        ml.append(Lin(2, 2))
        ml.extend([Lin(2, 3)])
        ml.insert(1, Lin(5, 5))
        ml += [Lin(3, 3)]
        del ml[0]
        ml[0] = Lin(4, 4)
        md = tnn.ModuleDict({"x": Lin(1, 1)})
        md["y"] = Lin(2, 2)
        md.update([("z", Lin(3, 3))])
        popped = md.pop("x")
        r = (repr(ml), repr(ml[1:3]), len(ml), list(md.keys()), repr(md), "y" in md,
             type(popped).__name__[1:], [n for n, _ in ml.named_parameters()])
        if lib == "ac":
            got = r
        else:
            assert got == r
    with pytest.raises(TypeError, match="iterable"):
        nn.ModuleList().extend(ALin(1, 1))


def test_parameter_list_and_dict():
    pl = nn.ParameterList([ac.zeros(2, dtype=F32), nn.Parameter(ac.ones(3, dtype=F32))])
    tl = torch.nn.ParameterList([torch.zeros(2), torch.nn.Parameter(torch.ones(3))])
    pl.append(ac.ones((2, 2), dtype=F32))
    tl.append(torch.ones(2, 2))
    assert all(isinstance(p, nn.Parameter) for p in pl)
    assert [n for n, _ in pl.named_parameters()] == [n for n, _ in tl.named_parameters()]
    assert len(pl) == len(tl) == 3 and pl[-1].shape == (2, 2)
    assert [tuple(p.shape) for p in pl[1:]] == [tuple(p.shape) for p in tl[1:]]
    pd = nn.ParameterDict({"a": ac.zeros(2, dtype=F32)})
    td = torch.nn.ParameterDict({"a": torch.zeros(2)})
    pd["b"] = ac.ones(1, dtype=F32)
    td["b"] = torch.ones(1)
    pd.update({"c": ac.ones(3, dtype=F32)})
    td.update({"c": torch.ones(3)})
    assert list(pd.keys()) == list(td.keys())
    assert [n for n, _ in pd.named_parameters()] == [n for n, _ in td.named_parameters()]
    assert isinstance(pd["b"], nn.Parameter) and "c" in pd and len(pd) == 3
    pd.pop("a")
    td.pop("a")
    assert list(pd.keys()) == list(td.keys()) == ["b", "c"]
    assert "(b): Parameter containing: [float32 of size 1]" in repr(pd)
    assert repr(nn.ParameterList()) == "ParameterList()"
    with pytest.raises(RuntimeError, match="should not be called"):
        pl(1)


def test_modules_work_under_transforms_of_their_inputs():
    m = ALin(3, 2)
    x = ac.ones((4, 3), dtype=ac.float32)
    g = ac.func.vmap(ac.func.grad(lambda xi: ac.sum(m(xi))))(x)
    np.testing.assert_allclose(np.asarray(g), np.tile(np.asarray(ac.sum(m.weight, axis=0)),
                                                      (4, 1)), rtol=1e-6)


def test_buffer_marker_like_torch():
    for lib in ("ac", "torch"):
        tnn = nn if lib == "ac" else torch.nn
        z = (lambda n: ac.zeros(n, dtype=F32)) if lib == "ac" else torch.zeros

        class M(tnn.Module):
            def __init__(self):
                super().__init__()
                self.a = tnn.Buffer(z(2))
                self.b = tnn.Buffer(z(3), persistent=False)

        m = M()
        r = ([n for n, _ in m.named_buffers()], list(m.state_dict()))
        if lib == "ac":
            got, am = r, m
        else:
            assert got == r
    am.a = ac.ones(2, dtype=F32)  # a plain array replaces a registered buffer
    assert float(ac.sum(am.a)) == 2 and "a" in am._buffers
    with pytest.raises(TypeError, match="Buffer"):
        nn.Buffer([1, 2])


def _backward_trace(lib):
    log = []
    tnn = nn if lib == "ac" else torch.nn

    def arr(v):
        return None if v is None else np.asarray(v.detach() if lib == "torch" else v).tolist()

    class Mul(tnn.Module):
        def forward(self, x, s, y):
            return x * y * s, x + y

    m = Mul()
    m.register_full_backward_pre_hook(lambda mod, go: log.append(("pre", [arr(g) for g in go])))

    def full(mod, gi, go):
        log.append(("full", [None if g is None else arr(g) for g in gi], [arr(g) for g in go]))
        return tuple(None if g is None else g * 10 for g in gi)

    h = m.register_full_backward_hook(full)
    Lin = ALin if lib == "ac" else TLin
    lin = Lin(2, 2)
    lin.register_full_backward_hook(lambda mod, gi, go: log.append(("lin", gi)))
    if lib == "ac":
        x = ac.asarray([1.0, 2.0], dtype=F32)
        x.requires_grad_()
        y = ac.asarray([3.0, 4.0], dtype=F32)
        a, b = m(x, 2.0, y)
        ac.sum(lin(a * 2 + b)).backward()
    else:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = torch.tensor([3.0, 4.0])
        a, b = m(x, 2.0, y)
        lin(a * 2 + b).sum().backward()
    log.append(("xgrad", arr(x.grad)))
    h.remove()
    x.grad = None
    if lib == "ac":
        ac.sum(m(x, 1.0, y)[0]).backward()
    else:
        m(x, 1.0, y)[0].sum().backward()
    log.append(("after remove", arr(x.grad)))
    # a module whose inputs do not require grad: the hook sees None for them
    lin2 = Lin(2, 2)
    lin2.register_full_backward_hook(lambda mod, gi, go: log.append(("lin2", gi, len(go))))
    z = ac.ones((1, 2), dtype=F32) if lib == "ac" else torch.ones(1, 2)
    out = lin2(z)
    (ac.sum(out) if lib == "ac" else out.sum()).backward()
    return log


@pytest.mark.filterwarnings("ignore:Full backward hook is firing")
def test_backward_hooks_match_torch():
    la, lt = _backward_trace("ac"), _backward_trace("torch")
    # the Linear's grad_input is compared by value
    def norm(log):
        return [(e[0], [None if g is None else np.asarray(g.detach() if hasattr(g, "detach")
                                                              else g).tolist() for g in e[1]])
                if e[0] == "lin" else e for e in log]
    assert norm(la)[:-1] == norm(lt)[:-1]
    assert la[-1][0] == lt[-1][0] == "lin2" and la[-1][1] == lt[-1][1] == (None,)
