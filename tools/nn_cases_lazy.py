"""nn_cases for the lazy layers and UninitializedParameter/UninitializedBuffer (registered in
nn_cases.CASES; see tools/nn_cases.py)."""

from __future__ import annotations

from nn_cases import T, case, error

__all__: list = []


def _lazy_layers(nn):
    return [(nn.LazyLinear(3), (2, 5)), (nn.LazyLinear(2, bias=False), (4, 3, 2)),
            (nn.LazyConv1d(4, 3), (2, 3, 8)),
            (nn.LazyConv2d(4, 3, stride=2, padding=1, groups=2), (1, 4, 6, 6)),
            (nn.LazyConv3d(2, (1, 2, 2), padding_mode="reflect", padding=1), (1, 2, 3, 4, 4)),
            (nn.LazyConv2d(3, 2), (2, 4, 4)),
            (nn.LazyConvTranspose1d(3, 2, stride=2, output_padding=1), (2, 2, 5)),
            (nn.LazyConvTranspose2d(4, 3, stride=2, groups=2), (2, 4, 3, 3)),
            (nn.LazyConvTranspose3d(2, 2, bias=False), (1, 3, 2, 2, 2)),
            (nn.LazyBatchNorm1d(), (4, 3)), (nn.LazyBatchNorm2d(affine=False), (2, 3, 2, 2)),
            (nn.LazyBatchNorm3d(track_running_stats=False, momentum=None), (2, 2, 2, 2, 2)),
            (nn.LazyInstanceNorm1d(), (2, 3, 5)),
            (nn.LazyInstanceNorm2d(affine=True, track_running_stats=False), (2, 3, 4, 4)),
            (nn.LazyInstanceNorm3d(eps=1e-3, bias=False), (1, 2, 2, 2, 2))]


def _kinds(m):
    return {"params": [[n, type(p).__name__] for n, p in m.named_parameters()],
            "buffers": [[n, type(b).__name__] for n, b in m.named_buffers()],
            "state": [[k, type(v).__name__] for k, v in m.state_dict().items()]}


@case("random")
def lazy_initialisation(torch):
    """Each lazy layer materialises on its first call with the eager layer's random draws."""
    nn = torch.nn
    torch.manual_seed(4)
    res = []
    for m, shape in _lazy_layers(nn):
        x = T(torch, *shape, grad=True)
        out = m(x)
        out.sum().backward()
        res.append({"out": out.detach(), "grad": x.grad,
                    "params": [p.detach() for p in m.parameters()],
                    "buffers": [b for b in m.buffers()]})
    res.append({"after": torch.rand(2)})
    return {"layers": res}


@case("module")
def lazy_modules(torch):
    nn = torch.nn
    res = []
    for m, shape in _lazy_layers(nn):
        before = {"repr": repr(m), "type": type(m).__name__, "lazy": m.has_uninitialized_params(),
                  **_kinds(m)}
        m(T(torch, *shape))
        after = {"repr": repr(m), "type": type(m).__name__,
                 "hook": hasattr(m, "_initialize_hook"), **_kinds(m)}
        res.append([before, after])
    p = nn.UninitializedParameter()
    b = nn.UninitializedBuffer(persistent=False)
    q = nn.UninitializedParameter(requires_grad=False, dtype=torch.float64)
    q.materialize((2, 3))
    bn = nn.LazyBatchNorm1d()
    loaded = bn.load_state_dict(nn.BatchNorm1d(4).state_dict())
    lin = nn.LazyLinear(3)
    lin.load_state_dict(nn.Linear(4, 3).state_dict())
    lin_repr = repr(lin)
    lin_out = lin(T(torch, 2, 4)).shape
    return {
        "layers": res,
        "placeholders": [repr(p), str(p), p.requires_grad, str(p.dtype), list(p.size()),
                         repr(b), b.requires_grad, b.persistent, type(q).__name__, str(q.dtype),
                         list(q.shape), q.requires_grad],
        "loaded": [str(loaded), repr(bn), type(bn.running_mean).__name__, list(bn.weight.shape),
                   lin_repr, type(lin).__name__, list(lin_out), repr(lin)],
        "errors": [error(lambda: p.shape), error(lambda: p.numel()), error(lambda: p.dim()),
                   error(lambda: nn.LazyLinear(3).weight.t()), error(lambda: b.sum()),
                   error(lambda: p.share_memory_()),
                   error(lambda: nn.LazyConv2d(4, 3)(torch.ones(3, 4))),
                   error(lambda: nn.LazyConv2d(4, 3, groups=2)(torch.ones(1, 3, 4, 4))),
                   error(lambda: nn.LazyLinear(3).initialize_parameters()),
                   error(lambda: _loaded_linear(nn)(torch.ones(2, 5))),
                   error(lambda: nn.LazyInstanceNorm1d()(torch.ones(3, 5))),
                   error(lambda: nn.LazyBatchNorm2d()(torch.ones(2, 3)))],
    }


def _loaded_linear(nn):
    m = nn.LazyLinear(3)
    m.load_state_dict(nn.Linear(4, 3).state_dict())
    return m


@case("module")
def lazy_copies_and_optimizers(torch):
    nn = torch.nn
    import copy
    torch.manual_seed(5)
    a = nn.LazyLinear(3)
    c = copy.deepcopy(a)
    c(torch.ones(2, 4))
    res = {"copy": [type(c).__name__, type(a).__name__, list(c.weight.shape),
                    len(a._forward_pre_hooks), len(c._forward_pre_hooks)]}
    a(torch.ones(2, 6))
    res["original"] = [type(a).__name__, list(a.weight.shape), len(a._forward_pre_hooks)]
    m = nn.LazyLinear(2)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    m(torch.ones(1, 3)).sum().backward()
    opt.step()
    res["sgd"] = [list(p.shape) for p in opt.param_groups[0]["params"]]
    seq = nn.Sequential(nn.LazyConv2d(4, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2))
    seq(torch.ones(1, 2, 5, 5))
    res["sequential"] = repr(seq)
    return res


@case("module")
def uninitialized_registration(torch):
    """Placeholders assigned to a module register as a parameter / a (non-)persistent buffer."""
    nn = torch.nn
    m = nn.Module()
    m.a = nn.UninitializedBuffer()
    m.b = nn.UninitializedBuffer(persistent=False)
    m.w = nn.UninitializedParameter()
    res = {"buffers": [n for n, _ in m.named_buffers()],
           "params": [n for n, _ in m.named_parameters()],
           "state_error": error(lambda: m.state_dict())}
    m.a.materialize((2,))
    m.w.materialize((3,))
    res["state"] = list(m.state_dict().keys())
    res["kinds"] = [type(m.a).__name__, type(m.w).__name__, list(m.a.shape)]
    return res
