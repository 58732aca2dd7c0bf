"""Modules and optimizers on the command line: parameter paths in the table,
their own JSON kinds (docs/cli.md)."""

from __future__ import annotations

import json

from .conftest import agrad

SCRIPT = ("import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
          "net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.BatchNorm1d(3))\n"
          "opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)\n"
          "loss = net(torch.ones(4, 2)).pow(2).mean()\nloss.backward()\nopt.step()\n")


def test_table_names_parameters_by_path():
    r = agrad("eval", "-", "--format", "text", input=SCRIPT)
    assert r.code == 0, r.stderr
    # one block per tensor at 80 columns: the first line of a block starts with its name
    names = [line.split()[0] for line in r.stdout.splitlines()
             if line.strip() and not line.startswith(" ")]
    assert names[:6] == ["net.0.weight", "net.0.bias", "net.2.weight", "net.2.bias",
                         "net.2.running_mean", "net.2.running_var"]
    assert "loss" in names


def test_json_kinds_for_module_and_optimizer():
    r = agrad("eval", "-", "--format", "json", input=SCRIPT)
    obj = json.loads(r.stdout)
    net, opt = obj["variables"]["net"], obj["variables"]["opt"]
    assert net["kind"] == "module" and net["type"] == "Sequential"
    assert net["repr"].startswith("Sequential(\n  (0): Linear(in_features=2, out_features=3")
    assert list(net["parameters"]) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert net["parameters"]["0.weight"]["kind"] == "tensor"
    assert net["parameters"]["0.weight"]["grad"] is not None
    assert list(net["buffers"]) == ["2.running_mean", "2.running_var", "2.num_batches_tracked"]
    assert net["training"] is True
    assert opt["kind"] == "optimizer" and opt["type"] == "SGD"
    group = opt["param_groups"][0]
    assert group["lr"] == 0.1 and group["momentum"] == 0.9 and group["params"] == [0, 1, 2, 3]
    assert opt["params_with_state"] == 4
    assert opt["repr"].startswith("SGD (\nParameter Group 0\n")


def test_graph_names_leaves_by_parameter_path():
    r = agrad("graph", "-", "--format", "json", input=SCRIPT)
    obj = json.loads(r.stdout)
    leaves = {n["leaf"] for n in obj["nodes"] if n["leaf"]}
    assert {"net.0.weight", "net.0.bias", "net.2.weight", "net.2.bias"} <= leaves
