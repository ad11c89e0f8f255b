"""Fixtures shared by the baselines' tests: the fault tests' key, SWORDS dev."""

from __future__ import annotations

import secrets

import pytest


@pytest.fixture
def key() -> dict:
    return {"SWORDS_FAULT_KEY": "sk-fault-" + secrets.token_hex(16)}


@pytest.fixture(scope="session")
def dev() -> list[dict]:
    """SWORDS dev, the LLM's priming pool and the recorded GPT-3 targets' split."""
    import swords_dataset

    return swords_dataset.rows("swords", "dev")


@pytest.fixture(scope="session")
def dev_by_id(dev) -> dict[str, dict]:
    return {row["id"]: row for row in dev}
