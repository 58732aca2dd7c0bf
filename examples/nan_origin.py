# Where was the NaN born?  `agrad eval --anomaly` names the forward op and the
# backward node, with the sub-expression, and the path between them.
# Run:  agrad eval examples/nan_origin.py --anomaly
import torch

x = torch.tensor([4.0, -1.0, 9.0], requires_grad=True)
w = torch.tensor(0.5, requires_grad=True)
h = torch.log(x) * w
loss = h.sum() + (x * w).mean()
