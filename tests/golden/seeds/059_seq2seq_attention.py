# Follows PyTorch's NLP From Scratch tutorial part 3 (Translation with a Sequence to Sequence
# Network and Attention): EncoderRNN (Embedding, Dropout, GRU batch_first), BahdanauAttention,
# AttnDecoderRNN with teacher forcing and greedy topk decoding, trained with two Adam optimisers
# and NLLLoss. Changed: random token data instead of the French-English pairs (no files), small
# sizes, 30 epochs, values printed, seeded (torch.manual_seed(0)).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

torch.manual_seed(0)
SOS_token, EOS_token, MAX_LENGTH = 0, 1, 6

class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size, dropout_p=0.1):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input):
        embedded = self.dropout(self.embedding(input))
        output, hidden = self.gru(embedded)
        return output, hidden

class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super(BahdanauAttention, self).__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights

class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1):
        super(AttnDecoderRNN, self).__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attention = BahdanauAttention(hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
        batch_size = encoder_outputs.size(0)
        decoder_input = torch.empty(batch_size, 1, dtype=torch.long).fill_(SOS_token)
        decoder_hidden = encoder_hidden
        decoder_outputs = []
        attentions = []
        for i in range(MAX_LENGTH):
            decoder_output, decoder_hidden, attn_weights = self.forward_step(
                decoder_input, decoder_hidden, encoder_outputs)
            decoder_outputs.append(decoder_output)
            attentions.append(attn_weights)
            if target_tensor is not None:
                decoder_input = target_tensor[:, i].unsqueeze(1)  # Teacher forcing
            else:
                _, topi = decoder_output.topk(1)
                decoder_input = topi.squeeze(-1).detach()
        decoder_outputs = torch.cat(decoder_outputs, dim=1)
        decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
        attentions = torch.cat(attentions, dim=1)
        return decoder_outputs, decoder_hidden, attentions

    def forward_step(self, input, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(input))
        query = hidden.permute(1, 0, 2)
        context, attn_weights = self.attention(query, encoder_outputs)
        input_gru = torch.cat((embedded, context), dim=2)
        output, hidden = self.gru(input_gru, hidden)
        output = self.out(output)
        return output, hidden, attn_weights

in_vocab, out_vocab, hidden = 12, 10, 16
encoder = EncoderRNN(in_vocab, hidden)
decoder = AttnDecoderRNN(hidden, out_vocab)
src = torch.randint(2, in_vocab, (4, MAX_LENGTH))
src[:, -1] = EOS_token
tgt = torch.randint(2, out_vocab, (4, MAX_LENGTH))
tgt[:, -1] = EOS_token
enc_opt = optim.Adam(encoder.parameters(), lr=0.01)
dec_opt = optim.Adam(decoder.parameters(), lr=0.01)
criterion = nn.NLLLoss()
for epoch in range(1, 31):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    encoder_outputs, encoder_hidden = encoder(src)
    decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, tgt)
    loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), tgt.view(-1))
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    if epoch % 5 == 0:
        print('epoch %d loss %.4f' % (epoch, loss.item()))
encoder.eval(); decoder.eval()
with torch.no_grad():
    encoder_outputs, encoder_hidden = encoder(src)
    decoder_outputs, decoder_hidden, decoder_attn = decoder(encoder_outputs, encoder_hidden)
    _, topi = decoder_outputs.topk(1)
    decoded_ids = topi.squeeze()
print(decoded_ids)
print(tgt)
print(decoder_attn[0])
print(decoder_hidden.shape, decoder_outputs[0, 0])
