# The note's MyNetwork (unchanged): a Parameter and a Linear registered by
# attribute assignment, printed under no_grad.  The Linear's initial weights
# come from the random stream without a seed: PyTorch seeds it from the OS,
# so only the layout of the output is compared.
import torch

class MyNetwork(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.param1 = torch.nn.Parameter(torch.zeros((5,)),requires_grad=True)
        self.linear = torch.nn.Linear(in_features=5,out_features=1,bias=True)
    def forward(self,x):
        return self.linear(x * self.param1)
net = MyNetwork()
with torch.no_grad():
    print(net.param1)
    print(net.linear.weight)
    print(net.linear.bias)
