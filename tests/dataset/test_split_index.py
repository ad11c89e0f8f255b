"""The shipped splits held compactly for look-ups (swords_dataset.split_index), against the rows as swords_dataset.rows
reads them: a row by id, search by target or lemma, and every benchmark example found again from its own context,
offset and target (a pasted context), SWORDS before CoInCo."""

from __future__ import annotations

import threading

import pytest

import swords_dataset
from swords_dataset import split_index


@pytest.fixture(scope="module")
def swords_test() -> list[dict]:
    return swords_dataset.rows("swords", "test")


def test_rows_by_id_are_the_splits_own(swords_test):
    assert split_index.load_rows("swords", "test") == swords_test
    for row in swords_test[:: len(swords_test) // 7]:
        assert split_index.get_row("swords", "test", row["id"]) == row
    assert split_index.get_row("swords", "test", "t:0") is None
    prefix = swords_test[0]["id"][:10]
    assert split_index.ids_starting("swords", "test", prefix) == [swords_test[0]["id"]]
    with pytest.raises(swords_dataset.SwordsError, match="config 'swords' has no split 'tset'"):
        split_index.get_row("swords", "tset", "t:0")


def test_search_finds_a_target_or_lemma_prefix_exact_matches_first(swords_test):
    rows, total = split_index.search("swords", "test", "Star", limit=3, columns=["id", "target", "pos"])
    expected = [
        r for r in swords_test if r["target"].lower().startswith("star") or r["target_lemma"].startswith("star")
    ]
    assert total == len(expected) > 0 and len(rows) == min(3, total) and set(rows[0]) == {"id", "target", "pos"}
    exact = [r["id"] for r in expected if "star" in (r["target"].lower(), r["target_lemma"])]
    assert [r["id"] for r in rows[: len(exact)]] == exact[: len(rows)]  # "stars" (lemma star) before "stared"
    assert total == 3 and [r["target"] for r in rows][0] == "stars"
    verbs, total_verbs = split_index.search("swords", "test", "", pos="VERB", limit=10_000)
    assert total_verbs == sum(r["pos"] == "VERB" for r in swords_test) == len(verbs)


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_every_example_is_found_again_from_its_context_swords_before_coinco(swords_test):
    for row in swords_test[:50]:
        config, split, found = split_index.find_example(row["context"], row["offset"], row["target"])
        assert (config, split, found) == ("swords", "test", row)  # SWORDS first, though CoInCo has the context too
        padded = split_index.find_example(f"  {row['context']}\n", row["offset"] + 2, row["target"])
        assert padded == ("swords", "test", row)  # a paste that gained whitespace at its ends
    coinco = swords_dataset.rows("coinco", "test")[3]
    found = split_index.find_example(coinco["context"], coinco["offset"], coinco["target"])
    assert found is not None and found[2]["context"] == coinco["context"] and found[2]["target"] == coinco["target"]
    assert split_index.find_example("Free text, in no benchmark.", 0, "Free") is None


def test_threads_asking_at_once_share_one_read():
    split_index._read.cache_clear()
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(split_index._split_data("coinco", "dev"))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == 4 and all(result is results[0] for result in results)
