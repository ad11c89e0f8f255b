"""The Explore tab's handlers on the real bundled data: search, an example shown with everything escaped."""

from __future__ import annotations

import re

import pytest

from swords_dataset.judgements import CLASSES

from .helpers import import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import data, render, scoring  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs.explore import search_examples, show_example  # noqa: E402


def test_search_and_show_examples_escape_everything(swords_test):
    choices, message = search_examples("swords test", "bri", "all")
    assert choices and all("bri" in label.lower() for label, _ in choices)
    assert message.startswith(f"{len(choices)} targets starting with")
    only_verbs, _ = search_examples("coinco dev", "", "VERB", limit=50)
    assert len(only_verbs) == 50
    assert all(data.get_row("coinco", "dev", rid)["pos"] == "VERB" for _, rid in only_verbs)
    header, context_html, substitutes = show_example("swords test", choices[0][1])
    assert '<mark class="swords-target"' in context_html and "width:" in substitutes
    hostile = {"context": "<script>alert(1)</script> x & y", "offset": 26, "target": "x"}
    marked = render.context_html(hostile["context"], hostile["offset"], 1)
    assert "<script>" not in marked and "&lt;script&gt;" in marked and ">x</mark>" in marked
    with pytest.raises(SpaceError, match="Unknown benchmark 'swords train'; choose one of swords dev"):
        search_examples("swords train")
    with pytest.raises(SpaceError, match="No example"):
        show_example("swords test", "t:nope")


def test_prolex_and_tsar2022_are_not_offered_yet_and_asking_for_them_is_one_clear_error():
    """Their rows have no POS or lemma for the Space's views, and their metrics are not in its scoring yet."""
    assert not [label for label in data.split_choices() if label.startswith(("prolex", "tsar2022"))]
    assert "semeval07 test" in data.split_choices()
    for label in ("prolex test", "tsar2022_es trial"):
        with pytest.raises(SpaceError, match=f"Unknown benchmark '{label}'; choose one of swords dev"):
            search_examples(label)


def test_gold_bars_are_coloured_by_the_metrics_classes(swords_test):
    """Each gold substitute's bar carries its class as the metric counts it (scoring.gold_labels, measured
    against scoring itself in test_space_labels.py), in the row's order of scores."""
    for row in swords_test[:50]:
        _, _, html = show_example("swords test", row["id"])
        shown = re.findall(r'<div data-judgement="([^"]+)"', html)
        labels = scoring.gold_labels(row, "swords", "test")
        by_score = [label for _, label in sorted(zip(row["substitutes"], labels, strict=True),
                                                 key=lambda pair: -pair[0]["score"])]
        assert shown == by_score and set(shown) <= set(CLASSES)
        for label in set(shown):
            assert f"background:{render.BAR_COLOURS[label]}" in html
