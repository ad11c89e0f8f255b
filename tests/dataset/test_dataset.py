"""The built benchmarks: schema, offsets, counts against the SWORDS paper, and fidelity to the sources."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter

import pytest

import swords_dataset
from swords_dataset.schema import FEATURES, UD_POS
from swords_dataset.stats import EXPLAINED_DEVIATIONS, check_published, compute_all, split_statistics

# The benchmarks the upstream SWORDS library builds (POS, lemmas, its ids); ProLex and TSAR-2022:
# test_prolex_tsar2022.py.
UPSTREAM_CONFIGS = ("swords", "swords_test_subset", "swords_reannotated", "coinco", "semeval07")
UPSTREAM_SPLITS = [(c, s) for c in UPSTREAM_CONFIGS for s in swords_dataset.CONFIGS[c]]


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


# --- Counts: SWORDS paper (Lee et al. 2021), Table 2 --------------------------------------------------


def test_swords_counts_match_table_2(dataset_rows):
    dev = split_statistics(dataset_rows[("swords", "dev")])
    test = split_statistics(dataset_rows[("swords", "test")])
    both = split_statistics(dataset_rows[("swords", "dev")] + dataset_rows[("swords", "test")])
    assert (dev["targets"], dev["substitutes"], dev["labels"]) == (370, 22978, 121938)
    assert (test["targets"], test["substitutes"], test["labels"]) == (762, 45705, 253917)
    assert [round(dev[k], 1) for k in ("substitutes/target", "inconceivable/target", "conceivable/target")] == [
        62.1,
        41.6,
        20.5,
    ]
    assert [round(test[k], 1) for k in ("substitutes/target", "inconceivable/target", "conceivable/target")] == [
        60.0,
        38.1,
        21.9,
    ]
    assert round(both["substitutes/target"], 1) == 60.7 and round(both["conceivable/target"], 1) == 21.4


def test_coinco_counts_match_table_2(dataset_rows):
    dev = split_statistics(dataset_rows[("coinco", "dev")])
    test = split_statistics(dataset_rows[("coinco", "test")])
    assert (dev["contexts"], dev["targets"], dev["substitutes"], dev["labels"]) == (1577, 10179, 67814, 98950)
    # Table 2: 44,928 substitutes; the source has one more, 'TV' beside 'tv' (see the next test).
    assert (test["contexts"], test["targets"], test["substitutes"], test["labels"]) == (897, 5450, 44929, 68496)


def test_the_one_extra_coinco_substitute_is_a_case_variant(dataset_rows):
    rows = dataset_rows[("coinco", "test")]
    case_duplicates = [
        (row["id"], word)
        for row in rows
        for word, n in Counter(s["substitute"].lower() for s in row["substitutes"]).items()
        if n > 1
    ]
    assert case_duplicates == [("coinco:12648", "tv")]


def test_semeval07_counts_match_table_2(dataset_rows):
    trial, test = dataset_rows[("semeval07", "trial")], dataset_rows[("semeval07", "test")]
    both = split_statistics(trial + test)
    assert (len(trial), len(test)) == (300, 1710)
    assert (both["targets"], both["substitutes"], both["labels"], both["target words"]) == (2010, 8025, 12300, 201)


def test_verify_reports_no_unexplained_mismatch(dataset_rows):
    checks = check_published(compute_all(lambda config, split: dataset_rows[(config, split)]))
    assert [c.line() for c in checks if c.status == "MISMATCH"] == []
    explained = {(c.config, c.split, c.statistic) for c in checks if c.status == "explained"}
    assert explained == set(EXPLAINED_DEVIATIONS)


# --- Fidelity to the upstream releases ---------------------------------------------------------------

UPSTREAM_SWORDS = {
    ("swords", "dev"): "swords/swords-v1.1_dev.json.gz",
    ("swords", "test"): "swords/swords-v1.1_test.json.gz",
    ("swords_test_subset", "test"): "swords/swords-v1.1_test-subset.json.gz",
    ("swords_reannotated", "test"): "swords/swords-v1.1_test-subset_reannotated.json.gz",
}


@pytest.mark.parametrize(("config", "split"), list(UPSTREAM_SWORDS))
def test_every_upstream_swords_target_is_present_with_identical_substitutes_and_labels(
    dataset_rows, sources_dir, config, split
):
    with gzip.open(sources_dir / UPSTREAM_SWORDS[(config, split)], "rt") as f:
        upstream = json.load(f)
    expected = {tid: {} for tid in upstream["targets"]}
    for sid, substitute in upstream["substitutes"].items():
        expected[substitute["target_id"]][substitute["substitute"]] = upstream["substitute_labels"][sid]
    rows = {row["id"]: row for row in dataset_rows[(config, split)]}
    assert set(rows) == set(upstream["targets"])
    for tid, target in upstream["targets"].items():
        row = rows[tid]
        assert (row["target"], row["offset"], row["pos"], row["context_id"]) == (
            target["target"],
            target["offset"],
            target["pos"],
            target["context_id"],
        )
        assert row["context"] == upstream["contexts"][target["context_id"]]["context"]
        assert {s["substitute"]: s["labels"] for s in row["substitutes"]} == expected[tid]


UPSTREAM_PARSED = {
    ("coinco", "test"): "upstream-swords/parsed/coinco_test.json.gz",
    ("semeval07", "test"): "upstream-swords/parsed/semeval07_test.json.gz",
}


@pytest.mark.parametrize(("config", "split"), list(UPSTREAM_PARSED))
def test_every_target_of_upstreams_parsed_test_sets_has_its_upstream_id(dataset_rows, sources_dir, config, split):
    with gzip.open(sources_dir / UPSTREAM_PARSED[(config, split)], "rt") as f:
        upstream = json.load(f)
    rows = dataset_rows[(config, split)]
    scored_by_upstream = {row["upstream_id"] for row in rows if not row["provenance"]["coinco_problematic"]}
    assert scored_by_upstream == set(upstream["targets"])
    assert len({row["upstream_id"] for row in rows}) == len(rows)  # the problematic ones are distinct too
    by_upstream_id = {row["upstream_id"]: row for row in rows}
    for tid, target in upstream["targets"].items():
        row = by_upstream_id[tid]
        assert (row["target"].lower(), row["pos"]) == (target["target"].lower(), target["pos"])
        if config == "coinco":
            assert row["context"] == upstream["contexts"][target["context_id"]]["context"]
            assert row["offset"] == target["offset"]


def _upstream_targets(config, split, rows, sources_dir, nltk35_path):
    from swords_dataset.builder.readers.semeval07 import semeval_instance_texts
    from swords_dataset.builder.sources import SEMEVAL_UPSTREAM_ASSET
    from swords_dataset.builder.upstream_ids import (
        UpstreamTarget,
        nltk35_detokenizer,
        semeval_placements_by_recipe,
        semeval_placements_from_asset,
        upstream_targets,
    )

    if config != "semeval07":
        return upstream_targets(rows)
    if split == "test":
        placements = semeval_placements_from_asset(sources_dir / SEMEVAL_UPSTREAM_ASSET)
    else:
        raw = semeval_instance_texts(sources_dir / "semeval07/lst_all.xml")
        wanted = {row["provenance"]["semeval_instance"]: raw[row["provenance"]["semeval_instance"]] for row in rows}
        placements = semeval_placements_by_recipe(wanted, nltk35_detokenizer(nltk35_path))
    return [UpstreamTarget(*placements[row["provenance"]["semeval_instance"]], row["pos"]) for row in rows]


@pytest.mark.parametrize(("config", "split"), UPSTREAM_SPLITS)
@pytest.mark.slow  # 24 s on two cores
def test_every_split_reproduces_the_dataset_id_upstream_pins_and_ships_those_ids(
    dataset_rows, sources_dir, nltk35_path, config, split
):
    """Upstream's swords/datasets.py pins a hash of every context, target, substitute and label id of each
    benchmark it builds: our rows, placed as upstream places them, give the same hash, and the shipped
    `upstream_id` column holds exactly those target ids. CoInCo dev and SemEval trial, which upstream
    does not ship parsed, are covered by this alone."""
    from swords_dataset.builder.upstream_ids import PINNED_DATASET_IDS, UpstreamIdError, check_dataset_ids

    rows = dataset_rows[(config, split)]
    targets = _upstream_targets(config, split, rows, sources_dir, nltk35_path)
    check_dataset_ids(config, split, rows, targets)
    assert [row["upstream_id"] for row in rows] == [target.id for target in targets]
    # The check can fail: one label more, or one target placed one character off, changes the hash.
    tampered = [dict(row) for row in rows]
    tampered[0]["substitutes"] = [{**tampered[0]["substitutes"][0], "votes_positive": 99, "labels": ["TRUE"] * 99}]
    with pytest.raises(UpstreamIdError, match=PINNED_DATASET_IDS[(config, split)]):
        check_dataset_ids(config, split, tampered, targets)
    moved = [targets[0].__class__(targets[0].context, targets[0].target, targets[0].offset + 1, targets[0].pos)]
    with pytest.raises(UpstreamIdError):
        check_dataset_ids(config, split, rows, moved + list(targets[1:]))


def test_upstream_ids_are_the_upstream_librarys(sources_dir):
    """Our id functions against the upstream library's own, on strings that stress JSON escaping."""
    import importlib
    import sys
    import types

    from swords_dataset.builder import upstream_ids as ours

    library = sources_dir / "upstream-swords"
    stubs = {name: types.ModuleType(name) for name in ("swords.datasets", "swords.run")}
    saved = {name: sys.modules.get(name) for name in ("swords", *stubs)}
    sys.path.insert(0, str(library))
    sys.modules.update(stubs)
    try:
        sys.modules.pop("swords", None)
        swords = importlib.import_module("swords")
        for context, target, offset, pos, substitute in [
            ('Café «naïve» "quoted" \\ tab\t😀', "naïve", 6, "ADJ", "Ingénu"),
            ("A plain one.", "plain", 2, "ADJ", "SIMPLE"),
            ("x\u2028y", "x", 0, "NOUN", "drawn-out"),
        ]:
            cid = swords.LexSubDataset.context_id({"context": context})
            tid = swords.LexSubDataset.target_id(
                {"context_id": cid, "target": target, "offset": offset, "pos": swords.Pos[pos]}
            )
            sid = swords.LexSubDataset.substitute_id({"target_id": tid, "substitute": substitute})
            assert (ours.context_id(context), ours.target_id(context, target, offset, pos)) == (cid, tid)
            assert ours.substitute_id(tid, substitute) == sid
    finally:
        sys.path.remove(str(library))
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


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
