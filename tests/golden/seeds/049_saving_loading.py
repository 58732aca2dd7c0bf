# Follows PyTorch's recipe "Saving and loading models" and the "What is a state_dict?" recipe as a
# user types them: the TheModelClass state_dict and the optimizer's state_dict printed, loading a
# state_dict into a new model, model.eval(), a general checkpoint dict (epoch, model, optimizer,
# loss) restored, several models in one dict, warmstarting with strict=False (the
# _IncompatibleKeys it returns) and the error of a strict load with missing keys.
# Changed: agrad scripts cannot write files: torch.save/torch.load of PATH become copy.deepcopy
# of the dict (what torch.load hands back); the model is trained one step on seeded data first.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


# Define model
class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


# Initialize model
model = TheModelClass()

# Initialize optimizer
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

inputs = torch.randn(4, 3, 32, 32)
labels = torch.randint(0, 10, (4,))
criterion = nn.CrossEntropyLoss()
optimizer.zero_grad()
loss = criterion(model(inputs), labels)
loss.backward()
optimizer.step()

# Print model's state_dict
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())

# Print optimizer's state_dict
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name] if var_name == 'param_groups'
          else {k: v['momentum_buffer'].shape for k, v in optimizer.state_dict()[var_name].items()})

saved = copy.deepcopy(model.state_dict())  # torch.save(model.state_dict(), PATH)

model = TheModelClass()
print(model.load_state_dict(saved))  # torch.load(PATH, weights_only=True)
model.eval()
print(model.training, model.conv1.training)
print(model(inputs)[0])

checkpoint = copy.deepcopy({
    'epoch': 5,
    'model_state_dict': model.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss.detach(),  # (deepcopy copies only leaves; torch.save would store the value)
})  # torch.save({...}, PATH)

model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']

model.eval()
# - or -
model.train()
print(epoch, loss, optimizer.state_dict()['param_groups'][0]['lr'])
optimizer.zero_grad()
loss2 = criterion(model(inputs), labels)
loss2.backward()
optimizer.step()
print(loss2, model.fc3.bias)

modelA = TheModelClass()
modelB = TheModelClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
both = copy.deepcopy({
    'modelA_state_dict': modelA.state_dict(),
    'modelB_state_dict': modelB.state_dict(),
    'optimizerA_state_dict': optimizerA.state_dict(),
    'optimizerB_state_dict': optimizerB.state_dict(),
})
modelA.load_state_dict(both['modelA_state_dict'])
print(sorted(both.keys()), len(both['modelB_state_dict']))


class NetB(nn.Module):
    def __init__(self):
        super(NetB, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
        self.fc4 = nn.Linear(10, 2)

    def forward(self, x):
        return self.fc4(F.relu(TheModelClass.forward(self, x)))


netA = TheModelClass()
netB = NetB()
result = netB.load_state_dict(netA.state_dict(), strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)
print(torch.equal(netB.fc1.weight, netA.fc1.weight))
try:
    netB.load_state_dict(netA.state_dict())
except RuntimeError as e:
    print(e)
try:
    netA.load_state_dict(netB.state_dict())
except RuntimeError as e:
    print(e)
sd = netA.state_dict()
sd['fc3.bias'] = torch.zeros(3)
try:
    netA.load_state_dict(sd)
except RuntimeError as e:
    print(e)
