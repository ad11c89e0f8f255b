"""The one significance engine, blind to the metric (sacrebleu's contract): a family gives per-target statistics
that sum over targets and the figures a resample's sums become; targets are resampled with replacement (jointly for
the systems compared). It gives 95% confidence intervals and the paired bootstrap test, for every family alike."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from swords_metric.errors import MetricInputError, shown

if TYPE_CHECKING:  # numpy is imported where resampling starts: a plain evaluation does not pay for it
    import numpy as np

MAX_RESAMPLES = 1_000_000
MIN_PAIRED_RESAMPLES = 100  # below this a p-value says little (its resolution is 1 / resamples)
_RESAMPLE_CHUNK = 1000  # resamples drawn and summed at a time: memory stays bounded whatever the count


class Statistics(Protocol):
    """Per-target statistics of one system, as a family makes them: how many targets, the sums of a chunk of
    resamples (`counts[r, t]`: how often target t is drawn in resample r), and the figures those sums give."""

    def __len__(self) -> int: ...

    def sums(self, counts: np.ndarray) -> object: ...

    def figures(self, sums: object) -> dict[str, np.ndarray]: ...


def summed_products(counts: np.ndarray, columns: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each column's sums in a chunk of resamples (`counts[r, t]`), as numpy's pairwise sums of the products, not a
    BLAS product: OpenBLAS's kernels differ between CPUs (AVX-512, AVX2, SSE) in the last bits; these do not."""
    return {name: (counts * column).sum(axis=1) for name, column in columns.items()}


class InstanceStatistics:
    """An official family's per-instance statistics, in groups resampled alike, each with how its sums become
    figures: [(statistic -> per-instance values, sums -> figures)]."""

    def __init__(self, groups: Sequence[tuple[Mapping[str, Sequence[float]], Callable[[dict], dict]]]):
        import numpy as np

        self.groups = [
            ({name: np.array(values, dtype=np.float64) for name, values in columns.items()}, from_sums)
            for columns, from_sums in groups
        ]

    def __len__(self) -> int:
        return len(next(iter(self.groups[0][0].values())))

    def sums(self, counts: np.ndarray) -> list[dict[str, np.ndarray]]:
        return [summed_products(counts, columns) for columns, _ in self.groups]

    def figures(self, sums: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        pairs = zip(self.groups, sums, strict=True)
        return {name: value for (_, from_sums), summed in pairs for name, value in from_sums(summed).items()}


def check_resamples(bootstrap: object, minimum: int = 0, what: str = "bootstrap") -> int:
    """A resample count as an int in [minimum, MAX_RESAMPLES], or a MetricInputError saying why not."""
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, numbers.Integral):
        raise MetricInputError(f"{what} must be a whole number of resamples, got {bootstrap!r}")
    if not minimum <= bootstrap <= MAX_RESAMPLES:
        raise MetricInputError(f"{what} must be between {minimum} and {MAX_RESAMPLES:,} resamples, got {bootstrap}")
    return int(bootstrap)


def check_seed(seed: object, what: str = "seed") -> int:
    """A bootstrap seed as an int of at least 0 (numpy's generators take any such int; the signature records it)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise MetricInputError(f"{what} must be a whole number of at least 0, got {shown(seed)}")
    return int(seed)


def resample_counts(n: int, bootstrap: int, seed: int) -> Iterator[np.ndarray]:
    """The one resampler: per chunk of resamples, how often each of the n targets is drawn (resamples, n)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    for start in range(0, bootstrap, _RESAMPLE_CHUNK):
        size = min(_RESAMPLE_CHUNK, bootstrap - start)
        draws = rng.integers(0, n, size=(size, n))
        draws += (np.arange(size) * n)[:, None]  # resample r's draws offset by r*n, in place
        counts = np.bincount(draws.ravel(), minlength=size * n)
        del draws
        yield counts.reshape(size, n).astype(np.float64)


def resampled(systems: Sequence[Statistics], bootstrap: int, seed: int) -> list[dict[str, np.ndarray]]:
    """Per system, every figure of every resample: targets drawn jointly for the systems."""
    import numpy as np

    collected: list[dict[str, list[np.ndarray]]] = [{} for _ in systems]
    for counts in resample_counts(len(systems[0]), bootstrap, seed):
        for system, into in zip(systems, collected, strict=True):
            for name, values in system.figures(system.sums(counts)).items():
                into.setdefault(name, []).append(np.atleast_1d(values))
    return [{name: np.concatenate(parts) for name, parts in into.items()} for into in collected]


def _interval(values: np.ndarray) -> list[float]:
    import numpy as np

    return [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]


def intervals(statistics: Statistics, bootstrap: int, seed: int) -> dict[str, list[float]]:
    """95% percentile intervals of every resampled figure."""
    return {name: _interval(values) for name, values in resampled([statistics], bootstrap, seed)[0].items()}


def paired_test(a: Statistics, b: Statistics, observed_a: Mapping, observed_b: Mapping, bootstrap: int, seed: int):
    """The paired test's table: per figure, A, B, their difference, its 95% interval and a two-sided p-value."""
    resampled_a, resampled_b = resampled([a, b], bootstrap, seed)
    comparison = {}
    for name in resampled_a:
        difference = resampled_a[name] - resampled_b[name]
        comparison[name] = {
            "a": observed_a[name],
            "b": observed_b[name],
            "difference": observed_a[name] - observed_b[name],
            "interval": _interval(difference),
            "p_value": min(1.0, 2 * min(float((difference <= 0).mean()), float((difference >= 0).mean()))),
        }
    return comparison
