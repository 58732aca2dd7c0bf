"""Cases for torch.nn / torch.optim / torch.utils.data, run against a torch-like module.

Each case is a function ``case(torch) -> dict`` that builds modules with fixed
weights (from :func:`data`, the same numbers under torch and agrad), runs them
and returns named results: tensors, numbers, strings, lists of those, or an
``{"error": (type, message)}`` record.  ``tools/gen_nn_golden.py`` runs them
under PyTorch into tests/golden/nn/*.json; tests/nn/test_nn_golden.py runs them
under agrad and compares.
"""

from __future__ import annotations

import math
from collections import OrderedDict

CASES: dict = {}   # family -> {name: fn}


def case(family):
    def deco(fn):
        CASES.setdefault(family, {})[fn.__name__] = fn
        return fn
    return deco


def data(*shape, k=0, scale=1.0):
    """Deterministic numbers in [-scale, scale) as nested lists (no random stream)."""
    n = 1
    for s in shape:
        n *= s
    vals = [scale * (((i * 7919 + k * 104729) % 1009) / 504.5 - 1.0) for i in range(n)]

    def nest(flat, dims):
        if not dims:
            return flat[0]
        step = len(flat) // dims[0] if dims[0] else 0
        return [nest(flat[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0])]
    return nest(vals, list(shape)) if shape else vals[0]


def T(torch, *shape, k=0, scale=1.0, grad=False, dtype=None):
    return torch.tensor(data(*shape, k=k, scale=scale), requires_grad=grad,
                        dtype=dtype or torch.float32)


def fix(torch, module, k=0, scale=0.5):
    """Overwrite every parameter with fixed numbers (same under torch and agrad)."""
    with torch.no_grad():
        for i, (_, p) in enumerate(module.named_parameters()):
            p.copy_(torch.tensor(data(*p.shape, k=k + 13 * i, scale=scale), dtype=p.dtype))
    return module


def run_layer(torch, module, *inputs):
    """Forward, then backward of sum(out * w): output, input and parameter gradients."""
    out = module(*inputs)
    w = torch.tensor(data(*out.shape, k=99), dtype=out.dtype)
    (out * w).sum().backward()
    res = {"out": out.detach()}
    for i, x in enumerate(inputs):
        if getattr(x, "requires_grad", False):
            res[f"grad_input{i}"] = x.grad
    for name, p in module.named_parameters():
        res[f"grad_{name}"] = p.grad
    return res


def error(fn):
    try:
        fn()
    except Exception as e:   # the record is the point
        return {"error": [type(e).__name__, str(e)]}
    return {"error": None}


# ------------------------------------------------------------------ layers

@case("layers")
def linear(torch):
    return run_layer(torch, fix(torch, torch.nn.Linear(4, 3)), T(torch, 5, 4, grad=True))


@case("layers")
def linear_3d_nobias(torch):
    return run_layer(torch, fix(torch, torch.nn.Linear(4, 2, bias=False)),
                     T(torch, 2, 3, 4, grad=True))


@case("layers")
def linear_double(torch):
    m = fix(torch, torch.nn.Linear(3, 2)).double()
    return run_layer(torch, m, T(torch, 4, 3, grad=True, dtype=torch.float64))


@case("layers")
def bilinear(torch):
    return run_layer(torch, fix(torch, torch.nn.Bilinear(3, 2, 4)), T(torch, 5, 3, grad=True),
                     T(torch, 5, 2, k=3, grad=True))


@case("layers")
def embedding_padding(torch):
    m = fix(torch, torch.nn.Embedding(6, 3, padding_idx=2))
    return run_layer(torch, m, torch.tensor([[0, 2, 5], [2, 1, 1]]))


@case("layers")
def mlp_sequential(torch):
    nn = torch.nn
    m = fix(torch, nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(),
                                 nn.Linear(8, 3), nn.LogSoftmax(dim=1)))
    return run_layer(torch, m, T(torch, 6, 4, grad=True))


@case("layers")
def flatten_unflatten(torch):
    nn = torch.nn
    x = T(torch, 2, 3, 4, grad=True)
    m = nn.Sequential(nn.Flatten(), nn.Unflatten(1, (4, 3)), nn.Flatten(0, 1))
    return run_layer(torch, m, x)


@case("layers")
def dropout_eval_and_p0(torch):
    nn = torch.nn
    x = T(torch, 3, 4, grad=True)
    m = nn.Dropout(0.5)
    m.eval()
    r = run_layer(torch, m, x)
    r["p0"] = nn.Dropout(0.0)(T(torch, 2, 2))
    return r


@case("layers")
def prelu(torch):
    return run_layer(torch, fix(torch, torch.nn.PReLU(3)), T(torch, 2, 3, 4, grad=True))


def _activation(name, *args, **kwargs):
    def fn(torch):
        m = getattr(torch.nn, name)(*args, **kwargs)
        return run_layer(torch, m, T(torch, 3, 6, scale=3.0, grad=True))
    fn.__name__ = f"act_{name}" + "".join(f"_{v}" for v in kwargs.values())
    return case("activations")(fn)


for _name, _a, _kw in [
        ("ReLU", (), {}), ("ReLU6", (), {}), ("LeakyReLU", (0.2,), {}), ("ELU", (0.7,), {}),
        ("CELU", (1.3,), {}), ("SELU", (), {}), ("GELU", (), {}), ("GELU", (), {"approximate": "tanh"}),
        ("SiLU", (), {}), ("Mish", (), {}), ("Tanh", (), {}), ("Sigmoid", (), {}),
        ("Hardtanh", (-0.5, 1.5), {}), ("Hardsigmoid", (), {}), ("Hardswish", (), {}),
        ("Hardshrink", (0.7,), {}), ("Softshrink", (0.3,), {}), ("Tanhshrink", (), {}),
        ("Softsign", (), {}), ("Softplus", (2.0, 3.0), {}), ("LogSigmoid", (), {}),
        ("Softmax", (1,), {}), ("LogSoftmax", (0,), {}), ("Softmin", (1,), {}),
        ("Threshold", (0.1, -2.0), {}), ("GLU", (1,), {})]:
    _activation(_name, *_a, **_kw)


# ------------------------------------------------------------------ losses

def _loss_case(name, make_inputs, **kwargs):
    for reduction in ("none", "mean", "sum"):
        def fn(torch, reduction=reduction):
            args = make_inputs(torch)
            loss = getattr(torch.nn, name)(reduction=reduction, **_resolve(torch, kwargs))(*args)
            w = torch.tensor(data(*loss.shape, k=5), dtype=loss.dtype)
            (loss * w).sum().backward()
            res = {"loss": loss.detach()}
            for i, a in enumerate(args):
                if getattr(a, "requires_grad", False):
                    res[f"grad{i}"] = a.grad
            return res
        suffix = "_".join(f"{k}" for k in kwargs)
        CASES.setdefault("losses", {})[f"{name}_{suffix + '_' if suffix else ''}{reduction}"] = fn


def _resolve(torch, kwargs):
    return {k: (v(torch) if callable(v) else v) for k, v in kwargs.items()}


def _pair(torch):
    return T(torch, 4, 3, scale=2.0, grad=True), T(torch, 4, 3, k=1, scale=2.0)


def _logits_targets(torch):
    return T(torch, 5, 4, scale=2.0, grad=True), torch.tensor([0, 3, 1, 3, 2])


def _probs(torch):
    x = T(torch, 4, 3, scale=0.45, grad=True)
    with torch.no_grad():
        x.add_(0.5)
    return x, T(torch, 4, 3, k=2, scale=0.5) .add(0.5)


_loss_case("MSELoss", _pair)
_loss_case("L1Loss", _pair)
_loss_case("SmoothL1Loss", _pair)
_loss_case("SmoothL1Loss", _pair, beta=0.5)
_loss_case("HuberLoss", _pair, delta=0.7)
_loss_case("CrossEntropyLoss", _logits_targets)
_loss_case("CrossEntropyLoss", _logits_targets,
           weight=lambda torch: torch.tensor([0.5, 1.0, 2.0, 1.5]))
_loss_case("CrossEntropyLoss", lambda torch: (T(torch, 5, 4, grad=True),
                                              torch.tensor([0, -100, 1, 3, -100])),
           ignore_index=-100)
_loss_case("CrossEntropyLoss", _logits_targets, label_smoothing=0.2)
_loss_case("CrossEntropyLoss", lambda torch: (T(torch, 5, 4, grad=True),
                                              T(torch, 5, 4, k=3).softmax(1)))
_loss_case("CrossEntropyLoss", lambda torch: (T(torch, 2, 4, 3, grad=True),
                                              torch.tensor([[0, 3, 1], [2, 2, 0]])))
_loss_case("NLLLoss", lambda torch: (T(torch, 5, 4, grad=True).log_softmax(1),
                                     torch.tensor([0, 3, 1, 3, 2])))
_loss_case("NLLLoss", lambda torch: (T(torch, 5, 4, grad=True).log_softmax(1),
                                     torch.tensor([0, 3, 1, 3, 2])),
           weight=lambda torch: torch.tensor([0.5, 1.0, 2.0, 1.5]), ignore_index=3)
_loss_case("BCELoss", _probs)
_loss_case("BCELoss", _probs, weight=lambda torch: torch.tensor([0.5, 1.0, 2.0]))
_loss_case("BCEWithLogitsLoss", lambda torch: (T(torch, 4, 3, scale=3.0, grad=True),
                                               T(torch, 4, 3, k=2, scale=0.5).add(0.5)))
_loss_case("BCEWithLogitsLoss", lambda torch: (T(torch, 4, 3, scale=3.0, grad=True),
                                               T(torch, 4, 3, k=2, scale=0.5).add(0.5)),
           pos_weight=lambda torch: torch.tensor([1.0, 2.0, 0.5]))
_loss_case("KLDivLoss", lambda torch: (T(torch, 4, 3, grad=True).log_softmax(1),
                                       T(torch, 4, 3, k=1).softmax(1)))
_loss_case("KLDivLoss", lambda torch: (T(torch, 4, 3, grad=True).log_softmax(1),
                                       T(torch, 4, 3, k=1).log_softmax(1)), log_target=True)

_loss_case("SoftMarginLoss", lambda torch: (T(torch, 4, 3, scale=2.0, grad=True), T(torch, 4, 3, k=1).sign()))
_loss_case("MultiLabelSoftMarginLoss", lambda torch: (T(torch, 4, 3, scale=2.0, grad=True), T(torch, 4, 3, k=1).gt(0).float()),
           weight=lambda torch: torch.tensor([0.5, 1.0, 2.0]))
_loss_case("MultiMarginLoss", _logits_targets)
_loss_case("MultiMarginLoss", _logits_targets, p=2, margin=0.5, weight=lambda torch: torch.tensor([0.5, 1.0, 2.0, 1.5]))
_loss_case("MultiLabelMarginLoss", lambda torch: (T(torch, 3, 4, scale=2.0, grad=True),
                                                  torch.tensor([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 0, 0, 0]])))
_loss_case("TripletMarginWithDistanceLoss", lambda torch: (T(torch, 4, 3, grad=True), T(torch, 4, 3, k=1, grad=True),
                                                           T(torch, 4, 3, k=2, grad=True)), margin=0.5, swap=True)


@case("losses")
def loss_errors(torch):
    nn = torch.nn
    return {
        "ce_float_target": error(lambda: nn.CrossEntropyLoss()(T(torch, 3, 4),
                                                               torch.tensor([1.0, 2.0, 0.0]))),
        "ce_int32_target": error(lambda: nn.CrossEntropyLoss()(
            T(torch, 3, 4), torch.tensor([1, 2, 0], dtype=torch.int32))),
        "nll_out_of_range": error(lambda: nn.NLLLoss()(T(torch, 3, 4), torch.tensor([1, 7, 0]))),
        "mse_bad_reduction": error(lambda: nn.MSELoss(reduction="avg")(T(torch, 2), T(torch, 2))),
    }


# ------------------------------------------------------------------ modules

@case("module")
def reprs(torch):
    nn = torch.nn
    mods = [
        nn.Linear(2, 3), nn.Linear(2, 3, bias=False), nn.Bilinear(2, 3, 4), nn.Identity(),
        nn.Flatten(), nn.Flatten(0, 2), nn.Unflatten(1, (2, 3)), nn.Unflatten(1, [2, 3]),
        nn.Dropout(), nn.Dropout(0.2, True), nn.Embedding(3, 4),
        nn.Embedding(3, 4, padding_idx=1, max_norm=1.0, scale_grad_by_freq=True),
        nn.ReLU(), nn.ReLU(True), nn.LeakyReLU(), nn.LeakyReLU(0.2, True), nn.ELU(),
        nn.CELU(2.0, True), nn.SELU(), nn.GELU(), nn.GELU("tanh"), nn.SiLU(True), nn.Mish(),
        nn.Tanh(), nn.Sigmoid(), nn.Hardtanh(), nn.Hardtanh(-2, 2, True), nn.Hardsigmoid(),
        nn.Hardswish(True), nn.Hardshrink(), nn.Softshrink(0.3), nn.Tanhshrink(),
        nn.Softsign(), nn.Softplus(), nn.Softplus(2, 10), nn.LogSigmoid(), nn.Softmax(),
        nn.Softmax(dim=1), nn.LogSoftmax(1), nn.Softmin(0), nn.Threshold(0.1, 20), nn.GLU(),
        nn.PReLU(), nn.PReLU(3), nn.RReLU(), nn.MSELoss(), nn.CrossEntropyLoss(),
        nn.BCEWithLogitsLoss(), nn.Sequential(), nn.ModuleList(),
        nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())),
        nn.Sequential(OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())])),
        nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh(), nn.Linear(1, 1), nn.Linear(1, 1)]),
        nn.ModuleDict({"a": nn.ReLU(), "b": nn.Linear(2, 2)}),
        nn.ParameterList([nn.Parameter(torch.ones(2, 3))]),
        nn.ParameterList([nn.Parameter(torch.ones(2, 3)),
                          nn.Parameter(torch.ones(2, dtype=torch.float64))]),
        nn.ParameterDict({"a": nn.Parameter(torch.ones(2, 3)), "b": nn.Parameter(torch.ones(2))}),
        nn.ParameterList(), nn.ParameterDict(),
    ]
    return {"reprs": [repr(m) for m in mods],
            "parameter": repr(nn.Parameter(torch.tensor([1.0, 2.0]))),
            "parameter_no_grad": repr(nn.Parameter(torch.tensor([1.0]), requires_grad=False)),
            "parameter_empty": repr(nn.Parameter())}


def _net(torch):
    nn = torch.nn
    net = nn.Sequential(OrderedDict([("fc1", nn.Linear(3, 4)), ("act", nn.ReLU()),
                                     ("fc2", nn.Linear(4, 2))]))
    return fix(torch, net)


@case("module")
def introspection(torch):
    nn = torch.nn
    net = _net(torch)
    net.register_buffer("steps", torch.tensor([0, 1]))
    net.register_buffer("scratch", torch.zeros(2), persistent=False)
    return {
        "named_parameters": [n for n, _ in net.named_parameters()],
        "parameters": [tuple(p.shape) for p in net.parameters()],
        "named_buffers": [n for n, _ in net.named_buffers()],
        "children": [repr(c) for c in net.children()],
        "named_modules": [n for n, _ in net.named_modules()],
        "state_dict": list(net.state_dict().keys()),
        "len": len(net),
        "slice": repr(net[1:]),
        "neg_index": repr(net[-1]),
        "training": [net.training, net.eval().training, net.fc1.training, net.train().training],
        "requires_grad_": [p.requires_grad for p in net.requires_grad_(False).parameters()],
    }


@case("module")
def state_dict_round_trip(torch):
    nn = torch.nn
    a = _net(torch)
    b = nn.Sequential(OrderedDict([("fc1", nn.Linear(3, 4)), ("act", nn.ReLU()),
                                   ("fc2", nn.Linear(4, 2))]))
    res = {"result": repr(b.load_state_dict(a.state_dict()))}
    x = T(torch, 2, 3)
    res["same"] = bool(torch.equal(a(x), b(x)))
    sd = a.state_dict()
    res["values"] = [v for v in sd.values()]
    res["missing"] = error(lambda: b.load_state_dict({"fc1.weight": sd["fc1.weight"]}))
    extra = dict(sd)
    extra["fc3.weight"] = torch.ones(1)
    res["unexpected"] = error(lambda: b.load_state_dict(extra))
    bad = dict(sd)
    bad["fc1.bias"] = torch.ones(5)
    res["size_mismatch"] = error(lambda: b.load_state_dict(bad))
    res["non_strict"] = repr(b.load_state_dict({"fc1.weight": sd["fc1.weight"]}, strict=False))
    return res


@case("module")
def module_errors(torch):
    nn = torch.nn
    lin = nn.Linear(3, 2)

    def assign_tensor():
        lin.weight = torch.ones(2, 3)

    def assign_before_init():
        class Bad(nn.Module):
            def __init__(self):
                self.w = nn.Parameter(torch.ones(1))
        Bad()

    def non_leaf_param():
        lin.register_parameter("p", (nn.Parameter(torch.ones(2)) * 2))

    def missing_forward():
        nn.Module()(torch.ones(1))

    return {
        "linear_shape": error(lambda: lin(torch.ones(4, 5))),
        "linear_1d_shape": error(lambda: lin(torch.ones(5))),
        "assign_tensor": error(assign_tensor),
        "before_init": error(assign_before_init),
        "non_leaf": error(non_leaf_param),
        "missing_forward": error(missing_forward),
        "train_not_bool": error(lambda: lin.train(1)),
        "no_attribute": error(lambda: lin.wieght),
        "sequential_index": error(lambda: nn.Sequential(nn.ReLU())[3]),
    }


@case("module")
def hooks(torch):
    nn = torch.nn
    log = []
    lin = fix(torch, nn.Linear(3, 2))
    lin.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    h = lin.register_forward_hook(lambda m, args, out: out + 1)
    lin.register_full_backward_hook(
        lambda m, gin, gout: log.append([[None if g is None else g.tolist() for g in gin],
                                         [g.tolist() for g in gout]]))
    x = T(torch, 2, 3, grad=True)
    out = lin(x)
    out.sum().backward()
    h.remove()
    out2 = lin(T(torch, 2, 3))
    return {"out": out.detach(), "grad_fn": out.grad_fn.name(), "log": log, "x_grad": x.grad,
            "out2": out2.detach(), "w_grad": lin.weight.grad}


@case("module")
def zero_grad_to_apply(torch):
    nn = torch.nn
    net = _net(torch)
    net(T(torch, 2, 3)).sum().backward()
    res = {"before": [p.grad is None for p in net.parameters()]}
    net.zero_grad()
    res["set_to_none"] = [p.grad is None for p in net.parameters()]
    net(T(torch, 2, 3)).sum().backward()
    net.zero_grad(set_to_none=False)
    res["zeroed"] = [p.grad for p in net.parameters()]
    names = []
    net.apply(lambda m: names.append(type(m).__name__))
    res["apply"] = names
    net.double()
    res["double"] = [str(p.dtype) for p in net.parameters()] + [str(net(T(torch, 1, 3).double()).dtype)]
    net.to(torch.float32)
    res["to"] = [str(p.dtype) for p in net.parameters()]
    return res


@case("init")
def init_deterministic(torch):
    nn = torch.nn
    init = nn.init
    w = torch.empty(3, 5)
    c = torch.empty(4, 2, 3, 3)
    return {
        "gains": [init.calculate_gain(n) for n in ("linear", "conv2d", "sigmoid", "tanh", "relu",
                                                   "leaky_relu", "selu")]
                 + [init.calculate_gain("leaky_relu", 0.2)],
        "eye": init.eye_(torch.empty(3, 4)),
        "constant": init.constant_(torch.empty(2, 2), 0.3),
        "ones": init.ones_(w.clone()), "zeros": init.zeros_(w.clone()),
        "dirac": init.dirac_(torch.empty(2, 2, 3)),
        "fans": list(init._calculate_fan_in_and_fan_out(c)),
        "fan_error": error(lambda: init._calculate_fan_in_and_fan_out(torch.empty(3))),
        "gain_error": error(lambda: init.calculate_gain("cube")),
    }


@case("utils")
def clip_and_vectors(torch):
    nn = torch.nn
    net = _net(torch)
    net(T(torch, 4, 3)).pow(2).sum().backward()
    total = nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    grads = [p.grad.clone() for p in net.parameters()]
    nn.utils.clip_grad_value_(net.parameters(), 0.01)
    vec = nn.utils.parameters_to_vector(net.parameters())
    nn.utils.vector_to_parameters(vec * 2, net.parameters())
    net2 = _net(torch)
    inf = nn.utils.clip_grad_norm_(net2.parameters(), 1.0, norm_type=math.inf)
    return {"total": total, "clipped": grads, "valued": [p.grad for p in net.parameters()],
            "vec": vec.detach(), "doubled": [p.detach() for p in net.parameters()],
            "no_grads_norm": inf}


# ------------------------------------------------------------------ optimizers

def _train(torch, make_opt, steps=5, closure_based=False, sched=None, dtype=None):
    """``steps`` optimizer steps of a small MLP on fixed data; params and losses."""
    nn = torch.nn
    net = fix(torch, nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2)), scale=0.7)
    if dtype is not None:
        dtype = getattr(torch, dtype)
        net.to(dtype)
    x = T(torch, 8, 3, k=4, dtype=dtype)
    y = T(torch, 8, 2, k=6, dtype=dtype)
    opt = make_opt(net.parameters())
    scheduler = sched(opt) if sched is not None else None
    losses, lrs = [], []

    def closure():
        opt.zero_grad()
        loss = ((net(x) - y) ** 2).mean()
        loss.backward()
        return loss

    for _ in range(steps):
        if closure_based:
            losses.append(float(opt.step(closure)))
        else:
            losses.append(float(closure()))
            opt.step()
        if scheduler is not None:
            scheduler.step()
            lrs.append(scheduler.get_last_lr())
    res = {"params": [p.detach() for p in net.parameters()], "losses": losses}
    if scheduler is not None:
        res["lrs"] = lrs
    return res


def _opt_case(name, make, tolerance=None, **kw):
    def fn(torch):
        return _train(torch, lambda params: make(torch, params), **kw)
    if tolerance is not None:
        fn.tolerance = tolerance
    CASES.setdefault("optim", {})[name] = fn


_opt_case("sgd", lambda t, p: t.optim.SGD(p, lr=0.1))
_opt_case("sgd_momentum", lambda t, p: t.optim.SGD(p, lr=0.1, momentum=0.9))
_opt_case("sgd_nesterov_wd", lambda t, p: t.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True,
                                                      weight_decay=0.01))
_opt_case("sgd_dampening_maximize", lambda t, p: t.optim.SGD(p, lr=0.05, momentum=0.5,
                                                             dampening=0.3, maximize=True))
_opt_case("sgd_double", lambda t, p: t.optim.SGD(p, lr=0.1, momentum=0.9),
          dtype="float64")
_opt_case("adam", lambda t, p: t.optim.Adam(p, lr=0.01))
_opt_case("adam_amsgrad_wd", lambda t, p: t.optim.Adam(p, lr=0.02, amsgrad=True,
                                                       weight_decay=0.1))
_opt_case("adamw", lambda t, p: t.optim.AdamW(p, lr=0.01))
_opt_case("rmsprop", lambda t, p: t.optim.RMSprop(p, lr=0.01))
_opt_case("rmsprop_centered_momentum", lambda t, p: t.optim.RMSprop(p, lr=0.01, momentum=0.9,
                                                                    centered=True,
                                                                    weight_decay=0.01))
_opt_case("adagrad", lambda t, p: t.optim.Adagrad(p, lr=0.1, lr_decay=0.01,
                                                  initial_accumulator_value=0.1))
_opt_case("adadelta", lambda t, p: t.optim.Adadelta(p, lr=1.0, weight_decay=0.01))
# L-BFGS sums dot products over many iterations: float32 summation order shows
_opt_case("lbfgs", lambda t, p: t.optim.LBFGS(p, lr=0.5, max_iter=5), steps=3,
          closure_based=True, tolerance=(1e-4, 2e-5))
_opt_case("lbfgs_strong_wolfe", lambda t, p: t.optim.LBFGS(p, max_iter=6,
                                                           line_search_fn="strong_wolfe"),
          steps=2, closure_based=True, tolerance=(1e-4, 2e-5))


def _sched_case(name, make_sched, steps=12, opt=None):
    def fn(torch):
        mk = opt or (lambda t, p: t.optim.SGD(p, lr=0.1, momentum=0.9))
        return _train(torch, lambda params: mk(torch, params), steps=steps,
                      sched=lambda o: make_sched(torch, o))
    CASES.setdefault("schedulers", {})[name] = fn


_sched_case("step_lr", lambda t, o: t.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
_sched_case("multistep_lr", lambda t, o: t.optim.lr_scheduler.MultiStepLR(o, [2, 5, 5, 9], 0.3))
_sched_case("exponential_lr", lambda t, o: t.optim.lr_scheduler.ExponentialLR(o, 0.9))
_sched_case("cosine_lr", lambda t, o: t.optim.lr_scheduler.CosineAnnealingLR(o, T_max=5,
                                                                             eta_min=0.01))
_sched_case("lambda_lr", lambda t, o: t.optim.lr_scheduler.LambdaLR(o, lambda e: 0.95 ** e))
_sched_case("one_cycle_sgd", lambda t, o: t.optim.lr_scheduler.OneCycleLR(o, max_lr=0.5,
                                                                          total_steps=12))
_sched_case("one_cycle_adam_linear", lambda t, o: t.optim.lr_scheduler.OneCycleLR(
    o, max_lr=0.05, total_steps=14, anneal_strategy="linear", three_phase=True),
    opt=lambda t, p: t.optim.Adam(p, lr=0.01))


@case("schedulers")
def reduce_on_plateau(torch):
    p = torch.nn.Parameter(torch.ones(1))
    opt = torch.optim.SGD([p], lr=1.0)
    s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, cooldown=1, factor=0.5)
    lrs = []
    for metric in [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85]:
        s.step(metric)
        lrs.append(s.get_last_lr())
    return {"lrs": lrs}


@case("optim")
def optimizer_api(torch):
    nn = torch.nn
    net = _net(torch)
    opt = torch.optim.SGD([{"params": net.fc1.parameters()},
                           {"params": net.fc2.parameters(), "lr": 0.01}], lr=0.1, momentum=0.9)
    net(T(torch, 2, 3)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    opt2 = torch.optim.SGD(_net(torch).parameters(), lr=0.5)
    p = nn.Parameter(torch.ones(2))
    return {
        "repr": repr(opt), "param_groups": [sorted(g) for g in opt.param_groups],
        "state_keys": sorted(sd["state"]), "groups": [g["params"] for g in sd["param_groups"]],
        "bufs": [sd["state"][i]["momentum_buffer"] for i in sorted(sd["state"])],
        "load_mismatch": error(lambda: opt2.load_state_dict(sd)),
        "non_iterable": error(lambda: torch.optim.SGD(5, lr=0.1)),
        "tensor_params": error(lambda: torch.optim.SGD(p, lr=0.1)),
        "non_leaf": error(lambda: torch.optim.SGD([p * 2], lr=0.1)),
        "empty": error(lambda: torch.optim.Adam([], lr=0.1)),
        "bad_lr": error(lambda: torch.optim.SGD([p], lr=-1)),
        "bad_beta": error(lambda: torch.optim.Adam([p], betas=(1.0, 0.9))),
        "nesterov": error(lambda: torch.optim.SGD([p], lr=0.1, nesterov=True)),
        "duplicate_group": error(lambda: torch.optim.SGD([{"params": [p]}, {"params": [p]}],
                                                         lr=0.1)),
        "adam_repr": repr(torch.optim.Adam([p])),
    }


@case("optim")
def optimizer_state_round_trip(torch):
    res = {}
    for name in ("SGD", "Adam", "RMSprop", "Adagrad"):
        def make(params, name=name):
            kw = {"lr": 0.05, "momentum": 0.9} if name in ("SGD", "RMSprop") else {"lr": 0.05}
            return getattr(torch.optim, name)(params, **kw)
        torch.manual_seed(0)
        nn = torch.nn
        net = fix(torch, nn.Linear(3, 2))
        opt = make(net.parameters())
        x = T(torch, 4, 3)
        for _ in range(3):
            opt.zero_grad()
            net(x).pow(2).sum().backward()
            opt.step()
        net2 = fix(torch, nn.Linear(3, 2))
        net2.load_state_dict(net.state_dict())
        opt2 = make(net2.parameters())
        opt2.load_state_dict(opt.state_dict())
        for o, n in ((opt, net), (opt2, net2)):
            o.zero_grad()
            n(x).pow(2).sum().backward()
            o.step()
        res[name] = [net.weight.detach(), net2.weight.detach()]
    return res


# ------------------------------------------------------------------ data

@case("data")
def loaders(torch):
    data_mod = torch.utils.data
    ds = data_mod.TensorDataset(T(torch, 7, 2), torch.arange(7))
    out = {"len": len(ds), "item": list(ds[3]),
           "batches": [list(b) for b in data_mod.DataLoader(ds, batch_size=3)],
           "drop_last": [list(b) for b in data_mod.DataLoader(ds, batch_size=3, drop_last=True)],
           "lens": [len(data_mod.DataLoader(ds, batch_size=3)),
                    len(data_mod.DataLoader(ds, batch_size=3, drop_last=True)),
                    len(data_mod.DataLoader(ds, batch_size=None))],
           "unbatched": [list(b) for b in data_mod.DataLoader(ds, batch_size=None)][:2],
           "mismatch": error(lambda: data_mod.TensorDataset(torch.ones(3), torch.ones(4))),
           "split_sizes": error(lambda: data_mod.random_split(ds, [3, 3]))}
    return out


@case("data")
def custom_dataset_collate(torch):
    data_mod = torch.utils.data

    class Squares(data_mod.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {"x": float(i), "y": i * i, "v": torch.tensor([i, -i])}

    return {"batches": [[b["x"], b["y"], b["v"]]
                        for b in data_mod.DataLoader(Squares(), batch_size=2)]}


# ------------------------------------------------------------------ the random stream

@case("random")
def default_initialisation(torch):
    nn = torch.nn
    torch.manual_seed(0)
    mods = [nn.Linear(5, 3), nn.Linear(4, 2, bias=False), nn.Bilinear(2, 3, 2),
            nn.Embedding(4, 3, padding_idx=1), nn.PReLU(2)]
    return {"params": [[p.detach() for p in m.parameters()] for m in mods],
            "after": torch.rand(3)}


@case("random")
def init_functions(torch):
    init = torch.nn.init
    torch.manual_seed(1)
    g = torch.Generator().manual_seed(7)
    return {
        "uniform": init.uniform_(torch.empty(3, 4), -2, 3),
        "normal": init.normal_(torch.empty(20), 1.0, 0.5),
        "xavier_uniform": init.xavier_uniform_(torch.empty(4, 6), gain=2.0),
        "xavier_normal": init.xavier_normal_(torch.empty(4, 6)),
        "kaiming_uniform": init.kaiming_uniform_(torch.empty(5, 3), nonlinearity="relu"),
        "kaiming_normal": init.kaiming_normal_(torch.empty(5, 3, 2), mode="fan_out"),
        "orthogonal": init.orthogonal_(torch.empty(3, 5)),
        "trunc_normal": init.trunc_normal_(torch.empty(17), std=2.0, a=-1.0, b=1.0),
        "with_generator": init.uniform_(torch.empty(5), generator=g),
        "double": init.normal_(torch.empty(4, dtype=torch.float64)),
    }


@case("random")
def shuffled_loading(torch):
    data_mod = torch.utils.data
    ds = data_mod.TensorDataset(torch.arange(10))
    torch.manual_seed(3)
    epochs = [[b[0].tolist() for b in data_mod.DataLoader(ds, batch_size=4, shuffle=True)]
              for _ in range(2)]
    g = torch.Generator().manual_seed(5)
    with_gen = [b[0].tolist() for b in data_mod.DataLoader(ds, batch_size=3, shuffle=True,
                                                             generator=g)]
    torch.manual_seed(4)
    a, b = data_mod.random_split(ds, [0.7, 0.3])
    return {"epochs": epochs, "generator": with_gen, "split": [list(a.indices), list(b.indices)],
            "after": torch.rand(2)}


@case("random")
def dropout_train(torch):
    torch.manual_seed(0)
    m = torch.nn.Dropout(0.4)
    x = torch.ones(4, 6, requires_grad=True)
    y = m(x)
    y.sum().backward()
    return {"y": y.detach(), "grad": x.grad, "after": torch.rand(2)}


# convolution, pooling and normalisation layers live in their own file
from nn_cases_conv import *  # noqa: E402,F401,F403
from nn_cases_rnn import *  # noqa: E402,F401,F403
from nn_cases_transformer import *  # noqa: E402,F401,F403
from nn_cases_lazy import *  # noqa: E402,F401,F403
