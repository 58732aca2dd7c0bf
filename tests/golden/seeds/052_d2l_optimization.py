# Follows d2l.ai's PyTorch chapter "Optimization Algorithms" as a user types it: gradient descent
# in one and two dimensions (train_2d with f_2d), stochastic gradient descent with a learning-rate
# schedule, momentum (the ill-conditioned f_2d, init_momentum_states/sgd_momentum), Adagrad,
# RMSProp, Adadelta and Adam (init_*_states and the from-scratch update functions) on the
# chapter's airfoil-like regression, then their torch.optim counterparts (the concise versions).
# Changed: the airfoil data cannot be downloaded: a seeded synthetic set (torch.manual_seed(0)) of
# 200 examples with 5 features; 2 epochs of minibatches of 20 instead of the full runs; the plots
# are printed as numbers (the final loss, the last points of each trajectory); the nonconvex
# example's c is float64 (float32 cos/sin are MKL VML's in PyTorch, whose last bits agrad does
# not reproduce: docs/semantics.md).
import math

import torch
from torch import nn

torch.manual_seed(0)


def f(x):  # Objective function
    return x ** 2


def f_grad(x):  # Gradient (derivative) of the objective function
    return 2 * x


def gd(eta, f_grad):
    x = 10.0
    results = [x]
    for i in range(10):
        x -= eta * f_grad(x)
        results.append(float(x))
    print(f'epoch 10, x: {x:f}')
    return results


results = gd(0.2, f_grad)
print(gd(0.05, f_grad)[-1], gd(1.1, f_grad)[-1])

c = torch.tensor(0.15 * math.pi, dtype=torch.float64)


def f(x):  # Objective function
    return x * torch.cos(c * x)


def f_grad(x):  # Gradient of the objective function
    return torch.cos(c * x) - c * x * torch.sin(c * x)


print(gd(2, f_grad)[-3:])


def train_2d(trainer, steps=20, f_grad=None):  #@save
    """Optimize a 2D objective function with a customized trainer."""
    # `s1` and `s2` are internal state variables that will be used in Momentum, adagrad, RMSProp
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results


def f_2d(x1, x2):  # Objective function
    return x1 ** 2 + 2 * x2 ** 2


def f_2d_grad(x1, x2):  # Gradient of the objective function
    return (2 * x1, 4 * x2)


def gd_2d(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    return (x1 - eta * g1, x2 - eta * g2, 0, 0)


eta = 0.1
train_2d(gd_2d, f_grad=f_2d_grad)


def sgd(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    # Simulate noisy gradient
    g1 += torch.normal(0.0, 1, (1,)).item()
    g2 += torch.normal(0.0, 1, (1,)).item()
    eta_t = eta * lr()
    return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)


def constant_lr():
    return 1


eta = 0.1
lr = constant_lr  # Constant learning rate
print(train_2d(sgd, steps=50, f_grad=f_2d_grad)[-1])


def exponential_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return math.exp(-0.1 * t)


t = 1
lr = exponential_lr
print(train_2d(sgd, steps=1000, f_grad=f_2d_grad)[-1])


def polynomial_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return (1 + 0.1 * t) ** (-0.5)


t = 1
lr = polynomial_lr
print(train_2d(sgd, steps=50, f_grad=f_2d_grad)[-1])

eta = 0.4


def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2


def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)


train_2d(gd_2d)


def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2


eta, beta = 0.6, 0.5
train_2d(momentum_2d)
eta, beta = 0.6, 0.25
train_2d(momentum_2d)


def adagrad_2d(x1, x2, s1, s2):
    eps = 1e-6
    g1, g2 = 0.2 * x1, 4 * x2
    s1 += g1 ** 2
    s2 += g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


eta = 0.4
train_2d(adagrad_2d)


def rmsprop_2d(x1, x2, s1, s2):
    g1, g2, eps = 0.2 * x1, 4 * x2, 1e-6
    s1 = gamma * s1 + (1 - gamma) * g1 ** 2
    s2 = gamma * s2 + (1 - gamma) * g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2


eta, gamma = 0.4, 0.9
train_2d(rmsprop_2d)

# the chapter's airfoil data (synthetic here), standardized
features = torch.randn(200, 5)
labels = features @ torch.tensor([1.5, -2.0, 0.5, 3.0, -1.0]) + 0.3 * torch.randn(200)
features = (features - features.mean(dim=0)) / features.std(dim=0)
labels = labels.reshape(-1, 1)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def data_iter(batch_size):
    for i in range(0, 200, batch_size):
        yield features[i: i + batch_size], labels[i: i + batch_size]


def train_ch11(trainer_fn, states, hyperparams, num_epochs=2, batch_size=20):
    # Initialization
    w = torch.normal(mean=0.0, std=0.01, size=(features.shape[1], 1), requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    net, loss = lambda X: linreg(X, w, b), squared_loss
    for _ in range(num_epochs):
        for X, y in data_iter(batch_size):
            l = loss(net(X), y).mean()
            l.backward()
            trainer_fn([w, b], states, hyperparams)
    final = loss(net(features), labels).mean()
    print(f'loss: {final.item():.6f}', w.detach().reshape(-1), b.detach())
    return final


def sgd(params, states, hyperparams):
    for p in params:
        p.data.sub_(hyperparams['lr'] * p.grad)
        p.grad.data.zero_()


train_ch11(sgd, None, {'lr': 0.05})


def init_momentum_states(feature_dim):
    v_w = torch.zeros((feature_dim, 1))
    v_b = torch.zeros(1)
    return (v_w, v_b)


def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams['momentum'] * v + p.grad
            p[:] -= hyperparams['lr'] * v
        p.grad.data.zero_()


train_ch11(sgd_momentum, init_momentum_states(5), {'lr': 0.02, 'momentum': 0.5})


def init_adagrad_states(feature_dim):
    s_w = torch.zeros((feature_dim, 1))
    s_b = torch.zeros(1)
    return (s_w, s_b)


def adagrad(params, states, hyperparams):
    eps = 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] += torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


train_ch11(adagrad, init_adagrad_states(5), {'lr': 0.1})


def init_rmsprop_states(feature_dim):
    s_w = torch.zeros((feature_dim, 1))
    s_b = torch.zeros(1)
    return (s_w, s_b)


def rmsprop(params, states, hyperparams):
    gamma, eps = hyperparams['gamma'], 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()


train_ch11(rmsprop, init_rmsprop_states(5), {'lr': 0.01, 'gamma': 0.9})


def init_adadelta_states(feature_dim):
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    delta_w, delta_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((s_w, delta_w), (s_b, delta_b))


def adadelta(params, states, hyperparams):
    rho, eps = hyperparams['rho'], 1e-5
    for p, (s, delta) in zip(params, states):
        with torch.no_grad():
            # In-place updates via [:]
            s[:] = rho * s + (1 - rho) * torch.square(p.grad)
            g = (torch.sqrt(delta + eps) / torch.sqrt(s + eps)) * p.grad
            p[:] -= g
            delta[:] = rho * delta + (1 - rho) * g * g
        p.grad.data.zero_()


train_ch11(adadelta, init_adadelta_states(5), {'rho': 0.9})


def init_adam_states(feature_dim):
    v_w, v_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((v_w, s_w), (v_b, s_b))


def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1


train_ch11(adam, init_adam_states(5), {'lr': 0.01, 't': 1})


def yogi(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-3
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = s + (1 - beta2) * torch.sign(
                torch.square(p.grad) - s) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1


train_ch11(yogi, init_adam_states(5), {'lr': 0.01, 't': 1})


def train_concise_ch11(trainer_fn, hyperparams, num_epochs=2, batch_size=20):
    # Initialization
    net = nn.Sequential(nn.Linear(5, 1))

    def init_weights(module):
        if type(module) == nn.Linear:
            torch.nn.init.normal_(module.weight, std=0.01)

    net.apply(init_weights)

    optimizer = trainer_fn(net.parameters(), **hyperparams)
    loss = nn.MSELoss(reduction='none')
    for _ in range(num_epochs):
        for X, y in data_iter(batch_size):
            optimizer.zero_grad()
            out = net(X)
            y = y.reshape(out.shape)
            l = loss(out, y)
            l.mean().backward()
            optimizer.step()
    final = loss(net(features), labels).mean() / 2
    print(f'loss: {final.item():.6f}', net[0].weight.detach(), net[0].bias.detach())


train_concise_ch11(torch.optim.SGD, {'lr': 0.01})
train_concise_ch11(torch.optim.SGD, {'lr': 0.005, 'momentum': 0.9})
train_concise_ch11(torch.optim.Adagrad, {'lr': 0.1})
train_concise_ch11(torch.optim.RMSprop, {'lr': 0.01, 'alpha': 0.9})
train_concise_ch11(torch.optim.Adadelta, {'rho': 0.9})
train_concise_ch11(torch.optim.Adam, {'lr': 0.01})
