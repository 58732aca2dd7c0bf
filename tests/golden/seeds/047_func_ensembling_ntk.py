# Follows PyTorch's torch.func tutorials "Model ensembling" (stack_module_state, functional_call
# on a 'meta' base model, vmap over the stacked weights with the same and with different
# minibatches) and "Neural Tangent Kernels" (a CNN, fnet_single with functional_call, the
# empirical NTK through jacrev + vmap, its full and trace forms, and the NTK-vector-product form
# with vjp and jvp), as a user types them.
# Changed: MNIST-shaped synthetic data from torch.manual_seed(0); the CNN of the NTK tutorial is
# smaller (channels 8, 16x16 images, 3 classes) and runs on 'cpu'; results are printed; the
# ensembling's base model stays on the CPU (agrad has no 'meta' device; functional_call replaces
# its parameters either way).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, jacrev, jvp, stack_module_state, vjp, vmap

torch.manual_seed(0)


# Here's a simple MLP
class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


device = 'cpu'
num_models = 10

data = torch.randn(100, 64, 1, 28, 28, device=device)
targets = torch.randint(10, (6400,), device=device)

models = [SimpleMLP().to(device) for _ in range(num_models)]

minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]

minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print([(k, v.shape) for k, v in params.items()], buffers)

import copy

# Construct a "stateless" version of one of the models. It is "stateless" in
# the sense that the parameters are meta Tensors and do not have storage.
base_model = copy.deepcopy(models[0])


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


print([p.size(0) for p in params.values()])  # show the leading 'num_models' dimension

assert minibatches.shape == (num_models, 64, 1, 28, 28)  # verify minibatch has leading dimension of size 'num_models'

predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)

# verify the ``vmap`` predictions match the
assert torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5)
print(predictions1_vmap.shape, predictions1_vmap[0, :2])

predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)

assert torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5)
print(predictions2_vmap.shape, predictions2_vmap[3, :2])


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, (3, 3))
        self.conv2 = nn.Conv2d(8, 8, (3, 3))
        self.conv3 = nn.Conv2d(8, 8, (3, 3))
        self.fc = nn.Linear(800, 3)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = self.conv3(x)
        x = x.flatten(1)
        x = self.fc(x)
        return x


x_train = torch.randn(20, 3, 16, 16, device=device)
x_test = torch.randn(5, 3, 16, 16, device=device)

net = CNN().to(device)

# Detaching the parameters because we won't be calling Tensor.backward().
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2):
    # Compute J(x1)
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]

    # Compute J(x2)
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]

    # Compute J(x1) @ J(x2).T
    result = torch.stack([torch.einsum('Naf,Mbf->NMab', j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute='full'):
    # Compute J(x1)
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]

    # Compute J(x2)
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]

    # Compute J(x1) @ J(x2).T
    einsum_expr = None
    if compute == 'full':
        einsum_expr = 'Naf,Mbf->NMab'
    elif compute == 'trace':
        einsum_expr = 'Naf,Maf->NM'
    elif compute == 'diagonal':
        einsum_expr = 'Naf,Maf->NMa'
    else:
        assert False

    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'trace')
print(result.shape)
print(torch.allclose(result, empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'full').diagonal(dim1=-2, dim2=-1).sum(-1), atol=1e-4))


def empirical_ntk_ntk_vps(func, params, x1, x2, compute='full'):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            # This computes ``vec @ J(x2).T``
            # `vec` is some unit vector (a single slice of the Identity matrix)
            vjps = vjp_fn(vec)
            # This computes ``J(X1) @ vjps``
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        # Here's our identity matrix
        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    # ``get_ntk(x1, x2)`` computes the NTK for a single data point x1, x2
    # Since the x1, x2 inputs to ``empirical_ntk_ntk_vps`` are batched,
    # we actually wish to compute the NTK between every pair of data points
    # between {x1} and {x2}. That's what the ``vmaps`` here do.
    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)

    if compute == 'full':
        return result
    if compute == 'trace':
        return torch.einsum('NMKK->NM', result)
    if compute == 'diagonal':
        return torch.einsum('NMKK->NMK', result)


# Disable TensorFloat-32 for convolutions on Ampere+ GPUs to sacrifice performance in favor of accuracy
with torch.backends.cudnn.flags(allow_tf32=False):
    result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(fnet_single, params, x_test[:3], x_train[:4])
    result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_test[:3], x_train[:4])

assert torch.allclose(result_from_jacobian_contraction, result_from_ntk_vps, atol=1e-5)
print(result_from_ntk_vps.shape, (result_from_jacobian_contraction - result_from_ntk_vps).abs().max() < 1e-4)
