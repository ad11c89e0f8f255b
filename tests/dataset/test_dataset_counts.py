"""The built benchmarks' counts against the SWORDS paper (Lee et al. 2021), Table 2: SWORDS, CoInCo (with its one
extra substitute, a case variant) and SemEval-2007; and `swords data verify`'s checks, no mismatch unexplained."""

from __future__ import annotations

from collections import Counter

from swords_dataset.stats import EXPLAINED_DEVIATIONS, check_published, compute_all, split_statistics


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
