# Follows PyTorch's "Learning PyTorch with Examples": optim (pytorch/tutorials
# beginner_source/examples_nn/polynomial_optim.py), rewritten as a user would type it:
# the polynomial fitted with nn.Sequential and torch.optim.RMSprop.
# Changed: torch.manual_seed(0) first (reproducible initial weights); 500 iterations instead of
# 2000; the optimizer and its state are printed.
import torch
import math

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
print(optimizer)
for t in range(500):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + {linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
print(optimizer.state_dict()['state'][0])
print(optimizer.state_dict()['param_groups'])
