"""The Explore tab's handlers on the real bundled data: search, an example shown with everything escaped."""

from __future__ import annotations

import ast
import csv
import html
import re
from collections import Counter

import pytest

from swords_dataset.judgements import CLASSES

from .helpers import import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import benchmarks, free_text, render, scoring  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs.explore import example_inputs, free_text_note, search_examples, show_example  # noqa: E402

from ..metric.family_sources import PROLEX_DATA, need, tsar_gold_lines  # noqa: E402


def test_search_and_show_examples_escape_everything(swords_test):
    choices, message = search_examples("swords test", "bri", "all")
    assert choices and all("bri" in label.lower() for label, _ in choices)
    assert message.startswith(f"{len(choices)} targets starting with")
    only_verbs, _ = search_examples("coinco dev", "", "VERB", limit=50)
    assert len(only_verbs) == 50
    assert all(benchmarks.get_row("coinco", "dev", rid)["pos"] == "VERB" for _, rid in only_verbs)
    header, context_html, substitutes = show_example("swords test", choices[0][1])
    assert '<mark class="swords-target"' in context_html and "width:" in substitutes
    hostile = {"context": "<script>alert(1)</script> x & y", "offset": 26, "target": "x"}
    marked = render.context_html(hostile["context"], hostile["offset"], 1)
    assert "<script>" not in marked and "&lt;script&gt;" in marked and ">x</mark>" in marked
    with pytest.raises(SpaceError, match="Unknown benchmark 'swords train'; choose one of swords dev"):
        search_examples("swords train")
    with pytest.raises(SpaceError, match="No example"):
        show_example("swords test", "t:nope")


def test_a_context_flows_its_wrapped_lines_and_keeps_its_paragraphs(swords_test):
    """Issue 50: the source's line breaks where it wrapped its lines are spaces on the page (kept, they left the
    context ragged); a blank line, or a break before an indented line of dialogue, starts a new line."""
    wrapped = next(row for row in swords_test if row["context"].startswith("His silken fur, which would be tawny"))
    assert wrapped["context"].count("\n") == 5  # the source wrapped it in six lines: one paragraph
    shown = render.context_html(wrapped["context"], wrapped["offset"], len(wrapped["target"]))
    assert "<br>" not in shown and "striped with jet black bands" in shown
    assert ">brilliant</mark> golden yellow color" in shown
    paragraphs = 'One line\nwrapped.  \n\nA new one.\n     "Said," she said.\nEnd'
    marked = render.context_html(paragraphs, paragraphs.index("new"), 3)
    body = marked.split(">", 1)[1].rsplit("</div>", 1)[0]
    assert re.sub(r"<mark[^>]*>(.*?)</mark>", r"\1", body) == (
        "One line wrapped.<br>A new one.<br>&quot;Said,&quot; she said. End"
    )


def test_prolex_and_tsar2022_are_offered_and_a_pos_filter_says_they_have_none():
    assert {"prolex dev", "prolex test", "tsar2022_en trial", "tsar2022_es test", "tsar2022_pt test"} <= set(
        benchmarks.split_choices()
    )
    choices, message = search_examples("tsar2022_pt test", "", "NOUN")
    assert len(choices) == 200 and message == (
        "374 examples in tsar2022_pt test, showing the first 200. tsar2022_pt "
        "gives no part of speech: every POS is shown."
    )
    assert choices[0][0].startswith(f"{benchmarks.get_row('tsar2022_pt', 'test', choices[0][1])['target']} — …")
    with pytest.raises(SpaceError, match="^Unknown benchmark 'tsar2022_fr test'; choose one of swords dev"):
        search_examples("tsar2022_fr test")


def test_a_prolex_example_shows_the_experts_judgements_cefr_levels_and_what_it_lacks():
    """prolex:test:0001 against the first line of ProLex's raw test file: acc_subs appealing, delightful,
    enchanting, captivating (all proficiency-oriented, CEFR [4, 3, 5, 4] = C1, B2, C2, C1), unacc_subs enticing,
    t_words_cefr 2 (B1)."""
    raw = next(csv.DictReader(need(PROLEX_DATA / "ProLex_v1.0_test.csv").open(encoding="utf-8")))
    header, context, substitutes = show_example("prolex test", "prolex:test:0001")
    assert "target <b>charming</b> (no POS, no lemma: the benchmark gives none) · target CEFR <b>B1</b>" in header
    assert raw["t_words_cefr"] == "2" and "License: Apache-2.0" in header
    assert '<mark class="swords-target"' in context
    shown = re.findall(r'<div data-labels="([^"]+)".*?tabular-nums">([^<]*)</span></div>', substitutes)
    acceptable, levels = ast.literal_eval(raw["prof_acc_subs"]), ast.literal_eval(raw["prof_acc_cefr"])
    names = dict(zip(acceptable, levels, strict=True))
    assert len(shown) == 5 and shown[-1] == ("unacceptable", "")  # enticing: judged unacceptable, no level
    for word, (labels, level) in zip(
        re.findall(r'overflow-wrap:anywhere">([^<]+)</span>', substitutes), shown, strict=True
    ):
        if word in names:
            assert labels == "acceptable proficiency_acceptable"
            assert level == f"CEFR {['A1', 'A2', 'B1', 'B2', 'C1', 'C2'][names[word]]}"
    assert "no graded score" in substitutes and "4 acceptable, 1 not (of 5)" in substitutes


def test_a_tsar_example_shows_its_annotator_counts_and_its_non_commercial_license():
    """Every Spanish trial example against the raw gold file: each substitute's count over the line's annotators,
    the most frequent starred."""
    for (_, word, given), row in zip(
        tsar_gold_lines("es", "trial"), benchmarks.load_rows("tsar2022_es", "trial"), strict=True
    ):
        header, _, substitutes = show_example("tsar2022_es trial", row["id"])
        assert f"target <b>{html.escape(word)}</b> (no POS, no lemma" in header
        assert "CC-BY-NC-SA-4.0 (non-commercial" in header
        shown = re.findall(r'overflow-wrap:anywhere">(★ )?([^<]+)</span>.*?>(\d+) of (\d+) annotators<', substitutes)
        counts = Counter(given)
        assert sorted((html.unescape(text), int(n)) for _, text, n, _ in shown) == sorted(counts.items())
        assert {int(total) for *_, total in shown} == {len(given)}
        top = max(counts.values())
        assert {html.unescape(text) for star, text, *_ in shown if star} == {w for w, n in counts.items() if n == top}


def test_a_prolex_or_tsar_example_reaches_the_substitute_tab_as_free_text_saying_why():
    context, target, occurrence, pos, key, status = example_inputs("tsar2022_es test", "tsar2022_es:test:0001")
    assert (target, occurrence, pos, key) == (
        benchmarks.get_row("tsar2022_es", "test", "tsar2022_es:test:0001")["target"],
        1,
        free_text.AUTO_POS,
        None,
    )
    note = free_text_note("tsar2022_es test")
    assert note.startswith("tsar2022_es is scored with its own official metrics") and "systems here are English" in note
    assert "English" not in free_text_note("prolex test") and free_text_note("swords test") is None


def test_gold_bars_are_coloured_by_the_metrics_classes(swords_test):
    """Each gold substitute's bar carries its class as the metric counts it (scoring.gold_labels, measured
    against scoring itself in test_space_labels.py), in the row's order of scores."""
    for row in swords_test[:50]:
        _, _, html = show_example("swords test", row["id"])
        shown = re.findall(r'<div data-judgement="([^"]+)"', html)
        labels = scoring.gold_labels(row, "swords", "test")
        by_score = [
            label
            for _, label in sorted(zip(row["substitutes"], labels, strict=True), key=lambda pair: -pair[0]["score"])
        ]
        assert shown == by_score and set(shown) <= set(CLASSES)
        for label in set(shown):
            assert f"background:{render.BAR_COLOURS[label]}" in html


def test_a_gold_form_the_metric_merged_is_marked_and_explained_beside_a_legend(swords_test):
    """SWORDS test's "press": "medium" (0 of 3 annotators) is counted acceptable, merged with "media" (7 of 10);
    its colour is that class, so the page says why, and shows what each colour means."""
    row = next(r for r in swords_test if r["id"] == "t:288b94f02f153614ee0dc6474368f2e15ddff00c")
    shown = render.substitutes_html(row, scoring.gold_labels(row, "swords", "test"))
    medium = re.search(r'<div data-judgement="(\w+)"[^>]*>.{0,400}?>medium</span>.*?</div>', shown, re.S)
    assert medium and medium.group(1) == "acceptable" and "0.00 (0/3)" in medium.group(0)
    assert "· merged" in medium.group(0) and shown.count("· merged") == 1  # the only form counted in another class
    assert "merged: medium takes the class of another form of the same lemma" in shown
    assert all(html.escape(words) in shown for _, _, words in render.JUDGEMENTS.values())  # the legend
