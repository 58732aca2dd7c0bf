# A training loop as users write it from PyTorch's data and optim docs: a map-style Dataset,
# random_split, DataLoader with shuffle, AdamW with OneCycleLR, clip_grad_norm_, validation with
# best-state copies and load_state_dict, a @torch.no_grad() function, TensorDataset. Values printed,
# seeded (torch.manual_seed(1)).
import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split
import torch.nn.functional as F

torch.manual_seed(1)

class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.linspace(-2, 2, n).unsqueeze(1)
        self.y = self.x ** 2 + 0.1 * torch.randn(n, 1)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]

ds = Squares(40)
train_ds, val_ds = random_split(ds, [30, 10])
print(len(train_ds), len(val_ds), train_ds.indices[:5])
train_dl = DataLoader(train_ds, batch_size=8, shuffle=True, drop_last=False)
val_dl = DataLoader(val_ds, batch_size=5)
xb, yb = next(iter(train_dl))
print(xb.shape, yb[:3].squeeze())

model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=5 * len(train_dl))
best, best_state = float('inf'), None
for epoch in range(5):
    model.train()
    for xb, yb in train_dl:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        opt.step()
        sched.step()
    model.eval()
    with torch.no_grad():
        val = sum(F.mse_loss(model(xb), yb, reduction='sum') for xb, yb in val_dl) / len(val_ds)
    if val < best:
        best = val.item()
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
    print(f"epoch {epoch}: lr {sched.get_last_lr()[0]:.5f} grad norm {norm:.4f} val {val:.5f}")
model.load_state_dict(best_state)
print(best, model(torch.tensor([[0.5]])))

@torch.no_grad()
def predict(m, x):
    return m(x)
p = predict(model, torch.tensor([[1.0], [-1.0]]))
print(p, p.requires_grad)
tds = TensorDataset(torch.arange(6.).view(3, 2), torch.tensor([0, 1, 0]))
for a, b in DataLoader(tds, batch_size=2, shuffle=True):
    print(a, b)
print(opt.state_dict()['param_groups'][0]['lr'], opt.state_dict()['state'][0]['step'])
