"""The golden cases of the Space, its handlers called directly (no browser): the Score tab's on_score for every
family, with and without a second file and judgments (each of its outputs: the summary, every table, the charts'
data, the signature, which blocks show), its page's form of them (on_score_page: the published table's widths, a
file it cannot score), the note under the published rows; the Leaderboard tab's board of every benchmark split it
offers (the table as shown, its note, the chart, the column widths)."""

from __future__ import annotations

# on_score's outputs, in order (space/tabs/score_result.py `scored`).
SCORE_OUTPUTS = (
    "summary",
    "metrics",
    "by POS",
    "curve (shown setting)",
    "published beside",
    "signature",
    "classes chart",
    "relations chart",
    "worst targets",
    "comparison",
    "differences chart",
    "differences",
    "curve (every setting)",
    "split of the tables' targets",
    "comparison block",
    "extended block",
    "extended summary",
    "extended table",
    "extended signature",
    "charts block",
    "proposed block",
    "by POS block",
    "differences chart block",
)
PAGE_OUTPUTS = (*SCORE_OUTPUTS, "status")

JUDGED = ("{judged}/tasks.jsonl", "{judged}/a.judgments.jsonl", "{judged}/b.judgments.jsonl")

# name -> on_score's arguments: upload (a test-made file, by its name in the inputs' folder, or `{judged}/NAME`),
# stored (a stored baseline's file name), split, setting, bootstrap, curve_setting, include_problematic,
# compare_upload, compare_stored, judgments.
SCORE = {
    "swords-test.noisy": {"upload": "noisy.swords.test.jsonl", "bootstrap": 0},
    "swords-test-subset.noisy.bootstrap-200.strict-curve": {
        "upload": "noisy.swords_test_subset.test.jsonl",
        "split": "swords_test_subset test",
        "bootstrap": 200,
        "curve_setting": "strict",
    },
    "swords-test-subset.noisy.ranking": {
        "upload": "noisy.swords_test_subset.test.jsonl",
        "split": "swords_test_subset test",
        "bootstrap": 0,
        "setting": "ranking",
    },
    "swords-test-subset.few.compare-noisy": {
        "upload": "few.swords_test_subset.test.jsonl",
        "split": "swords_test_subset test",
        "bootstrap": 0,
        "compare_upload": "noisy.swords_test_subset.test.jsonl",
    },
    "swords-test.noisy.compare-gold": {
        "upload": "noisy.swords.test.jsonl",
        "bootstrap": 0,
        "compare_upload": "gold.swords.test.jsonl",
    },
    "swords-test.stored-coinco-oracle.compare-cut": {
        "stored": "coinco-oracle.swords.test.jsonl",
        "bootstrap": 0,
        "compare_upload": "cut.swords.test.jsonl",
    },
    "swords-test.judgments": {"upload": "{judged}/wordnet.swords.test.json", "bootstrap": 0, "judgments": JUDGED},
    "swords-test-subset.stored-humans.compare-stored": {
        "stored": "humans.swords_test_subset.test.jsonl",
        "split": "swords_test_subset test",
        "bootstrap": 100,
        "compare_stored": "humans.swords_test_subset.test.jsonl",
    },
    "swords-reannotated.noisy": {"upload": "noisy.swords_reannotated.test.jsonl", "split": "swords_reannotated test"},
    "swords-dev.cut": {"upload": "cut.swords.dev.jsonl", "split": "swords dev", "bootstrap": 0},
    "semeval07-test.noisy": {"upload": "noisy.semeval07.test.jsonl", "split": "semeval07 test", "bootstrap": 0},
    "semeval07-trial.gold.ranking": {
        "upload": "gold.semeval07.trial.jsonl",
        "split": "semeval07 trial",
        "bootstrap": 0,
        "setting": "ranking",
    },
    "coinco-test.cut": {"upload": "cut.coinco.test.jsonl", "split": "coinco test", "bootstrap": 0},
    "coinco-test.noisy.include-problematic": {
        "upload": "noisy.coinco.test.jsonl",
        "split": "coinco test",
        "bootstrap": 0,
        "include_problematic": True,
    },
    "tsar2022-en-test.gold-tsv": {"upload": "gold.tsar2022_en.test.tsv", "split": "tsar2022_en test", "bootstrap": 200},
    "tsar2022-en-test.noisy-jsonl.compare-gold-tsv": {
        "upload": "noisy.tsar2022_en.test.jsonl",
        "split": "tsar2022_en test",
        "bootstrap": 0,
        "compare_upload": "gold.tsar2022_en.test.tsv",
    },
    "tsar2022-en-test.cut-jsonl.problematic-box": {
        "upload": "cut.tsar2022_en.test.jsonl",
        "split": "tsar2022_en test",
        "bootstrap": 0,
        "include_problematic": True,
    },
    "tsar2022-es-test.noisy-tsv": {"upload": "noisy.tsar2022_es.test.tsv", "split": "tsar2022_es test", "bootstrap": 0},
    "tsar2022-pt-test.noisy-tsv": {"upload": "noisy.tsar2022_pt.test.tsv", "split": "tsar2022_pt test", "bootstrap": 0},
    "tsar2022-en-trial.gold-tsv": {
        "upload": "gold.tsar2022_en.trial.tsv",
        "split": "tsar2022_en trial",
        "bootstrap": 0,
    },
    "prolex-test.gold-csv": {"upload": "gold.prolex.test.csv", "split": "prolex test", "bootstrap": 200},
    "prolex-test.noisy-jsonl.compare-gold-csv": {
        "upload": "noisy.prolex.test.jsonl",
        "split": "prolex test",
        "bootstrap": 0,
        "compare_upload": "gold.prolex.test.csv",
    },
    "prolex-dev.gold-csv": {"upload": "gold.prolex.dev.csv", "split": "prolex dev", "bootstrap": 0},
    # What it refuses: a message each (the page shows it below the Score button).
    "refused.no-file": {"bootstrap": 0},
    "refused.tsar-ranking": {"upload": "noisy.tsar2022_en.test.tsv", "split": "tsar2022_en test", "setting": "ranking"},
    "refused.other-split": {"upload": "coinco-oracle.swords.test.jsonl", "split": "swords dev", "bootstrap": 0},
    "refused.bad-json": {"upload": "bad-json.jsonl", "bootstrap": 0},
    "refused.empty": {"upload": "empty.jsonl", "bootstrap": 0},
    "refused.tsar-wrong-order": {"upload": "wrong-order.tsv", "split": "tsar2022_en test", "bootstrap": 0},
    "refused.prolex-bad-csv": {"upload": "bad.csv", "split": "prolex test", "bootstrap": 0},
    "refused.joined-split": {"upload": "gold.semeval07.trial.jsonl", "split": "semeval07 trial+test", "bootstrap": 0},
    "refused.judgments-coinco": {
        "upload": "cut.coinco.test.jsonl",
        "split": "coinco test",
        "bootstrap": 0,
        "judgments": JUDGED,
    },
    "refused.judgments-tsar": {  # refused before the judgments are read: any file stands for them
        "upload": "noisy.tsar2022_en.test.tsv",
        "split": "tsar2022_en test",
        "bootstrap": 0,
        "judgments": ("gold.swords.test.jsonl",),
    },
    "refused.judgments-not-a-tasks-file": {
        "upload": "noisy.swords.test.jsonl",
        "bootstrap": 0,
        "judgments": ("noisy.swords.test.jsonl",),
    },
    "refused.compare-other-split": {
        "upload": "noisy.swords.test.jsonl",
        "bootstrap": 0,
        "compare_upload": "noisy.swords.dev.jsonl",
    },
}
# The page's own event (on_score_page): its fitted outputs, or a file it cannot score emptied with a message.
PAGE = {
    "page.swords-test-subset.noisy": {
        "upload": "noisy.swords_test_subset.test.jsonl",
        "split": "swords_test_subset test",
        "bootstrap": 0,
    },
    "page.tsar2022-en-test.noisy-tsv.compare": {
        "upload": "noisy.tsar2022_en.test.tsv",
        "split": "tsar2022_en test",
        "bootstrap": 0,
        "compare_upload": "gold.tsar2022_en.test.tsv",
    },
    "page.refused.bad-json": {"upload": "bad-json.jsonl", "bootstrap": 0},
}
SLOW = frozenset(  # 2 to 6 s each on two cores: CoInCo test's scorer, the judgments' extended gold
    {
        "coinco-test.cut",
        "coinco-test.noisy.include-problematic",
        "swords-test.judgments",
        "refused.judgments-coinco",
        "semeval07-test.noisy",
        "swords-test.noisy",
    }
)
