"""torch.accelerator: no accelerator in agrad."""

from __future__ import annotations


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def device_count():
    return 0
