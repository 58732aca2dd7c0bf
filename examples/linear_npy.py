# A least-squares fit driven by data files: X and y come from .npy files.
# Run:  agrad eval examples/linear_npy.py --set X=@examples/data/X.npy --set y=@examples/data/y.npy
#       agrad check examples/linear_npy.py --set X=@examples/data/X.npy --set y=@examples/data/y.npy
w = zeros(3, requires_grad=True)
b = tensor(0.0, requires_grad=True)
pred = X @ w + b
loss = ((pred - y) ** 2).mean()
