# Tutorial-style (PyTorch's "Language Modeling with nn.Transformer"): synthetic tokens instead of
# torchtext's WikiText2, small sizes; plus an nn.Transformer seq2seq in eval mode with padding masks
# (PyTorch's nested-tensor fast path). nnmodules, session 30.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.5):
        super().__init__()
        self.model_type = 'Transformer'
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        if src_mask is None:
            src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        output = self.transformer_encoder(src, src_mask)
        output = self.linear(output)
        return output


ntokens, emsize, d_hid, nlayers, nhead, dropout = 50, 16, 32, 2, 2, 0.2
model = TransformerModel(ntokens, emsize, nhead, d_hid, nlayers, dropout)
print(model)
print('parameters:', sum(p.numel() for p in model.parameters()))
print('first weights:', model.transformer_encoder.layers[0].self_attn.in_proj_weight[0, :4])

data = torch.randint(0, ntokens, (200,))
bptt = 8


def batchify(d, bsz):
    seq_len = d.size(0) // bsz
    return d[:seq_len * bsz].view(bsz, seq_len).t().contiguous()


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


train_data = batchify(data, 4)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)

for epoch in range(2):
    model.train()
    total = 0.0
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        x, targets = get_batch(train_data, i)
        output = model(x)
        loss = criterion(output.view(-1, ntokens), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total += loss.item()
        print(f'epoch {epoch} batch {batch} loss {loss.item():.4f}')
    scheduler.step()
    print(f'epoch {epoch} mean loss {total / (batch + 1):.4f} lr {scheduler.get_last_lr()[0]:.4f}')

model.eval()
with torch.no_grad():
    x, targets = get_batch(train_data, 0)
    out = model(x)
    print('eval loss', round(criterion(out.view(-1, ntokens), targets).item(), 4))
    print('argmax', out.argmax(-1)[0])

# a seq2seq nn.Transformer, batch_first, with padding masks (inference fast path in PyTorch)
torch.manual_seed(1)
t = nn.Transformer(d_model=16, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                   dim_feedforward=32, dropout=0.1, batch_first=True)
src = torch.randn(3, 7, 16)
tgt = torch.randn(3, 5, 16)
pad = torch.tensor([[False] * 7, [False] * 5 + [True] * 2, [False] * 6 + [True]])
t.eval()
with torch.no_grad():
    y = t(src, tgt, tgt_mask=t.generate_square_subsequent_mask(5), src_key_padding_mask=pad,
          memory_key_padding_mask=pad)
print(y.shape, y[1, :, :3])
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32, batch_first=True), 2).eval()
with torch.no_grad():
    z = enc(src, src_key_padding_mask=pad)
print(z[1, 4:, :3])
print(list(t.state_dict().keys())[:6])
