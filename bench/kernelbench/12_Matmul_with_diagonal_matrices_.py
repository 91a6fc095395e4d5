import torch
import torch.nn as nn


class Model(nn.Module):
    """diag(A) @ B: each row of B scaled by an element of A."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.diag(A) @ B


M = 4096
N = 4096


def get_inputs():
    return [torch.randn(N), torch.randn(N, M)]


def get_init_inputs():
    return []
