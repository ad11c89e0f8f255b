"""The built benchmarks' rows: the shared schema, offsets that point at the target, substitutes sorted by score
and among the candidates, and what the sources say (SWORDS' re-annotated subset, SWORDS targets' CoInCo tokens,
CoInCo split by document with its problematic flag, SemEval-2007's text repaired and detokenized); an unknown
config or split is a clear error."""

from __future__ import annotations

import re
from collections import Counter

import pytest

import swords_dataset
from swords_dataset.schema import FEATURES, UD_POS

from .conftest import UPSTREAM_SPLITS


def test_every_config_and_split_loads_with_the_shared_schema():
    dataset = swords_dataset.load("coinco", split="test")
    assert dataset.features == FEATURES
    assert dataset.num_rows == 5450


@pytest.mark.parametrize(("config", "split"), UPSTREAM_SPLITS)
@pytest.mark.slow  # 8 s on two cores
def test_schema_and_offsets_on_every_row(dataset_rows, config, split):
    rows = dataset_rows[(config, split)]
    assert rows, "empty split"
    assert len({row["id"] for row in rows}) == len(rows), "ids must be unique"
    for row in rows:
        assert set(row) == set(FEATURES)
        start = row["offset"]
        assert row["context"][start : start + len(row["target"])] == row["target"], row["id"]
        assert row["pos"] in UD_POS, row["id"]
        assert row["target_lemma"], row["id"]
        scores = [s["score"] for s in row["substitutes"]]
        assert scores == sorted(scores, reverse=True), f"{row['id']}: substitutes not sorted by score"
        assert row["candidates"] == sorted(set(row["candidates"]), key=lambda w: (w.lower(), w))
        assert {s["substitute"] for s in row["substitutes"]} <= set(row["candidates"]), row["id"]
        for substitute in row["substitutes"]:
            assert substitute["substitute"] == substitute["substitute"].strip() != ""
            assert 0 <= substitute["votes_positive"] <= substitute["votes_total"]
            if substitute["labels"]:  # SWORDS: the score is the share of TRUE among all judgements
                assert substitute["votes_total"] == len(substitute["labels"])
                assert substitute["votes_positive"] == substitute["labels"].count("TRUE")
                assert substitute["score"] == substitute["labels"].count("TRUE") / len(substitute["labels"])
            else:  # CoInCo / SemEval: the number of annotators who produced it
                assert substitute["score"] == substitute["votes_positive"] == substitute["votes_total"] >= 1


def test_swords_candidates_are_exactly_the_labelled_substitutes(dataset_rows):
    for split in ("dev", "test"):
        for row in dataset_rows[("swords", split)]:
            assert sorted(row["candidates"]) == sorted(s["substitute"] for s in row["substitutes"])


def test_swords_reannotated_covers_the_same_targets_as_the_subset(dataset_rows):
    first = {row["id"] for row in dataset_rows[("swords_test_subset", "test")]}
    second = {row["id"] for row in dataset_rows[("swords_reannotated", "test")]}
    test = {row["id"] for row in dataset_rows[("swords", "test")]}
    assert first == second and len(first) == 89 and first <= test


def test_swords_targets_point_at_their_coinco_tokens(dataset_rows):
    """SWORDS targets were drawn from CoInCo: each one's CoInCo token is in the same CoInCo split."""
    for split in ("dev", "test"):
        coinco = {row["id"]: row for row in dataset_rows[("coinco", split)]}
        for row in dataset_rows[("swords", split)]:
            for token_id in row["provenance"]["coinco_token_ids"]:
                assert coinco[f"coinco:{token_id}"]["target"].lower() == row["target"].lower()


def test_coinco_split_is_by_document(dataset_rows):
    documents = {
        split: {m.split(":")[0] for row in dataset_rows[("coinco", split)] for m in row["provenance"]["masc_sentences"]}
        for split in ("dev", "test")
    }
    assert not documents["dev"] & documents["test"]
    assert "A1.E2-NEW.txt" in documents["dev"]  # in neither SWORDS split: dev by rule
    assert len(documents["dev"]) + len(documents["test"]) == 55


def test_coinco_problematic_flag_is_kept(dataset_rows):
    flags = Counter(
        row["provenance"]["coinco_problematic"] for s in ("dev", "test") for row in dataset_rows[("coinco", s)]
    )
    assert flags == {False: 15415, True: 214}


def test_semeval07_text_is_repaired_and_detokenized(dataset_rows):
    rows = dataset_rows[("semeval07", "trial")] + dataset_rows[("semeval07", "test")]
    for row in rows:
        assert not re.search(r"&(apos|quot|amp|gt|lt|#\d+);?|Â|Ã|¡|[\x80-\x9f]|\ufffd|<head>", row["context"]), row[
            "id"
        ]
        assert " ," not in row["context"] and " ." not in row["context"][-3:], row["id"]
    by_id = {row["id"]: row for row in rows}
    # lst_test.gold line 'yard.n 801 :: garden 2;lot 1;garden  1;...': the two 'garden's are one substitute.
    assert {s["substitute"]: s["score"] for s in by_id["semeval07:801"]["substitutes"]}["garden"] == 3
    assert by_id["semeval07:1"]["context"].startswith("During the siege, George Robertson had appointed")
    assert by_id["semeval07:48"]["pos"] == "VERB" and by_id["semeval07:48"]["target_lemma"] == "bar"
    no_gold = sorted(int(row["id"].split(":")[1]) for row in rows if not row["substitutes"])
    assert no_gold == [567, 773, 794, 804, 1298, 1886, 1937]


def test_unknown_config_or_split_is_a_clear_error():
    with pytest.raises(swords_dataset.SwordsError, match="unknown config 'swordz'"):
        swords_dataset.load("swordz")
    with pytest.raises(swords_dataset.SwordsError, match="has no split 'validation'"):
        swords_dataset.load("swords", split="validation")
