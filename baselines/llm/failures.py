"""What a run of the prompted LLM does with a target that gets no answer, and the one line it stops with.

`--on-failure abort` (default) leaves a failed target out and stops once the batch is done (a rerun retries it);
`empty` records no substitutes. `--abort-after` failures in a row stop the run at once. An empty completion is the
model's answer: under `empty` it counts towards nothing; otherwise the last line names `--on-failure empty`, since a
rerun gets the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from swords_lexsub.errors import SwordsError

RECORD_EMPTY = "pass --on-failure empty to record them as answered with no substitutes"


@dataclass
class Failure:
    target_id: str
    why: str  # credentials removed; shown escaped (the server wrote part of it)
    empty: bool  # the model's completion was empty


@dataclass
class FailurePolicy:
    """Counts one batch's failures for `--on-failure` and `--abort-after`, and words the line that stops a run."""

    on_failure: str
    abort_after: int
    in_a_row: list[Failure] = field(default_factory=list)
    batch: list[Failure] = field(default_factory=list)

    def answered(self) -> None:
        self.in_a_row.clear()

    def failed(self, failure: Failure) -> None:
        """Count a failed target; a SwordsError once --abort-after have failed in a row."""
        self.in_a_row.append(failure)
        self.batch.append(failure)
        if len(self.in_a_row) < self.abort_after:
            return
        last = self.in_a_row[-1]
        if all(f.empty for f in self.in_a_row):
            raise SwordsError(
                f"llm: {len(self.in_a_row)} targets in a row got an empty completion (last "
                f"{last.target_id}: {last.why}); a rerun asks the same: {RECORD_EMPTY} (finished "
                "targets are checkpointed)"
            )
        raise SwordsError(
            f"llm: {len(self.in_a_row)} targets failed in a row (last {last.target_id}: {last.why}); "
            "finished targets are checkpointed, rerun the same command to resume"
            f"{_empty_note(self.in_a_row)}"
        )

    def end_of_batch(self, finished: int) -> None:
        """With --on-failure abort, a SwordsError if any target of the batch failed."""
        if not self.batch or self.on_failure != "abort":
            return
        first = self.batch[0]
        if all(f.empty for f in self.batch):
            raise SwordsError(
                f"llm: {len(self.batch)} targets got an empty completion (first {first.target_id}: "
                f"{first.why}); a rerun asks the same: {RECORD_EMPTY} ({finished} finished targets "
                "are checkpointed)"
            )
        raise SwordsError(
            f"llm: {len(self.batch)} targets failed (first {first.target_id}: {first.why}); {finished} "
            f"finished targets are checkpointed, rerun the same command to retry the others"
            f"{_empty_note(self.batch)}"
        )


def _empty_note(failures: list[Failure]) -> str:
    empty = sum(f.empty for f in failures)
    return f"; {empty} of them got an empty completion, which a rerun gets again ({RECORD_EMPTY})" if empty else ""
