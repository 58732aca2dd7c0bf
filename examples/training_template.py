# The note's training template ("准备数据、定义模型、训练、评估效果") made
# concrete: its placeholder Dataset(...) is a TensorDataset of fixed numbers,
# its Net two Linear layers; the loop, the loss, the optimizer and the no_grad
# evaluation are the note's.  Initial weights come from the random stream
# (PyTorch's, after manual_seed(0)).
import torch
from torch import nn, optim
from torch.utils import data

torch.manual_seed(0)
inputs_all = torch.linspace(-1, 1, 48).reshape(12, 4)
labels_all = torch.tensor([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2])
dataset = data.TensorDataset(inputs_all, labels_all)
trainloader = data.DataLoader(dataset, batch_size=4)
testloader = data.DataLoader(dataset, batch_size=4)

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)
    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = self.fc2(x)
        return x

net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
# Training
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        # get the inputs
        inputs, labels = data
        # zero the parameter gradients
        optimizer.zero_grad()
        # forward + backward + optimize
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        # print statistics
        running_loss += loss.item()
    print('[%d] loss: %.3f' % (epoch + 1, running_loss / len(trainloader)))
print('Finished Training')
# Validation
correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images, labels = data
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
print('Accuracy of the network: %d %%' % (100 * correct / total))
