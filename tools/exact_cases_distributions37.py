"""Regression cases of session 37's distributions37 work: torch.distributions (Normal, Categorical, Bernoulli,
Uniform, kl_divergence), compared with PyTorch 2.13: values, seeded draws, graphs, reprs and ValueError texts.

Same form as tools/exact_cases.py: ``{"id": ..., "code": [statements], "show": [expressions]}``.
"""

from __future__ import annotations

from exact_case_form import case


CASES = [
    case("distributions-normal-draws-and-densities",
         ["torch.manual_seed(0)", "D = torch.distributions",
          "m = D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))",
          "s1 = m.sample()", "s2 = m.sample((3,))", "r = m.rsample((2,))"],
         ["m", "s1", "s2", "r", "m.log_prob(torch.tensor([0.5, -1.0]))", "m.entropy()", "m.mean", "m.mode",
          "m.stddev", "m.variance", "m.batch_shape", "m.event_shape", "m.cdf(torch.tensor([0.5, 2.0]))",
          "m.icdf(torch.tensor([0.5, 0.9]))", "D.Normal(0.0, 1.0)", "D.Normal(0.0, 1.0).rsample((3,))",
          "D.Normal(torch.zeros(2, dtype=torch.float64), 1.0).sample().dtype", "m.expand((2, 2)).sample()",
          "m.perplexity()", "m.arg_constraints", "m.support"]),
    case("distributions-normal-graph-and-kl",
         ["torch.manual_seed(3)", "mu = torch.tensor([0.5, -0.2], requires_grad=True)",
          "s = torch.tensor([1.5, 0.7], requires_grad=True)", "m = torch.distributions.Normal(mu, s)",
          "z = m.rsample()", "lp = m.log_prob(torch.tensor([1.0, 2.0]))", "e = m.entropy()",
          "q = torch.distributions.Normal(torch.zeros(2), torch.ones(2))",
          "k = torch.distributions.kl.kl_divergence(m, q)", "(lp.sum() + k.sum() + z.sum()).backward()"],
         ["z", "lp", "e", "k", "torch.distributions.kl_divergence(q, m)", "mu.grad", "s.grad",
          "lp.grad_fn.name()", "e.grad_fn.name()", "k.grad_fn.name()", "z.grad_fn.name()"]),
    case("distributions-validation-errors",
         ["D = torch.distributions",
          "def err(f):\n    try:\n        f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)"],
         ["err(lambda: D.Normal(torch.tensor([0.0]), torch.tensor([-1.0])))",
          "err(lambda: D.Normal(0.0, -1.0))", "err(lambda: D.Normal(float('nan'), 1.0))",
          "err(lambda: D.Normal(0.0, 1.0).log_prob(torch.tensor([float('nan')])))",
          "err(lambda: D.Normal(0.0, 1.0).log_prob(0.5))",
          "err(lambda: D.Normal(torch.zeros(2), 1.0).log_prob(torch.ones(3)))",
          "err(lambda: D.Categorical(torch.tensor([0.5, -0.5])))",
          "err(lambda: D.Categorical(torch.tensor(0.5)))", "err(lambda: D.Categorical())",
          "err(lambda: D.Categorical(torch.tensor([0.0, 0.0])))",
          "err(lambda: D.Categorical(torch.tensor([0.2, 0.8])).log_prob(torch.tensor(2)))",
          "err(lambda: D.Categorical(logits=torch.zeros(2, 3)).log_prob(torch.tensor([0.5, 1])))",
          "err(lambda: D.Bernoulli(torch.tensor([1.3])))", "err(lambda: D.Bernoulli(0.3).log_prob(torch.tensor(2.0)))",
          "err(lambda: D.Uniform(1.0, 0.0))", "err(lambda: D.Uniform(0.0, 1.0).log_prob(torch.tensor(1.5)))",
          "err(lambda: D.kl_divergence(D.Categorical(torch.ones(2)), D.Normal(0.0, 1.0)))",
          "err(lambda: D.Categorical(torch.ones(3)).rsample())"]),
    case("distributions-categorical-reinforce",
         ["torch.manual_seed(5)", "logits = torch.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -2.0]], requires_grad=True)",
          "c = torch.distributions.Categorical(logits=logits)", "a = c.sample()", "lp = c.log_prob(a)",
          "ent = c.entropy()", "(-lp.sum() - ent.sum()).backward()",
          "p = torch.distributions.Categorical(torch.tensor([0.1, 0.2, 0.7]))", "pa = p.sample((5,))"],
         ["c", "a", "lp", "lp.grad_fn.name()", "ent", "ent.grad_fn.name()", "c.probs", "c.sample((2, 2))",
          "logits.grad", "c.log_prob(torch.tensor([[0], [2]]))", "p", "pa", "p.log_prob(pa)", "p", "p.logits",
          "p.mean", "p.mode", "p.variance", "p.param_shape", "p.support", "p.enumerate_support()",
          "torch.distributions.kl_divergence(p, torch.distributions.Categorical(torch.tensor([0.5, 0.0, 0.5])))",
          "torch.distributions.kl_divergence(torch.distributions.Categorical(torch.tensor([0.0, 0.5, 0.5])), p)",
          "torch.distributions.Categorical(torch.tensor([1.0, 3.0], dtype=torch.float64)).entropy()"]),
    case("distributions-bernoulli-uniform",
         ["torch.manual_seed(2)", "D = torch.distributions", "b = D.Bernoulli(torch.tensor([0.3, 0.5, 0.9]))",
          "bs = b.sample((2,))", "u = D.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 5.0]))",
          "us = u.rsample((3,))", "lo = torch.tensor([0.0], requires_grad=True)", "w = D.Uniform(lo, 3.0)",
          "r = w.rsample()"],
         ["b", "bs", "b.log_prob(torch.tensor([1.0, 0.0, 1.0]))", "b.entropy()", "b.mean", "b.mode",
          "b.variance", "b.logits", "b", "D.Bernoulli(0.3)", "D.Bernoulli(logits=torch.tensor([0.0, 2.0])).probs",
          "D.Bernoulli(logits=0.5)", "b.enumerate_support()",
          "D.kl_divergence(D.Bernoulli(torch.tensor([0.3, 0.0])), D.Bernoulli(torch.tensor([0.6, 1.0])))",
          "u", "us", "u.log_prob(torch.tensor([1.0, 4.0]))", "u.entropy()", "u.mean", "u.mode", "u.stddev",
          "u.variance", "u.support", "u.arg_constraints", "D.Uniform(0.0, 1.0)",
          "D.kl_divergence(D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0))",
          "D.kl_divergence(D.Uniform(0.0, 1.0), D.Uniform(0.5, 2.0))",
          "D.kl_divergence(D.Uniform(0.0, 1.0), D.Normal(0.0, 2.0))",
          "D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(0.0, 2.0))", "w", "r",
          "w.log_prob(torch.tensor([1.0]))", "D.constraints.real_vector", "D.constraints.simplex"]),
    case("tensor-from-a-deque-a-range-and-refused-data",  # REINFORCE's torch.tensor(returns) of a deque
     ["import collections", "d = collections.deque([1.0, 2.0])", "d.appendleft(0.5)",
      "def err(f):\n    try:\n        f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)"],
     ["torch.tensor(d)", "torch.tensor(collections.deque([1, 2]))", "torch.tensor(range(3))",
      "torch.tensor([range(2), range(2)], dtype=torch.float64)", "torch.tensor((collections.deque([1]),))",
      "err(lambda: torch.tensor(object()))", "err(lambda: torch.tensor([None]))", "err(lambda: torch.tensor(None))",
      "err(lambda: torch.tensor('ab'))", "err(lambda: torch.tensor(['a']))",
      "err(lambda: torch.tensor(['a'], dtype=torch.float32))", "err(lambda: torch.tensor('a', dtype=torch.int64))",
      "err(lambda: torch.tensor([None], dtype=torch.float32))"]),
    case("index-with-python-true-and-0d-bool-tensors",  # TensorIndexing.h: a bool is an unsqueeze, then an
     # index of [0] (True) or of none (False): an IndexBackward0 read; a 0-d bool tensor written (kl_divergence
     # of 0-d Uniform/Bernoulli: result[mask] = inf) is an index_put_ on that view, a CopySlices
     ["b = torch.tensor([2.0, 3.0], requires_grad=True)", "a = torch.tensor(2.0, requires_grad=True)",
      "r1 = b[True]", "r2 = b[True, True]", "r3 = b[None, True]", "r4 = b[True, 0]", "r5 = b[..., True]",
      "(r1.sum() + r2.sum() + r3.sum() + r4.sum() + r5.sum()).backward()",
      "t = a * 1", "t[torch.tensor(True)] = float('inf')", "u = b * 1", "u[torch.tensor(False)] = 5.0",
      "w = b * 1", "v = torch.tensor(4.0, requires_grad=True)", "w[..., torch.tensor(True)] = v",
      "(t + u.sum() + w.sum()).backward()",
      "p = torch.distributions.Uniform(torch.tensor(0.0, requires_grad=True), 1.0)",
      "k = torch.distributions.kl_divergence(p, torch.distributions.Uniform(-1.0, 2.0))"],
     ["r1", "r2", "r3", "r4", "r5", "b.grad", "t", "t.grad_fn.name()", "t.grad_fn.next_functions[0][0].name()",
      "a.grad", "u", "u.grad_fn.name()", "w", "w.grad_fn.name()", "v.grad", "u._version", "k"]),
    case("index-a-0-dim-tensor-errors",  # a lone int or slice: THPVariable_getitem's own paths (only 0 is an
     # "invalid index"); in a tuple applySlicing counts the indices first ("too many indices")
     ["a = torch.tensor(2.0)",
      "def err(f):\n    try:\n        f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)",
      "def put(i):\n    a[i] = 1.0"],
     ["err(lambda: a[0])", "err(lambda: a[-1])", "err(lambda: a[5])", "err(lambda: a[0,])", "err(lambda: a[0, ...])",
      "err(lambda: a[None, 0])", "err(lambda: a[True, 0])", "err(lambda: a[:])", "err(lambda: a[:,])",
      "err(lambda: a[..., :])", "err(lambda: put(0))", "err(lambda: put(-1))", "err(lambda: put(5))",
      "err(lambda: put((0,)))", "err(lambda: put(slice(0, 1)))", "err(lambda: put((None, 0)))", "a"]),
    case("setitem-index-tensors-with-a-view-part",  # applySlicing: ints, Nones, bools and slices that are not
     # full make a view; index_put_ writes into it (CopySlices, was IndexPutBackward0 on the tensor itself)
     ["c = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)",
      "v = torch.tensor(7.0, requires_grad=True)", "outs = []",
      "for idx in [(0, torch.tensor([0, 2])), (torch.tensor([0, 1]), 1), (None, torch.tensor([0, 1])), "
      "(slice(0, 1), torch.tensor([0, 2])), (slice(None), torch.tensor([0, 2])), (Ellipsis, torch.tensor([0, 2])), "
      "(torch.tensor([True, False]), 0), (True, torch.tensor([1, 0])), (torch.tensor(True), torch.tensor(True)), "
      "(slice(0, 2), torch.tensor([2])), (1, Ellipsis, torch.tensor([True, False, True]))]:\n"
      "    t = c * 1\n    t[idx] = v\n    t.sum().backward(retain_graph=True)\n"
      "    outs.append((t.tolist(), t.grad_fn.name(), t._version, c.grad.tolist(), v.grad.item()))\n"
      "    c.grad = None\n    v.grad = None"],
     ["outs"]),
    case("size-concatenation-and-repeat-are-sizes",  # torch.Size's + and * give a Size (a tuple on the left too)
     ["s = torch.Size([2, 3])", "m = torch.distributions.Categorical(torch.ones(2, 3))",
      "def err(f):\n    try:\n        f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)"],
     ["s + (4,)", "(4,) + s", "s + s", "s * 2", "2 * s", "s * 0", "s * True", "() + torch.Size([1])",
      "m.batch_shape + m.event_shape", "torch.zeros(2, 3).shape + torch.zeros(4).shape",
      "err(lambda: s + [1])", "err(lambda: s + 1)"]),
]
