"""The Python API's own arguments, checked in one place: each wrong value is one MetricInputError saying what was
given and what is expected (the CLI's parser refuses the same values)."""

from __future__ import annotations

import numbers

import numpy as np

from swords_metric.errors import MetricInputError, shown


def check_k(k: object) -> int:
    """The cut-off k as an int of at least 1."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise MetricInputError(f"k must be a positive integer, got {shown(k)}")
    return int(k)


def check_flag(value: object, name: str) -> bool:
    """A yes/no option: only True or False (a string such as "no" would otherwise count as True)."""
    if not isinstance(value, bool | np.bool_):
        raise MetricInputError(f"{name} must be True or False, got {shown(value)}")
    return bool(value)


def check_split_name(split: object) -> str | None:
    """A split's name for the signature: a string, or None (the shipped split the rows are, else 'custom')."""
    if split is not None and not isinstance(split, str):
        raise MetricInputError(f"split must be a split's name (a string such as 'test') or None, got {shown(split)}")
    return split
