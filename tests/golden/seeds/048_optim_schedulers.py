# Follows PyTorch's torch.optim documentation as a user types it: constructing optimizers, per-
# parameter options (param groups with their own lr), the step() loop with closure-free and
# closure (LBFGS) forms, optimizer.state_dict() and load_state_dict(), add_param_group, and the
# learning-rate schedulers of "How to adjust learning rate" (ExponentialLR chained with
# MultiStepLR, StepLR, LambdaLR, CosineAnnealingLR, OneCycleLR, ReduceLROnPlateau), with
# get_last_lr() and the scheduler's state_dict().
# Changed: the model and data are small seeded tensors (torch.manual_seed(0)); the dataset loop is
# one batch per epoch; values are printed.
import torch
from torch import nn, optim
from torch.optim.lr_scheduler import (CosineAnnealingLR, ExponentialLR, LambdaLR, MultiStepLR, OneCycleLR,
                                      ReduceLROnPlateau, StepLR)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
var1 = torch.randn(3, requires_grad=True)
var2 = torch.randn(3, requires_grad=True)
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
optimizer = optim.Adam([var1, var2], lr=0.0001)
print(optimizer)

optimizer = optim.SGD([
    {'params': model[0].parameters()},
    {'params': model[2].parameters(), 'lr': 1e-3}
], lr=1e-2, momentum=0.9)
print(optimizer)
print([g['lr'] for g in optimizer.param_groups], optimizer.defaults)

input = torch.randn(8, 4)
target = torch.randn(8, 1)
loss_fn = nn.MSELoss()
for step in range(3):
    optimizer.zero_grad()
    output = model(input)
    loss = loss_fn(output, target)
    loss.backward()
    optimizer.step()
    print(step, loss.item())

sd = optimizer.state_dict()
print(sd['param_groups'])
print(sorted(sd['state'].keys()), sd['state'][0]['momentum_buffer'])

optimizer2 = optim.SGD([
    {'params': model[0].parameters()},
    {'params': model[2].parameters(), 'lr': 1e-3}
], lr=1e-2, momentum=0.9)
optimizer2.load_state_dict(sd)
print(optimizer2.state_dict()['state'][3]['momentum_buffer'])

extra = torch.zeros(2, requires_grad=True)
optimizer2.add_param_group({'params': extra, 'lr': 0.5})
print(len(optimizer2.param_groups), optimizer2.param_groups[2]['lr'], optimizer2.param_groups[2]['momentum'])

lbfgs = optim.LBFGS(model.parameters(), lr=0.1)


def closure():
    lbfgs.zero_grad()
    output = model(input)
    loss = loss_fn(output, target)
    loss.backward()
    return loss


for step in range(2):
    print('lbfgs', lbfgs.step(closure).item())

model = [nn.Parameter(torch.randn(2, 2, requires_grad=True))]
optimizer = optim.SGD(model, 0.1)
scheduler = ExponentialLR(optimizer, gamma=0.9)

for epoch in range(5):
    optimizer.zero_grad()
    loss = (model[0] ** 2).sum()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(epoch, scheduler.get_last_lr(), loss.item())

optimizer = optim.SGD(model, 0.1)
scheduler1 = ExponentialLR(optimizer, gamma=0.9)
scheduler2 = MultiStepLR(optimizer, milestones=[3, 5], gamma=0.1)

for epoch in range(7):
    optimizer.zero_grad()
    (model[0] ** 2).sum().backward()
    optimizer.step()
    scheduler1.step()
    scheduler2.step()
    print(epoch, optimizer.param_groups[0]['lr'], scheduler2.get_last_lr())

optimizer = optim.SGD(model, lr=0.05)
scheduler = StepLR(optimizer, step_size=3, gamma=0.1)
lrs = []
for epoch in range(8):
    optimizer.step()
    scheduler.step()
    lrs.append(scheduler.get_last_lr()[0])
print(lrs)
print(scheduler.state_dict())

optimizer = optim.SGD(model, lr=0.05)
lambda1 = lambda epoch: 0.95 ** epoch
scheduler = LambdaLR(optimizer, lr_lambda=lambda1)
for epoch in range(4):
    optimizer.step()
    scheduler.step()
print(scheduler.get_last_lr(), scheduler.last_epoch)

optimizer = optim.SGD(model, lr=0.05)
scheduler = CosineAnnealingLR(optimizer, T_max=10, eta_min=0.001)
lrs = []
for epoch in range(12):
    optimizer.step()
    scheduler.step()
    lrs.append(round(scheduler.get_last_lr()[0], 6))
print(lrs)

optimizer = optim.SGD(model, lr=0.1, momentum=0.9)
scheduler = OneCycleLR(optimizer, max_lr=0.01, steps_per_epoch=4, epochs=3)
lrs = []
moms = []
for epoch in range(3):
    for batch in range(4):
        optimizer.step()
        scheduler.step()
        lrs.append(scheduler.get_last_lr()[0])
        moms.append(optimizer.param_groups[0]['momentum'])
print(lrs)
print(moms)

optimizer = optim.SGD(model, lr=0.1, momentum=0.9)
scheduler = ReduceLROnPlateau(optimizer, 'min', patience=2)
for epoch, val_loss in enumerate([1.0, 0.9, 0.95, 0.96, 0.97, 0.98, 0.85, 0.9, 0.91, 0.92]):
    optimizer.step()
    scheduler.step(val_loss)
    print(epoch, optimizer.param_groups[0]['lr'], scheduler.num_bad_epochs, scheduler.best)
