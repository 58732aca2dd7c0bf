# PyTorch's examples/reinforcement_learning/reinforce.py (REINFORCE on CartPole): the Policy network
# (Linear-Dropout-ReLU-Linear-softmax), select_action (Categorical(probs), m.sample(), m.log_prob(action)) and
# finish_episode (discounted, normalized returns; -log_prob * R summed; one Adam step), seeded with the
# example's seed 543. Changed: gym's CartPole is replaced by a tiny deterministic pole written here (same
# 4-number state, 2 actions, reward 1 a step, done when the pole falls or after 30 steps); argparse's
# defaults are constants; 12 episodes, logged every 3, with the loss and a few values printed.
from collections import deque
from itertools import count

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

gamma = 0.99
seed = 543
log_interval = 3


class FakeCartPole:
    """A cart with a pole: x, x_dot, theta, theta_dot; action 0 pushes left, 1 right."""

    reward_threshold = 25.0

    def __init__(self):
        self.state = None
        self.steps = 0
        self.episode = 0

    def reset(self, seed=None):
        self.episode += 1
        k = (self.episode * 7) % 5
        self.state = np.array([0.01 * k, 0.0, 0.02 - 0.01 * k, -0.01 * k], dtype=np.float64)
        self.steps = 0
        return self.state, {}

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 1.0 if action == 1 else -1.0
        theta_acc = 0.8 * theta - 0.1 * force
        x_dot = x_dot + 0.05 * force
        x = x + 0.02 * x_dot
        theta_dot = theta_dot + 0.02 * theta_acc
        theta = theta + 0.02 * theta_dot * 5
        self.state = np.array([x, x_dot, theta, theta_dot], dtype=np.float64)
        self.steps += 1
        terminated = abs(theta) > 0.05 or abs(x) > 0.5
        truncated = self.steps >= 30
        return self.state, 1.0, terminated, truncated, {}


env = FakeCartPole()
env.reset(seed=seed)
torch.manual_seed(seed)


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 128)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(128, 2)

        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = np.finfo(np.float32).eps.item()


def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = deque()
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.appendleft(R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss


state, _ = env.reset()
probs = policy(torch.from_numpy(state).float().unsqueeze(0))
m = Categorical(probs)
print(m, m.probs, m.logits)
a = m.sample()
print(a, m.log_prob(a), m.log_prob(a).grad_fn, m.entropy())

running_reward = 10
for i_episode in count(1):
    state, _ = env.reset()
    ep_reward = 0
    for t in range(1, 10000):  # Don't infinite loop while learning
        action = select_action(state)
        state, reward, terminated, truncated, _ = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if terminated or truncated:
            break

    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    if i_episode % log_interval == 0:
        print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}\tloss: {:.6f}'.format(
              i_episode, ep_reward, running_reward, loss.item()))
    if running_reward > env.reward_threshold:
        print("Solved! Running reward is now {} and "
              "the last episode runs to {} time steps!".format(running_reward, t))
        break
    if i_episode == 12:
        break

print(policy.affine2.bias)
print(policy.affine1.weight[:2, :])
