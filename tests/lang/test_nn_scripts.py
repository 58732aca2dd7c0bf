"""nn.Module, optim.Optimizer and data.Dataset subclasses in scripts; super(); escapes."""

from __future__ import annotations

import textwrap

import pytest

from agrad.lang import Source, run

MYNETWORK = textwrap.dedent("""
    import torch
    class MyNetwork(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.param1 = torch.nn.Parameter(torch.zeros((5,)),requires_grad=True)
            self.linear = torch.nn.Linear(in_features=5,out_features=1,bias=True)
        def forward(self,x):
            return self.linear(x * self.param1)
    net = MyNetwork()
    with torch.no_grad():
        print(net.param1)
        net.linear.weight.copy_(torch.tensor([[0.1, -0.2, 0.3, -0.4, 0.5]]))
        net.linear.bias.fill_(0.25)
        print(net.linear.weight)
        print(net.linear.bias)
    print(net)
    out = net(torch.ones(2, 5))
    out.sum().backward()
    print(out, net.param1.grad, net.linear.bias.grad)
    print([n for n, p in net.named_parameters()])
""")

TRAINING = textwrap.dedent("""
    import torch
    from torch import nn, optim
    from torch.utils.data import DataLoader, TensorDataset
    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.fc1 = nn.Linear(4, 6)
            self.fc2 = nn.Linear(6, 3)
        def forward(self, x):
            x = torch.relu(self.fc1(x))
            return self.fc2(x)
    net = Net()
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 4)
    inputs = torch.linspace(-1, 1, 32).reshape(8, 4)
    labels = torch.tensor([0, 1, 2, 1, 0, 2, 2, 1])
    trainloader = DataLoader(TensorDataset(inputs, labels), batch_size=3)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(3):
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            inputs_b, labels_b = data
            optimizer.zero_grad()
            outputs = net(inputs_b)
            loss = criterion(outputs, labels_b)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"epoch {epoch}: {running_loss:.4f}")
    correct = 0
    total = 0
    with torch.no_grad():
        for data in trainloader:
            images, lbls = data
            outputs = net(images)
            _, predicted = torch.max(outputs.data, 1)
            total += lbls.size(0)
            correct += (predicted == lbls).sum().item()
    print('Finished Training', correct, total)
    print(net.fc2.weight)
""")


def _run_ok(text):
    res = run(Source("net.py", text), timeout=60)
    assert res.error is None, res.error.render()
    return res


def _torch_stdout(text):
    torch = pytest.importorskip("torch")
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(text, "net.py", "exec"), {"torch": torch})   # noqa: S102 (the reference)
    return buf.getvalue()


SELU_NET = textwrap.dedent("""
    import torch
    import torch.nn as nn
    torch.manual_seed(1)
    m = nn.Sequential(nn.Linear(4, 3), nn.SELU(), nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(0.1))
    print(m)
    x = torch.randn(5, 4)
    y = m(x)
    print(y)
    y.sum().backward()
    print(m[0].weight.grad)
    print(m.eval() is m, m.training, m[2].training)
    print(m(x))
    m.train()
    print(m(x))
""")


def test_model_eval_switches_dropout_off():
    out = _run_ok(SELU_NET).stdout
    assert "AlphaDropout(p=0.2, inplace=False)" in out and "True False False" in out


def test_mynetwork_runs():
    out = _run_ok(MYNETWORK).stdout
    assert out.startswith("Parameter containing:\ntensor([0., 0., 0., 0., 0.], requires_grad=True)")
    assert "MyNetwork(\n  (linear): Linear(in_features=5, out_features=1, bias=True)\n)" in out
    assert "['param1', 'linear.weight', 'linear.bias']" in out


def test_training_template_runs():
    out = _run_ok(TRAINING).stdout
    assert out.count("epoch ") == 3 and "Finished Training" in out


@pytest.mark.torch
@pytest.mark.parametrize("text", [MYNETWORK, TRAINING, SELU_NET], ids=["mynetwork", "training", "selu-net"])
def test_scripts_print_what_torch_prints(text):
    assert _run_ok(text).stdout == _torch_stdout(text)


def test_dataset_and_optimizer_subclasses():
    out = _run_ok(textwrap.dedent("""
        import torch
        from torch import optim
        from torch.utils.data import Dataset, DataLoader
        class Squares(Dataset):
            def __init__(self, n):
                self.n = n
            def __len__(self):
                return self.n
            def __getitem__(self, i):
                x = torch.tensor([float(i)])
                return x, x * x
        print([yb.view(-1).tolist() for xb, yb in DataLoader(Squares(5), batch_size=2)])
        class MySGD(optim.Optimizer):
            def __init__(self, params, lr=0.1):
                super().__init__(params, dict(lr=lr))
            @torch.no_grad()
            def step(self, closure=None):
                for group in self.param_groups:
                    for p in group['params']:
                        p.add_(p.grad, alpha=-group['lr'])
        w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        opt = MySGD([w], lr=0.25)
        for _ in range(2):
            opt.zero_grad()
            (w ** 2).sum().backward()
            opt.step()
        print(w.tolist(), opt.state_dict()['param_groups'][0]['lr'])
    """)).stdout
    assert out == "[[0.0, 1.0], [4.0, 9.0], [16.0]]\n[0.25, -0.5] 0.25\n"


def test_engine_module_attributes_can_be_replaced():
    out = _run_ok("import torch\nnet = torch.nn.Sequential(torch.nn.Linear(2, 3))\n"
                  "net.head = torch.nn.Linear(3, 1)\nprint([n for n, _ in net.named_parameters()])"
                  ).stdout
    assert out == "['0.weight', '0.bias', 'head.weight', 'head.bias']\n"


def test_hooks_and_state_dict_in_scripts():
    out = _run_ok(textwrap.dedent("""
        import torch
        lin = torch.nn.Linear(2, 1)
        seen = []
        h = lin.register_forward_hook(lambda m, args, out: seen.append(out.shape))
        lin.register_full_backward_hook(lambda m, gin, gout: seen.append(len(gin)))
        lin(torch.ones(3, 2, requires_grad=True)).sum().backward()
        h.remove()
        sd = lin.state_dict()
        print(seen, list(sd.keys()), lin.load_state_dict(sd))
    """)).stdout
    assert out == "[torch.Size([3, 1]), 1] ['weight', 'bias'] <All keys matched successfully>\n"


@pytest.mark.parametrize("code,fragment", [
    ("class A(int):\n    pass", "support classes without a base"),
    ("import torch\nclass M(torch.nn.Module):\n    def f(self):\n        return super().__class__.__mro__\n"
     "M().f()", "'__class__' of 'super' object is not allowed"),
    ("import torch\nclass M(torch.nn.Module):\n    def f(self):\n        return super()._apply\n"
     "M().f()", "'_apply' of 'super' object is not allowed"),
    ("import torch\nclass M(torch.nn.Module):\n    pass\nsuper(M, M()).__reduce_ex__(2)",
     "'__reduce_ex__' of 'super' object is not allowed"),
    ("import torch\nclass M(torch.nn.Module):\n    pass\nsuper(M, M()).__getattribute__",
     "'__getattribute__' of 'super' object is not allowed"),
    ("s = super()", "super(): no arguments"),
    ("super(int, 3)", "takes a class defined in the script"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm.__dict__", "'__dict__' of 'Linear'"),
    # (_parameters is readable since d2l's MySequential needs _modules: tests/lang/test_escapes.py)
    ("import torch\nm = torch.nn.Linear(1, 1)\nm._parameters.__class__.__mro__", "dunder"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm._non_persistent_buffers_set", "'_non_persistent_buffers_set' of"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm._apply(print)", "'_apply' of 'Linear'"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm.state_dict().__class__.__mro__", "dunder"),
    ("import torch\nopt = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=1)\n"
     "opt.state.default_factory", "'default_factory' of 'defaultdict'"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm._forward_hooks = {}", "cannot be set"),
    ("import torch.utils\ntorch.utils.data.dataloader", "has no attribute 'dataloader'"),
    # model.eval() is allowed; nothing else named eval, and nothing through it
    ("import torch\nm = torch.nn.Linear(1, 1)\nm.eval.__func__", "dunder"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm.eval.__self__", "dunder"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm.eval().eval.__globals__", "dunder"),
    ("import torch\nclass M(torch.nn.Module):\n    def eval(self):\n        return eval\nM().eval()", "not available in agrad scripts"),
    ("import torch\nclass M(torch.nn.Module):\n    def eval(self):\n        return 1\nM().eval.__func__", "dunder"),
    ("import torch\nm = torch.nn.Linear(1, 1)\nm.eval = eval", "not available in agrad scripts"),
    ("import numpy as np\nnp.eval", "has no attribute 'eval'"),
])
def test_escapes_through_modules_are_blocked(code, fragment):
    res = run(Source("attack.py", code), timeout=30)
    assert res.error is not None, res.stdout
    assert fragment in res.error.message, res.error.message


@pytest.mark.parametrize("code,type_name,message", [
    ("import torch\ntorch.nn.Linear(3, 2)(torch.ones(4, 5))", "RuntimeError",
     "mat1 and mat2 shapes cannot be multiplied (4x5 and 3x2)"),
    ("import torch\ntorch.nn.CrossEntropyLoss()(torch.ones(3, 4), torch.tensor([1.0, 2.0, 0.0]))",
     "RuntimeError", "expected target dtype to be Long or Byte, but got Float"),
    ("import torch\np = torch.nn.Parameter(torch.ones(2))\ntorch.optim.SGD([p * 2], lr=0.1)",
     "ValueError", "can't optimize a non-leaf Tensor"),
    ("import torch\ntorch.optim.SGD(5, lr=0.1)", "TypeError", "'int' object is not iterable"),
    ("import torch\nl = torch.nn.Linear(1, 1)\nl.weight = torch.ones(1, 1)", "TypeError",
     "cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None "
     "expected)"),
])
def test_bad_input_gets_pytorch_errors(code, type_name, message):
    res = run(Source("bad.py", code), timeout=30)
    assert res.error is not None
    assert (res.error.type_name, res.error.message) == (type_name, message)
