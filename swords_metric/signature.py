"""A result's signature, every scorer's: everything that decides its numbers, sacrebleu-style (e.g.
`swords-metric:1.2|bench:swords|split:test|setting:generative|k:10|…|targets:762|bootstrap:1000,seed:0`)."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Signature:
    """`{family}-metric:{version}|bench:…|split:…|` then `settings` in order (`key:value` each), then, with
    resamples, `bootstrap:{n},seed:{seed}`. A split of None is `custom` (rows that are no shipped split)."""

    family: str  # "swords" (the SWORDS paper's metrics), "tsar2022", "prolex"
    version: str
    benchmark: str
    split: str | None
    settings: tuple[tuple[str, object], ...] = ()
    bootstrap: int = 0
    seed: int | None = None

    def resampled(self, bootstrap: int, seed: int | None) -> Signature:
        """The same signature for figures with `bootstrap` resamples drawn with `seed` (none when 0)."""
        return replace(self, bootstrap=bootstrap, seed=seed if bootstrap else None)

    def __str__(self) -> str:
        parts = [f"{self.family}-metric:{self.version}", f"bench:{self.benchmark}", f"split:{self.split or 'custom'}"]
        parts += [f"{key}:{value}" for key, value in self.settings]
        if self.bootstrap:
            parts.append(f"bootstrap:{self.bootstrap},seed:{self.seed}")
        return "|".join(parts)
