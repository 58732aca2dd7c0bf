# The backward experiment of the first seed note (知乎《Pytorch的Autograd》):
#   l1 = input * w1, l2 = l1 + w2, l3 = l1 * w3, l4 = l2 * l3, loss = mean(l4)
# Run:  agrad eval examples/backward_experiment.py
#       agrad graph examples/backward_experiment.py --saved --grads
import torch as t

input_data = t.ones([2,2],requires_grad=False)

w1 = t.tensor(2.0,requires_grad=True)
w2 = t.tensor(3.0,requires_grad=True)
w3 = t.tensor(4.0,requires_grad=True)
l1 = input_data * w1
l2 = l1 + w2
l3 = l1 * w3
l4 = l2 * l3
loss = l4.mean()

print(w1.is_leaf,w2.is_leaf,w3.is_leaf)
print(w1.grad_fn,w2.grad_fn,w3.grad_fn)
print(w1.grad, w2.grad, w3.grad)

print(l1.is_leaf,l2.is_leaf,l3.is_leaf,l4.is_leaf)
print(l1.grad_fn,l2.grad_fn,l3.grad_fn,l4.is_leaf)
print(l1.grad, l2.grad, l3.grad,l4.grad)

loss.backward()
print(w1.grad, w2.grad, w3.grad)
print(l1.grad, l2.grad, l3.grad,l4.grad)
