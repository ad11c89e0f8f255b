"""Fixtures shared by the fault tests (test_faults*.py)."""

from __future__ import annotations

import secrets

import pytest


@pytest.fixture
def key() -> dict:
    return {"SWORDS_FAULT_KEY": "sk-fault-" + secrets.token_hex(16)}
