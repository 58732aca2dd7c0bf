# A deep chain: agrad graph keeps it at one depth and collapses the repeats.
# Run:  agrad graph examples/tanh_chain.py --set n=250
x = tensor([0.5, -0.25, 1.0], requires_grad=True)
w = tensor(0.9, requires_grad=True)
y = x
for i in range(n):
    y = tanh(sin(y) * w + 0.1)
loss = y.sum()
