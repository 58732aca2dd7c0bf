# d2l.ai "Pretraining word2vec" (chapter 15.4): the skip-gram forward with two embeddings and bmm, the
# masked sigmoid binary cross-entropy, and the training loop's steps (Adam, Accumulator-style sums), on a
# small random corpus of center/context/negative ids instead of PTB. Seeded (torch.manual_seed(0)).
import math
import torch
from torch import nn

torch.manual_seed(0)

embed = nn.Embedding(num_embeddings=20, embedding_dim=4)
print(f'Parameter embedding_weight ({embed.weight.shape}, dtype={embed.weight.dtype})')
x = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(embed(x))

def skip_gram(center, contexts_and_negatives, embed_v, embed_u):
    v = embed_v(center)
    u = embed_u(contexts_and_negatives)
    pred = torch.bmm(v, u.permute(0, 2, 1))
    return pred

print(skip_gram(torch.ones((2, 1), dtype=torch.long),
                torch.ones((2, 4), dtype=torch.long), embed, embed).shape)

class SigmoidBCELoss(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, inputs, target, mask=None):
        out = nn.functional.binary_cross_entropy_with_logits(
            inputs, target, weight=mask, reduction="none")
        return out.mean(dim=1)

loss = SigmoidBCELoss()
pred = torch.tensor([[1.1, -2.2, 3.3, -4.4]] * 2)
label = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
print(loss(pred, label, mask) * mask.shape[1] / mask.sum(axis=1))

def sigmd(x):
    return -math.log(1 / (1 + math.exp(-x)))

print(f'{(sigmd(1.1) + sigmd(2.2) + sigmd(-3.3) + sigmd(4.4)) / 4:.4f}')
print(f'{(sigmd(-1.1) + sigmd(-2.2)) / 2:.4f}')

vocab_size, embed_size = 30, 8
net = nn.Sequential(nn.Embedding(num_embeddings=vocab_size, embedding_dim=embed_size),
                    nn.Embedding(num_embeddings=vocab_size, embedding_dim=embed_size))

centers = torch.randint(0, vocab_size, (48, 1))
contexts_negatives = torch.randint(0, vocab_size, (48, 6))
masks = (torch.rand(48, 6) > 0.2).float()
labels = torch.zeros(48, 6)
labels[:, :2] = 1

def init_weights(module):
    if type(module) == nn.Embedding:
        nn.init.xavier_uniform_(module.weight)
net.apply(init_weights)
optimizer = torch.optim.Adam(net.parameters(), lr=0.002)
for epoch in range(3):
    total, count = 0.0, 0
    for i in range(0, 48, 16):
        center, context_negative, mask, label = centers[i:i + 16], contexts_negatives[i:i + 16], masks[i:i + 16], labels[i:i + 16]
        optimizer.zero_grad()
        pred = skip_gram(center, context_negative, net[0], net[1])
        l = (loss(pred.reshape(label.shape).float(), label.float(), mask) / mask.sum(axis=1) * mask.shape[1])
        l.sum().backward()
        optimizer.step()
        total += l.sum()
        count += l.numel()
    print(f'epoch {epoch + 1}, loss {total / count:.3f}', total.item(), count)

def get_similar_tokens(query_token, k, embed):
    W = embed.weight.data
    x = W[query_token]
    cos = torch.mv(W, x) / torch.sqrt(torch.sum(W * W, dim=1) * torch.sum(x * x) + 1e-9)
    topk = torch.topk(cos, k=k+1)[1].cpu().numpy().astype('int32')
    for i in topk[1:]:
        print(f'cosine sim={float(cos[i]):.3f}: {i}')
    return cos

print(get_similar_tokens(3, 3, net[0])[:5])
