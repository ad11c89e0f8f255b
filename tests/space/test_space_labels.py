"""The Space's label of every gold substitute of SWORDS (dev, test) and CoInCo (dev, test) is the metric's
class, measured from scoring itself rather than from the thresholds: each substitute is scored as a
one-substitute prediction for its own target, and its class read from the per-target counts scoring made.

- acceptable: a strict hit against acceptable references (strict_a:hits);
- conceivable: a strict hit against conceivable references, not an acceptable one (strict_c:hits);
- judged unacceptable: in the references (a lenient prediction, lenient_a:n_pred) with no hit;
- not in the benchmark: not even that (its lemma is the target's, so scoring drops it).

And the lemmas whose judgements, merged over their forms, score strictly between 0 and 0.1 (one annotator
of more than ten accepted them) are judged unacceptable: 6 of them in SWORDS test, 2 in dev."""

from __future__ import annotations

from collections import defaultdict

import pytest

from swords_metric import CLASSES, Scorer, lemmatize

from .helpers import import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import benchmarks, scoring  # noqa: E402  (after the import fallback)

ACCEPTABLE, CONCEIVABLE, JUDGED_UNACCEPTABLE, NOT_IN_BENCHMARK = CLASSES
SPLITS = [("swords", "dev"), ("swords", "test"), ("coinco", "dev"), ("coinco", "test")]
# Lemmas scoring strictly between 0 and 0.1 once their forms' judgements are merged, per SWORDS split.
BELOW_CONCEIVABLE = {("swords", "test"): 6, ("swords", "dev"): 2}


def measured_classes(config: str, split: str, rows: list[dict]) -> dict[tuple[str, int], str]:
    """(target id, index of the gold substitute) -> its class, as scoring counts it: for each index i, every
    target's i-th gold substitute as that target's only prediction, all targets scored at once."""
    scorer = Scorer.from_dataset(config, split, include_problematic=True)
    classes = {}
    for i in range(max(len(row["substitutes"]) for row in rows)):
        batch = {row["id"]: [row["substitutes"][i]["substitute"]] for row in rows if len(row["substitutes"]) > i}
        given, prepared = scorer.restricted_to_given(scorer.prepare(batch))
        scores = given.target_scores(prepared)
        columns = [scores.columns[name] for name in ("strict_a:hits", "strict_c:hits", "lenient_a:n_pred")]
        counted = dict(zip(scores.ids, zip(*columns, strict=True), strict=True))
        for target in batch:
            acceptable, conceivable, judged = counted.get(target, (0, 0, 0))  # absent: nothing in its references
            classes[target, i] = (
                ACCEPTABLE
                if acceptable
                else CONCEIVABLE
                if conceivable
                else JUDGED_UNACCEPTABLE
                if judged
                else NOT_IN_BENCHMARK
            )
    return classes


@pytest.mark.parametrize(("config", "split"), SPLITS)
@pytest.mark.slow  # 21 s on two cores
def test_every_gold_substitutes_label_is_the_metrics_class(config, split):
    rows = [row for row in benchmarks.load_rows(config, split) if row["substitutes"]]
    measured = measured_classes(config, split, rows)
    labelled = {
        (row["id"], i): label for row in rows for i, label in enumerate(scoring.gold_labels(row, config, split))
    }
    assert len(labelled) == len(measured) == sum(len(row["substitutes"]) for row in rows)
    wrong = [(key, labelled[key], measured[key]) for key in measured if labelled[key] != measured[key]]
    assert not wrong, f"{len(wrong)} of {len(measured)} differ, e.g. {wrong[:5]}"
    assert set(measured.values()) == set(CLASSES) - ({JUDGED_UNACCEPTABLE} if config == "coinco" else set())


@pytest.mark.parametrize(("config", "split"), list(BELOW_CONCEIVABLE))
def test_lemmas_merged_below_the_conceivable_threshold_are_judged_unacceptable(config, split):
    rows = benchmarks.load_rows(config, split)
    merged: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    forms: dict[tuple[str, str], list[int]] = defaultdict(list)
    for row in rows:
        for i, substitute in enumerate(row["substitutes"]):
            key = (row["id"], lemmatize(substitute["substitute"], row["pos"]))
            merged[key][0] += substitute["votes_positive"]
            merged[key][1] += substitute["votes_total"]
            forms[key].append(i)
    below = [key for key, (positive, total) in merged.items() if 0 < positive / total < 0.1]
    assert len(below) == BELOW_CONCEIVABLE[config, split], below
    by_id = {row["id"]: row for row in rows}
    for target, lemma in below:
        labels = scoring.gold_labels(by_id[target], config, split)
        assert {labels[i] for i in forms[target, lemma]} == {JUDGED_UNACCEPTABLE}, (target, lemma)
