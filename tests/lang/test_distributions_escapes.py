"""torch.distributions in scripts: the import forms tutorials use run, a missing distribution says PyTorch has
it, and the new module, classes and objects reach nothing more (values: tests/golden/exact.json cases
distributions-*)."""

from __future__ import annotations

import pytest

from agrad.lang import Source, run


def test_import_forms_and_a_reinforce_step(run_ok):
    res = run_ok("import torch\nimport torch.distributions as D\nfrom torch.distributions import Categorical, Normal\n"
                 "from torch.distributions.kl import kl_divergence\nfrom torch.distributions import constraints\n"
                 "import torch.distributions.kl as kl\n"
                 "torch.manual_seed(0)\nm = Categorical(torch.tensor([0.2, 0.3, 0.5]))\na = m.sample()\n"
                 "print(m, a, m.log_prob(a))\n"
                 "n = torch.distributions.Normal(torch.zeros(2), torch.ones(2))\n"
                 "print(kl_divergence(n, Normal(torch.ones(2), 2.0)), kl.kl_divergence(n, n))\n"
                 "print(type(m), type(D.constraints.real), constraints.positive, D.Bernoulli(0.5).support)\n"
                 "try:\n    Normal(0.0, -1.0)\nexcept ValueError as e:\n    print(str(e).splitlines()[0])\n")
    assert res.stdout == (
        "Categorical(probs: torch.Size([3]), logits: torch.Size([3])) tensor(2) tensor(-0.6931)\n"
        "tensor([0.4431, 0.4431]) tensor([0., 0.])\n"
        "<class 'torch.distributions.categorical.Categorical'> <class 'torch.distributions.constraints._Real'> "
        "GreaterThan(lower_bound=0.0) Boolean()\n"
        "Expected parameter scale (Tensor of shape ()) of distribution Normal(loc: 0.0, scale: -1.0) to satisfy "
        "the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n")


@pytest.mark.parametrize("use,text", [
    ("D.Gamma", "module 'torch.distributions' has no attribute 'Gamma' (PyTorch has torch.distributions.Gamma; "
                "agrad does not implement it)"),
    ("from torch.distributions import MultivariateNormal", "MultivariateNormal"),
    ("D.kl.kl_divergence(D.Normal(0.0, 1.0), 3)", "No KL(p || q) is implemented for p type Normal and q type int"),
])
def test_missing_names_say_so(use, text):
    err = run(Source("s.py", f"import torch\nimport torch.distributions as D\n{use}\n"), timeout=20).error
    assert err is not None and text in err.message, err and err.render()


def test_class_constraints_are_not_changed_for_later_scripts():
    err = run(Source("s.py", "import torch\nD = torch.distributions\n"
                             "D.Normal.arg_constraints['scale'] = D.constraints.real\n"), timeout=20).error
    assert err is not None and err.type_name == "TypeError"
    assert "arg_constraints cannot be changed" in err.message
    res = run(Source("s.py", "import torch\nprint(torch.distributions.Normal(0.0, 1.0).arg_constraints)\n"), timeout=20)
    assert res.stdout == "{'loc': Real(), 'scale': GreaterThan(lower_bound=0.0)}\n"


@pytest.mark.parametrize("use", [
    "D.__dict__", "D.__loader__", "D.kl.__dict__", "getattr(D, '__spec__')", "D.normal", "D.utils",
    "D.distribution", "D.kl.math", "D.kl.warnings", "D.kl.total_ordering", "D.kl._KL_REGISTRY",
    "D.kl._KL_MEMOIZE", "D.register_kl", "D.kl.register_kl", "from torch.distributions.kl import register_kl",
    "from torch.distributions import utils", "import torch.distributions.utils",
    "import torch.distributions.normal", "D.annotations", "D.constraints.torch", "D.constraints._Frozen",
    "D.Normal.__init__", "D.Normal.__subclasses__", "D.Normal.mro", "D.Normal._get_checked_instance",
    "D.Normal(0.0, 1.0).__dict__", "D.Normal(0.0, 1.0)._validate_sample", "D.Normal(0.0, 1.0)._extended_shape",
    "D.Normal(0.0, 1.0).__class__.__mro__", "D.Normal(0.0, 1.0).sample.__func__",
    "D.Normal(0.0, 1.0).sample.__globals__", "D.Categorical(torch.ones(2))._param",
    "D.Categorical.logits.wrapped.__globals__", "D.Categorical.support.fget.__globals__",
    "D.constraints.real.__class__.__subclasses__()", "D.constraints.dependent.__call__",
    "D.kl_divergence.__globals__",
    "D.Normal(0.0, 1.0).loc = torch.ones(1)", "D.constraints.positive.lower_bound = -1.0",
    "D.Normal.has_rsample = False", "setattr(D.Normal(0.0, 1.0), '_validate_args', False)",
    "D.Normal(0.0, 1.0)._validate_args = False", "del D.Normal(0.0, 1.0).loc",
    "D.Normal(0.0, 1.0).arg_constraints.clear()", "D.Categorical.arg_constraints.update({})",
    "D.Normal.arg_constraints.pop('loc')", "type(D.Normal(0.0, 1.0).arg_constraints).__setitem__",
    "D.Normal(0.0, 1.0).expand((2,), _instance=1).__dict__",
])
def test_distributions_reach_nothing_more(use):
    err = run(Source("attack.py", f"import torch\nimport torch.distributions as D\n{use}\nprint('not blocked')\n"),
              timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render()


def test_numpy_finfo_as_reinforcement_learning_examples_use_it(run_ok):
    res = run_ok("import numpy as np\nfi = np.finfo(np.float32)\n"
                 "print(fi.eps.item(), fi.bits, fi.dtype, np.finfo(np.float64).tiny, np.finfo('float16').max)\n")
    assert res.stdout == "1.1920928955078125e-07 32 float32 2.2250738585072014e-308 6.55e+04\n"
    err = run(Source("s.py", "import numpy as np\nnp.finfo(np.int32)\n"), timeout=20).error
    assert err is not None and err.type_name == "ValueError"


@pytest.mark.parametrize("use", [
    "np.finfo(np.float32)._asdict()", "np.finfo(np.float32)._make([1])", "np.finfo(np.float32)._fields",
    "np.finfo(np.float32).__class__.__mro__", "type(np.finfo(np.float32)).__new__", "np.finfo.__globals__",
    "np.finfo(np.float32).eps.__class__.__mro__", "np.finfo(np.float32).dtype.type", "np.finfo(np.float32).eps = 1",
    "np.finfo(np.float32).__getattribute__", "np.finfo('O')",
])
def test_numpy_finfo_reaches_nothing_more(use):
    err = run(Source("attack.py", f"import numpy as np\n{use}\nprint('not blocked')\n"), timeout=20).error
    assert err is not None, f"not blocked: {use!r}"
    assert "Traceback" not in err.render()


VAE_SCRIPT = """\
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence, Bernoulli, Categorical, Uniform
import torch.distributions as D

torch.manual_seed(0)

class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 8)
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Linear(2, 6)

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar)
        q = Normal(mu, std)
        z = q.rsample()
        p = Normal(torch.zeros_like(mu), torch.ones_like(std))
        kl = kl_divergence(q, p).sum(-1)
        logits = self.dec(z)
        rec = Bernoulli(logits=logits).log_prob(x).sum(-1)
        return (kl - rec).mean(), z, q

model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.bernoulli(torch.full((4, 6), 0.4))
for step in range(5):
    loss, z, q = model(x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", z.shape, q)
print(loss.grad_fn, z.grad_fn)
print(model.mu.weight.grad)

s = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0]))
m = Categorical(logits=torch.tensor([0.5, 1.5, -1.0]))
counts = [0, 0, 0]
for _ in range(30):
    counts[m.sample().item()] += 1
print(counts, m.probs.sum().item(), f"{m.entropy().item():.4f}", m)
print(Uniform(-1.0, 1.0).sample((4,)), D.Uniform(torch.zeros(2), torch.ones(2)).mean)
print(str(D.Normal(0.0, 1.0)), repr(D.Categorical(torch.ones(2))), "{}".format(D.Bernoulli(0.5)))
try:
    Categorical(torch.tensor([[0.3, -0.1]]))
except ValueError as e:
    print("ValueError:", e)
try:
    kl_divergence(m, s)
except NotImplementedError as e:
    print("NotImplementedError:", e)
print(m.support, D.Normal.arg_constraints, D.Normal.has_rsample, m.batch_shape, m.event_shape)
"""

VAE_STDOUT = """\
0 4.689334 torch.Size([4, 2]) Normal(loc: torch.Size([4, 2]), scale: torch.Size([4, 2]))
1 4.475384 torch.Size([4, 2]) Normal(loc: torch.Size([4, 2]), scale: torch.Size([4, 2]))
2 4.680986 torch.Size([4, 2]) Normal(loc: torch.Size([4, 2]), scale: torch.Size([4, 2]))
3 4.117976 torch.Size([4, 2]) Normal(loc: torch.Size([4, 2]), scale: torch.Size([4, 2]))
4 4.595482 torch.Size([4, 2]) Normal(loc: torch.Size([4, 2]), scale: torch.Size([4, 2]))
<MeanBackward0 object> <AddBackward0 object>
tensor([[ 0.0000,  0.0000,  0.0000, -0.2277, -0.0699,  0.0000, -0.0286,  0.0000],
        [ 0.0000,  0.0000,  0.0000, -0.0470,  0.0267,  0.0000,  0.0053,  0.0000]])
[8, 22, 0] 1.0000001192092896 0.7668 Categorical(probs: torch.Size([3]), logits: torch.Size([3]))
tensor([-0.7695,  0.6713,  0.7109, -0.1138]) tensor([0.5000, 0.5000])
Normal(loc: 0.0, scale: 1.0) Categorical(probs: torch.Size([2])) Bernoulli(probs: 0.5)
ValueError: Expected parameter probs (Tensor of shape (1, 2)) of distribution Categorical(probs: torch.Size([1, 2])) to satisfy the constraint Simplex(), but found invalid values:
tensor([[ 1.5000, -0.5000]])
NotImplementedError: No KL(p || q) is implemented for p type Categorical and q type Normal
IntegerInterval(lower_bound=0, upper_bound=2) {'loc': Real(), 'scale': GreaterThan(lower_bound=0.0)} True torch.Size([]) torch.Size([])
"""


def test_a_vae_step_and_the_distributions_api_print_what_pytorch_prints(run_ok):
    """Normal(mu, std).rsample(), kl_divergence to a standard normal, a Bernoulli(logits=...) likelihood, five Adam
    steps, then the objects' reprs and errors (the expected text is PyTorch 2.13's output of this script)."""
    import re
    res = run_ok(VAE_SCRIPT)
    assert re.sub(r" at 0x[0-9a-f]+", "", res.stdout) == VAE_STDOUT


def test_a_script_class_cannot_subclass_a_distribution():
    err = run(Source("s.py", "import torch\nclass N(torch.distributions.Normal):\n    pass\n"), timeout=20).error
    assert err is not None and err.type_name == "TypeError" and "classes without a base" in err.message
