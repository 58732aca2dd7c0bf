#!/usr/bin/env python
"""Generate ``tests/golden/random.json``: PyTorch's random stream and exact factories.

Run from the repository root with PyTorch installed (on the machine class the
goldens promise: x86-64 with AVX2, as torch picks its vectorised kernels by
CPU capability)::

    python tools/gen_random_golden.py

Each case is a snippet of Python that uses ``torch`` (and ``F`` for
``torch.nn.functional``) and leaves its result in ``out``: a tensor, a number,
or a list/tuple of them.  The test runs the same snippet with agrad as
``torch`` and compares bit for bit.  A record holds:

``id``        unique test id
``code``      the snippet
``out``       the result: for a tensor ``{"dtype", "shape", "bytes"}`` (the raw
              little-endian values, base64) or, for more than 256 elements,
              ``{"dtype", "shape", "sha256", "head"}`` (a digest and the first
              16 values' bytes); numbers as JSON numbers; lists as lists
``warnings``  the warning messages PyTorch gave, in order
``error``     ``[type name, message]`` when the snippet raised
``repr``      for a tensor result, ``repr(out)``: what ``print(out)`` shows
"""

from __future__ import annotations

import torch_reference  # noqa: F401  (first: PyTorch's AVX2 kernels, as agrad's)

import base64
import hashlib
import json
import platform
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "random.json"

FULL_LIMIT = 256


def cases():
    c = []

    def add(id, code):
        c.append({"id": id, "code": code})

    sizes = (1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 1000)
    for fn in ("rand", "randn"):
        for dt in ("float32", "float64"):
            for n in sizes:
                add(f"{fn}-{dt}-{n}", f"torch.manual_seed(0); out = torch.{fn}({n}, dtype=torch.{dt})")
            add(f"{fn}-{dt}-big", f"torch.manual_seed(7); out = torch.{fn}(100003, dtype=torch.{dt})")
        add(f"{fn}-float16-5", f"torch.manual_seed(1); out = torch.{fn}(5, dtype=torch.float16)")
        add(f"{fn}-float16-40", f"torch.manual_seed(1); out = torch.{fn}(40, dtype=torch.float16)")
        add(f"{fn}-shape", f"torch.manual_seed(42); out = torch.{fn}(3, 4, 5)")
        add(f"{fn}-size-kw", f"torch.manual_seed(42); out = torch.{fn}(size=(2, 9))")
        add(f"{fn}-size-empty", f"torch.manual_seed(42); out = [torch.{fn}(size=()), torch.{fn}(())]")
        add(f"{fn}-zero-size", f"torch.manual_seed(42); out = [torch.{fn}(0, 3), torch.{fn}(2)]")
        add(f"{fn}-seeds", f"out = []\nfor s in (1, 2**32 + 1, 2**40 + 7, -1, 2**64 - 1):\n"
                           f"    torch.manual_seed(s); out.append(torch.{fn}(20))")
        add(f"{fn}-default-dtype", "torch.set_default_dtype(torch.float64)\ntry:\n"
                                   f"    torch.manual_seed(3); out = torch.{fn}(5)\n"
                                   "finally:\n    torch.set_default_dtype(torch.float32)")
    add("randn-cache", "torch.manual_seed(3); out = [torch.randn(3), torch.randn(1), torch.randn(5), "
                       "torch.randn(16), torch.randn(1, dtype=torch.float64)]")
    add("randn-print", "torch.manual_seed(0); out = torch.randn(3, 4)")
    add("rand-after-randn", "torch.manual_seed(3); torch.randn(1); out = [torch.rand(3), torch.randn(1)]")
    add("randn-tail-sequence", "torch.manual_seed(11); out = [torch.randn(18), torch.randn(40), torch.randn(2)]")
    add("normal_-float32", "torch.manual_seed(5); out = [torch.empty(n).normal_(1.5, 0.25) "
                           "for n in (3, 16, 33, 500)]")
    add("normal_-float64", "torch.manual_seed(5); out = [torch.empty(n, dtype=torch.float64).normal_(-2.5, 3.7) "
                           "for n in (3, 16, 33, 500)]")
    add("normal_-zero-std", "torch.manual_seed(5); out = [torch.empty(20).normal_(2, 0), torch.empty(4).normal_(2, 0)]")
    add("uniform_-float32", "torch.manual_seed(5); out = [torch.empty(n).uniform_(-0.3, 0.7) "
                            "for n in (3, 1000)]")
    add("uniform_-float32-wide", "torch.manual_seed(6); out = torch.empty(5000).uniform_(-1e3, 2.5e4)")
    add("uniform_-float64", "torch.manual_seed(5); out = [torch.empty(n, dtype=torch.float64).uniform_(-3, 0.1) "
                            "for n in (3, 1000)]")
    add("uniform_-float16", "torch.manual_seed(5); out = torch.empty(30, dtype=torch.float16).uniform_(-2, 3)")
    add("uniform_-kw", "torch.manual_seed(5); out = torch.zeros(4).uniform_(to=3.0)")
    add("noncontig-uniform", "torch.manual_seed(2); x = torch.zeros(4, 5); x.t().uniform_(); out = x")
    add("noncontig-normal", "torch.manual_seed(2); x = torch.zeros(4, 5); x.t().normal_(); out = x")
    add("noncontig-slice-normal", "torch.manual_seed(2); x = torch.zeros(6, 40); x[:, ::2].normal_(); out = x")
    add("view-normal", "torch.manual_seed(2); x = torch.zeros(6, 40); x[1:3].normal_(); out = x")
    add("randint-basic", "torch.manual_seed(0); out = [torch.randint(10, (5,)), torch.randint(-5, 5, (2, 3)), "
                         "torch.randint(3, 10, size=(4,)), torch.randint(0, 2**32, (4,)), "
                         "torch.randint(-2**40, 2**40, (4,)), torch.randint(high=7, size=(3,))]")
    for dt in ("int32", "int16", "int8", "uint8", "float32", "float64", "bool"):
        hi = 2 if dt == "bool" else 100
        add(f"randint-{dt}", f"torch.manual_seed(1); out = torch.randint(0, {hi}, (20,), dtype=torch.{dt})")
    add("randint-float-warn", "torch.manual_seed(1); out = torch.randint(0, 2**25, (3,), dtype=torch.float32)")
    add("randint_like", "torch.manual_seed(1); x = torch.zeros(2, 3, dtype=torch.int32); "
                        "out = [torch.randint_like(x, 10), torch.randint_like(x, -3, 4), "
                        "torch.randint_like(torch.zeros(3), 5)]")
    add("rand_like", "torch.manual_seed(1); x = torch.zeros(2, 3, dtype=torch.float64); "
                     "out = [torch.rand_like(x), torch.randn_like(x), torch.rand_like(x, dtype=torch.float32), "
                     "torch.randn_like(torch.zeros(20))]")
    for n in (0, 1, 2, 3, 10, 100, 1000):
        add(f"randperm-{n}", f"torch.manual_seed(4); out = torch.randperm({n})")
    add("randperm-big", "torch.manual_seed(4); out = torch.randperm(100000)")
    add("randperm-dtypes", "torch.manual_seed(4); out = [torch.randperm(10, dtype=d) for d in "
                           "(torch.int32, torch.int16, torch.uint8, torch.float32, torch.float64, torch.float16)]")
    for dt in ("int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64", "float16"):
        add(f"random_-{dt}", f"torch.manual_seed(9); x = torch.zeros(6, dtype=torch.{dt}); "
                             "out = [x.clone().random_(), x.clone().random_(2), x.clone().random_(0, 2)]")
    add("random_-range", "torch.manual_seed(9); x = torch.zeros(5); "
                         "out = [x.clone().random_(-20, 30), x.clone().random_(5, 2**24)]")
    add("random_-int64-wide", "torch.manual_seed(9); x = torch.zeros(5, dtype=torch.int64); "
                              "out = [x.clone().random_(-2**62, 2**62), x.clone().random_(2**33)]")
    add("exponential_", "torch.manual_seed(8); out = [torch.empty(n, dtype=d).exponential_(l) for n, d, l in "
                        "((5, torch.float32, 1.0), (300, torch.float32, 2.5), (300, torch.float64, 0.5), "
                        "(20, torch.float16, 1.0))]")
    add("cauchy_", "torch.manual_seed(8); out = [torch.empty(n, dtype=d).cauchy_(m, s) for n, d, m, s in "
                   "((5, torch.float32, 0.0, 1.0), (300, torch.float64, 1.5, 2.5), (40, torch.float32, -1.0, 0.1))]")
    add("log_normal_", "torch.manual_seed(8); out = [torch.empty(n, dtype=d).log_normal_(m, s) for n, d, m, s in "
                       "((5, torch.float32, 1.0, 2.0), (300, torch.float64, 0.3, 0.7), (40, torch.float32, -1.0, 0.1))]")
    add("geometric_", "torch.manual_seed(8); out = [torch.empty(n, dtype=d).geometric_(p) for n, d, p in "
                      "((5, torch.float32, 0.5), (300, torch.float64, 0.1234567), (40, torch.int64, 0.3), "
                      "(40, torch.float32, 1e-5))]")
    add("samplers-strided-half", "torch.manual_seed(3); a = torch.zeros(4, 6)[:, ::2]; a.log_normal_(); "
                                 "b = torch.zeros(4, 6).t(); b.cauchy_(); "
                                 "c = torch.zeros(1, 3, 4, dtype=torch.float16, requires_grad=True) * 1; "
                                 "c[:1].log_normal_(); d = torch.zeros(20, dtype=torch.float16).geometric_(0.3); "
                                 "e = torch.zeros(7, dtype=torch.uint8).geometric_(0.6); "
                                 "f = torch.zeros(7, dtype=torch.int32).geometric_(0.2); "
                                 "h = torch.zeros(20, dtype=torch.float16).cauchy_(1.0, 2.0); "
                                 "out = [a, b, c.detach(), d, e, f, h]")
    add("bernoulli_-float", "torch.manual_seed(8); out = [torch.empty(n, dtype=d).bernoulli_(p) for n, d, p in "
                            "((5, torch.float32, 0.5), (300, torch.float32, 0.3), (300, torch.float64, 0.9), "
                            "(40, torch.int64, 0.5), (40, torch.bool, 0.25), (10, torch.float32, 0.0), "
                            "(10, torch.float32, 1.0))]")
    add("bernoulli_-tensor", "torch.manual_seed(8); p32 = torch.arange(50.) / 49; p64 = p32.double(); "
                             "out = [torch.empty(50).bernoulli_(p32), torch.empty(50).bernoulli_(p64), "
                             "torch.empty(50, dtype=torch.int64).bernoulli_(p32), "
                             "torch.empty(3, 50).bernoulli_(p32)]")
    add("bernoulli", "torch.manual_seed(8); p = torch.rand(4, 6); "
                     "out = [torch.bernoulli(p), torch.bernoulli(p.double()), torch.bernoulli(p, 0.3), "
                     "p.bernoulli(), torch.bernoulli(torch.full((30,), 0.5))]")
    add("dropout", "torch.manual_seed(8); x = torch.ones(4, 25); "
                   "out = [F.dropout(x, 0.3), F.dropout(x, 0.5, training=True), F.dropout(x.double(), 0.1)]")
    add("rrelu", "torch.manual_seed(8); x = torch.arange(-10., 11.) / 5; out = [F.rrelu(x, training=True), "
                 "F.rrelu(x.double(), 0.1, 0.2, training=True)]")
    add("multinomial-replacement", "torch.manual_seed(12); p = torch.tensor([0.1, 0.2, 0.3, 0.4]); "
                                   "out = [torch.multinomial(p, 10, replacement=True), "
                                   "torch.multinomial(p.double(), 7, True), "
                                   "torch.multinomial(torch.rand(3, 5), 6, replacement=True)]")
    add("multinomial-no-replacement", "torch.manual_seed(12); p = torch.tensor([0.1, 0.2, 0.3, 0.4]); "
                                      "out = [torch.multinomial(p, 1), torch.multinomial(p, 4), "
                                      "torch.multinomial(p.double(), 3), torch.multinomial(torch.rand(3, 50), 7), "
                                      "p.multinomial(2)]")
    add("multinomial-zeros", "torch.manual_seed(12); p = torch.tensor([0., 3., 0., 1.]); "
                             "out = [torch.multinomial(p, 2), torch.multinomial(p, 20, True)]")
    add("normal-forms", "torch.manual_seed(13); m = torch.arange(20.); s = torch.arange(1., 21.) / 10; "
                        "out = [torch.normal(m, s), torch.normal(m, 2.0), torch.normal(3.0, s), "
                        "torch.normal(1.0, 2.0, (3, 7)), torch.normal(m[:5], s[:5]), torch.normal(m[:5]), "
                        "torch.normal(2.0, 0.5, size=(20,), dtype=torch.float64), torch.normal(m.double(), s)]")
    add("normal-broadcast", "torch.manual_seed(13); out = torch.normal(torch.zeros(3, 1), torch.ones(4))")
    add("generator-objects",
        "g = torch.Generator(); out = [g.initial_seed(), torch.rand(3, generator=g), "
        "torch.randn(20, generator=g)]\n"
        "g2 = torch.Generator().manual_seed(123); out += [torch.randint(0, 9, (5,), generator=g2), "
        "torch.randperm(8, generator=g2), torch.empty(5).normal_(generator=g2), "
        "torch.empty(5).uniform_(generator=g2), torch.empty(5).random_(generator=g2), "
        "torch.empty(5).exponential_(generator=g2), torch.empty(5).bernoulli_(0.5, generator=g2), "
        "torch.bernoulli(torch.full((5,), 0.5), generator=g2), "
        "torch.multinomial(torch.ones(5), 3, generator=g2), torch.normal(0.0, 1.0, (4,), generator=g2), "
        "torch.rand_like(torch.zeros(3), generator=g2), torch.randn_like(torch.zeros(3), generator=g2), "
        "torch.randint_like(torch.zeros(3), 4, generator=g2), g2.initial_seed()]")
    add("generator-independent", "torch.manual_seed(1); g = torch.Generator().manual_seed(1); "
                                 "a = torch.rand(3); b = torch.rand(3, generator=g); c = torch.rand(3); "
                                 "out = [a, b, c]")
    add("state-bytes", "g = torch.Generator().manual_seed(3); s0 = g.get_state(); torch.randn(3, generator=g); "
                       "s1 = g.get_state(); torch.rand(700, generator=g); s2 = g.get_state(); "
                       "out = [s0, s1, s2]")
    add("state-roundtrip", "torch.manual_seed(5); torch.randn(1); s = torch.get_rng_state(); "
                           "a = [torch.randn(1), torch.rand(5), torch.randn(40)]; torch.set_rng_state(s); "
                           "b = [torch.randn(1), torch.rand(5), torch.randn(40)]; out = a + b + [s]")
    add("state-generator-roundtrip", "g = torch.Generator().manual_seed(77); torch.rand(630, generator=g); "
                                     "s = g.get_state(); a = torch.randn(7, generator=g); "
                                     "h = torch.Generator().set_state(s); b = torch.randn(7, generator=h); "
                                     "out = [a, b, h.initial_seed()]")
    add("seed-returns", "g = torch.manual_seed(21); out = [g.initial_seed(), torch.initial_seed(), "
                        "torch.Generator().manual_seed(-5).initial_seed(), torch.manual_seed(3.9).initial_seed()]")
    # exact factories (issue 11)
    for dt in ("float32", "float64", "float16", "int64", "int32", "int16", "uint8"):
        signed = dt not in ("uint8",)
        add(f"arange-{dt}", f"out = [torch.arange(10, dtype=torch.{dt}), torch.arange(2, 50, 3, dtype=torch.{dt})"
                            + (f", torch.arange(-8.0, 8.0, 0.1, dtype=torch.{dt}), torch.arange(5, -5, -0.7, "
                               f"dtype=torch.{dt})" if signed else "")
                            + f", torch.arange(0.5, 5, 1.5, dtype=torch.{dt})]")
        add(f"linspace-{dt}", f"out = [torch.linspace(0, 10, n, dtype=torch.{dt}) for n in (0, 1, 2, 3, 7, 50, 101)]"
                              + (f" + [torch.linspace(-3.7, 10.2, 33, dtype=torch.{dt})]" if signed else ""))
    add("arange-floats", "out = [torch.arange(-8.0, 8.0, 0.1), torch.arange(0, 1, 0.01), torch.arange(0.3, 100.7, 0.37), "
                         "torch.arange(-5, 5, 1/3, dtype=torch.float64), torch.arange(1e-3, 2.5, 0.0071), "
                         "torch.arange(0, 20000, 0.7), torch.arange(1, 0, -0.013)]")
    add("arange-dtypes", "out = [torch.arange(5), torch.arange(5.), torch.arange(0, 5, 0.5), "
                         "torch.arange(torch.tensor(3)), torch.arange(torch.tensor(3.)), torch.arange(start=2, end=9, "
                         "step=2), torch.arange(10, dtype=torch.float64), torch.arange(-3.7, 5, 2.2, dtype=torch.int64)]")
    add("arange-out", "o = torch.zeros(3); r = torch.arange(0, 5, out=o); out = [o, r]")
    add("arange-out-empty", "o = torch.zeros(0, dtype=torch.int64); torch.arange(0, 5, out=o); out = o")
    add("linspace-floats", "out = [torch.linspace(-8, 8, 161), torch.linspace(0, 1, 100), torch.linspace(0.3, 100.7, 37), "
                           "torch.linspace(3, -7.7, 13, dtype=torch.float64), torch.linspace(1e-3, 2.5, 1001), "
                           "torch.linspace(-2, 2, 21), torch.linspace(0.1, 2, 20), "
                           "torch.linspace(torch.tensor(0.), torch.tensor(1.), 3)]")
    add("logspace", "out = [torch.logspace(0, 1, 7), torch.logspace(-8, 8, 7), torch.logspace(0, 10, 7), "
                    "torch.logspace(0, 3, 4, dtype=torch.int64), torch.logspace(0, 3, 4, base=2, dtype=torch.int32), "
                    "torch.logspace(1, 2, 1), torch.logspace(1, 2, 0), torch.logspace(-1.5, 2.25, 50, base=2.7, "
                    "dtype=torch.float64), torch.logspace(0, 1, 9, dtype=torch.float16)]")
    add("range", "out = [torch.range(0, 5), torch.range(0, 5, 2, dtype=torch.int64), torch.range(0, 1, 0.1), "
                 "torch.range(-1, 1, 0.25, dtype=torch.float64)]")
    add("empty-shapes", "out = [torch.empty(2, 3).shape, torch.empty((2, 3)).shape, torch.empty(size=(2, 3)).shape, "
                        "torch.empty([]).shape, torch.empty(()).shape, torch.empty(0).shape, "
                        "torch.zeros(size=(4,)).shape, torch.ones(size=[1, 2]).shape]")
    add("factory-keywords", "out = [torch.zeros(2, layout=torch.strided, device='cpu', pin_memory=False), "
                            "torch.ones(2, device=torch.device('cpu')), torch.rand(2, device='cpu', "
                            "generator=torch.Generator().manual_seed(1)), torch.full((2,), 3, dtype=torch.float64)]")
    # a tensor made like another keeps its layout (preserve_format), and a sampler draws in memory order
    views = {"t": "torch.zeros(3, 5).t()", "step": "torch.zeros(6, 5)[::2]", "expand": "torch.zeros(5).expand(3, 5)",
             "perm3": "torch.zeros(2, 3, 4).permute(2, 0, 1)", "mT3": "torch.zeros(2, 3, 4).mT[:, ::2]",
             "unsq": "torch.zeros(3, 5).t().unsqueeze(1)"}
    for k, v in views.items():
        add(f"like-layout-{k}", f"x = {v}; torch.manual_seed(3); out = [torch.randn_like(x), torch.rand_like(x), "
            f"torch.randint_like(x, 9), x.clone().normal_(), x.clone().uniform_(), x.clone().exponential_(), "
            f"x.clone().bernoulli_(0.5), x.clone().random_(0, 7), x.clone().cauchy_(), x.clone().geometric_(0.3), "
            f"x.clone().log_normal_(), F.dropout(x + 1, 0.5), [t.is_contiguous() for t in (torch.zeros_like(x), "
            f"torch.ones_like(x), torch.empty_like(x), torch.full_like(x, 2), torch.randn_like(x), x.clone(), "
            f"x.contiguous(), x.bernoulli(0.5), F.dropout(x, 0.5))]]")
    add("multinomial-layout", "p = torch.ones(4, 3).t(); torch.manual_seed(5); "
                              "out = [torch.multinomial(p, 4), torch.multinomial(p, 2), torch.multinomial(p.t(), 3)]")
    # errors
    err = {
        "arange-step": "torch.arange(0, 5, 0)",
        "arange-sign": "torch.arange(5, 0, 1)",
        "arange-inf": "torch.arange(0, float('inf'))",
        "arange-bool": "torch.arange(0, 10, dtype=torch.bool)",
        "linspace-steps": "torch.linspace(0, 1, -1)",
        "linspace-bool": "torch.linspace(0, 1, 5, dtype=torch.bool)",
        "range-step": "torch.range(0, 5, 0)",
        "range-no-end": "torch.range(3)",
        "empty-negative": "torch.empty(2, -1)",
        "empty-float": "torch.empty(2.5)",
        "pin-memory": "torch.zeros(2, pin_memory=True)",
        "randint-empty-range": "torch.randint(5, 5, (2,))",
        "randint-uint8-high": "torch.randint(0, 300, (2,), dtype=torch.uint8)",
        "randint-int8-low": "torch.randint(-200, 3, (2,), dtype=torch.int8)",
        "randint-requires-grad": "torch.randint(3, (2,), requires_grad=True)",
        "uniform-bounds": "torch.zeros(2).uniform_(1, 0)",
        "uniform-long": "torch.zeros(2, dtype=torch.long).uniform_()",
        "normal-long": "torch.zeros(2, dtype=torch.long).normal_()",
        "normal-std": "torch.zeros(2).normal_(0, -1.5)",
        "normal-std-tensor": "torch.normal(torch.zeros(2), torch.tensor([1., -1.]))",
        "normal-two-floats": "torch.normal(0., 1.)",
        "exponential-long": "torch.zeros(2, dtype=torch.long).exponential_()",
        "exponential-lambda": "torch.zeros(2).exponential_(0)",
        "bernoulli-p": "torch.zeros(2).bernoulli_(1.5)",
        "bernoulli-p-tensor": "torch.bernoulli(torch.tensor([0.5, 1.5]))",
        "randn-long": "torch.randn(2, dtype=torch.long)",
        "rand-long": "torch.rand(2, dtype=torch.long)",
        "randperm-negative": "torch.randperm(-1)",
        "randperm-uint8": "torch.randperm(300, dtype=torch.uint8)",
        "randperm-half": "torch.randperm(3000, dtype=torch.float16)",
        "multinomial-too-many": "torch.multinomial(torch.tensor([1., 2.]), 3)",
        "multinomial-long": "torch.multinomial(torch.tensor([1, 2]), 1)",
        "multinomial-negative": "torch.multinomial(torch.tensor([-1., 2.]), 1, True)",
        "multinomial-zero-sum": "torch.multinomial(torch.tensor([0., 0.]), 1, True)",
        "manual-seed-overflow": "torch.manual_seed(2**64)",
        "generator-seed-float": "torch.Generator().manual_seed(1.5)",
        "set-state-size": "torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))",
        "set-state-dtype": "torch.set_rng_state(torch.zeros(5056))",
        "set-state-invalid": "torch.set_rng_state(torch.zeros(5056, dtype=torch.uint8))",
        "leaf-inplace": "torch.zeros(3, requires_grad=True).normal_()",
        "geometric-p": "torch.zeros(2).geometric_(1.5)",
        "log-normal-std": "torch.zeros(2).log_normal_(0, 0)",
        "log-normal-long": "torch.zeros(2, dtype=torch.long).log_normal_()",
        "cauchy-long": "torch.zeros(2, dtype=torch.long).cauchy_()",
        "cauchy-sigma": "torch.zeros(2).cauchy_(0, -1)",
    }
    for k, v in err.items():
        add(f"error-{k}", f"out = {v}")
    return c


def encode(v):
    if isinstance(v, torch.Tensor):
        v = v.detach()
        arr = v.contiguous().numpy() if v.dtype != torch.bool else v.numpy().astype("uint8")
        raw = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
        rec = {"dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape)}
        if v.numel() <= FULL_LIMIT:
            rec["bytes"] = base64.b64encode(raw).decode()
        else:
            rec["sha256"] = hashlib.sha256(raw).hexdigest()
            rec["head"] = base64.b64encode(raw[: 16 * arr.itemsize]).decode()
        return rec
    if isinstance(v, torch.Size):
        return {"size": list(v)}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, (int, float)):
        return v
    raise TypeError(f"cannot encode {type(v).__name__}")


def run(code):
    ns = {"torch": torch, "F": F}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, ns)
        except Exception as e:  # noqa: BLE001 - the error is the golden value
            return {"error": [type(e).__name__, str(e)], "warnings": [str(w.message) for w in caught]}
    rec = {"out": encode(ns["out"]), "warnings": [str(w.message) for w in caught]}
    if isinstance(ns["out"], torch.Tensor):
        rec["repr"] = repr(ns["out"])   # what print(out) shows: the CLI test compares it
    return rec


def main():
    torch.set_num_threads(1)
    records = []
    for case in cases():
        rec = dict(case)
        rec.update(run(case["code"]))
        records.append(rec)
    meta = {"torch": torch.__version__, "machine": platform.machine(),
            "cpu_capability": torch.backends.cpu.get_cpu_capability()}
    OUT.write_text(json.dumps({"meta": meta, "cases": records}, indent=1) + "\n")
    print(f"wrote {len(records)} cases to {OUT}")


if __name__ == "__main__":
    main()
