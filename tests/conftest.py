"""Shared fixtures: the rules reference beside the checkout, when it is there."""

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules"


@pytest.fixture(scope="session")
def shared_rules() -> Path:
    if not SHARED.exists():
        pytest.skip("../shared/rules is not beside this checkout")
    return SHARED
