"""Shared fixtures: the compiled kernel, and the rules reference beside the checkout when it
is there."""

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules"


@pytest.fixture(scope="session")
def shared_rules() -> Path:
    if not SHARED.exists():
        pytest.skip("../shared/rules is not beside this checkout")
    return SHARED


@pytest.fixture(scope="session", autouse=True)
def compiled_kernel():
    """Compile (or load) every kernel function once, with its one signature, before any
    test calls kernel functions directly."""
    from citadels_sim.kernel import run  # noqa: F401  (registers every kernel function)
    from citadels_sim.kernel.jit import compile_kernel
    compile_kernel()
