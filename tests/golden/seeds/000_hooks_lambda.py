# The note's lambda hooks on a fresh graph (the commented-out block, with
# the comment marks removed, run before any other backward()).
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
l1.register_hook(lambda grad: print('l1 grad: ', grad))
l4.register_hook(lambda grad: print('l4 grad: ', grad))
loss.register_hook(lambda grad: print('loss grad: ', grad))
loss.backward(retain_graph=True)
print(w1.grad, w2.grad, w3.grad)
