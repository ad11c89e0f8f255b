"""The golden cases of `swords evaluate`: a name and the command's arguments, run in the folder of the test-made
files (inputs.py); `{out}` is a fresh folder of the case's own, where a details file goes (what the command writes
there is recorded too). Every family, config and option the command offers, and each refusal (its line and exit
status); one of several commands run one after another (" ;; " between them) records each. The cases in SLOW
(about 1 s or more each on two cores: CoInCo test's, SWORDS test's judgments and its other variants) are marked
slow."""

from __future__ import annotations

# The SWORDS metrics. On SWORDS test, each way of giving a run (a file of every target, keyed by the dataset's ids
# or by upstream's, a partial one), --published, --compare, --judgments; every other option on the 89 targets of the
# SWORDS test subset (the same code, a tenth of the time).
N, G, C = "noisy.swords.test.jsonl", "gold.swords.test.jsonl", "cut.swords.test.jsonl"
SUB, NS, GS, CS = (
    "--dataset swords_test_subset",
    *(f"{name}.swords_test_subset.test.jsonl" for name in ("noisy", "gold", "cut")),
)
FEW = "few.swords_test_subset.test.jsonl"
B0 = "--bootstrap 0"
JUDGED = "{judged}/tasks.jsonl {judged}/a.judgments.jsonl {judged}/b.judgments.jsonl"
UNREAD = "tasks.jsonl a.judgments.jsonl"  # no such files: for the refusals that come before any file is read
WORDNET = "{judged}/wordnet.swords.test.json"
SWORDS_TEST = {
    "swords-test.noisy": f"--predictions {N} {B0}",
    "swords-test.noisy.json": f"--predictions {N} {B0} --json",
    "swords-test.noisy.default-bootstrap": f"--predictions {N}",
    "swords-test.noisy.published": f"--predictions {N} {B0} --published",
    "swords-test.noisy.published.json": f"--predictions {N} {B0} --published --json --no-analysis",
    "swords-test.coinco-oracle": f"--predictions coinco-oracle.swords.test.jsonl {B0}",
    "swords-test.cut": f"--predictions {C} {B0}",
    "swords-test.cut.given-only.published": f"--predictions {C} {B0} --given-only --published --no-analysis",
    "swords-test.compare": f"--compare {N} {G} --bootstrap 200 --seed 1",
    "swords-test.compare.json": f"--compare {N} {G} --bootstrap 200 --seed 1 --json",
}
SWORDS_TEST_SLOW = {  # 1 to 4 s each on two cores (the judgments' folder: 3 s, once)
    "swords-test.judgments": f"--predictions {WORDNET} {B0} --judgments {JUDGED}",
    "swords-test.noisy.relations": f"--predictions {N} {B0} --relations",
    "swords-test.compare.default-bootstrap": f"--compare {N} {G}",
    "swords-test.judgments.json": f"--predictions {WORDNET} {B0} --no-analysis --judgments {JUDGED} --json",
    "swords-test.judgments.bootstrap-200.json": (
        f"--predictions {WORDNET} --bootstrap 200 --seed 1 --no-analysis --judgments {JUDGED} --json"
    ),
    "swords-test.judgments.k-5.ranking": (
        f"--predictions {WORDNET} {B0} --k 5 --setting ranking --no-analysis --judgments {JUDGED}"
    ),
}
SWORDS_OPTIONS = {
    "swords-test-subset.noisy": f"{SUB} --predictions {NS} {B0}",
    "swords-test-subset.noisy.json": f"{SUB} --predictions {NS} {B0} --json",
    "swords-test-subset.noisy.default-bootstrap.json": f"{SUB} --predictions {NS} --json --no-analysis",
    "swords-test-subset.noisy.bootstrap-200-seed-1": f"{SUB} --predictions {NS} --bootstrap 200 --seed 1",
    "swords-test-subset.noisy.bootstrap-200-seed-1.json": f"{SUB} --predictions {NS} --bootstrap 200 --seed 1 --json",
    "swords-test-subset.noisy.no-analysis": f"{SUB} --predictions {NS} {B0} --no-analysis",
    "swords-test-subset.noisy.worst-2": f"{SUB} --predictions {NS} {B0} --worst 2",
    "swords-test-subset.noisy.worst-0.json": f"{SUB} --predictions {NS} {B0} --worst 0 --json",
    "swords-test-subset.noisy.relations": f"{SUB} --predictions {NS} {B0} --relations",
    "swords-test-subset.noisy.relations.json": f"{SUB} --predictions {NS} {B0} --relations --json",
    "swords-test-subset.noisy.published": f"{SUB} --predictions {NS} {B0} --published --no-analysis",
    "swords-test-subset.noisy.ranking": f"{SUB} --predictions {NS} {B0} --setting ranking",
    "swords-test-subset.noisy.ranking.json": f"{SUB} --predictions {NS} {B0} --setting ranking --json",
    "swords-test-subset.noisy.ranking.k-5.bootstrap-200": (
        f"{SUB} --predictions {NS} --bootstrap 200 --setting ranking --k 5"
    ),
    "swords-test-subset.noisy.k-5": f"{SUB} --predictions {NS} {B0} --k 5",
    "swords-test-subset.noisy.k-5.json": f"{SUB} --predictions {NS} {B0} --k 5 --json",
    "swords-test-subset.noisy.k-20.worst-3": f"{SUB} --predictions {NS} {B0} --k 20 --worst 3",
    "swords-test-subset.cut": f"{SUB} --predictions {CS} {B0}",
    "swords-test-subset.cut.json": f"{SUB} --predictions {CS} {B0} --json --no-analysis",
    "swords-test-subset.cut.given-only": f"{SUB} --predictions {CS} {B0} --given-only",
    "swords-test-subset.cut.given-only.json": f"{SUB} --predictions {CS} {B0} --given-only --json",
    "swords-test-subset.humans": f"{SUB} --predictions humans.swords_test_subset.test.jsonl",
    "swords-test-subset.humans.published.json": (
        f"{SUB} --predictions humans.swords_test_subset.test.jsonl {B0} --published --json"
    ),
    "swords-test-subset.compare": f"{SUB} --compare {NS} {GS} --bootstrap 200 --seed 1",
    "swords-test-subset.compare.json": f"{SUB} --compare {NS} {GS} --bootstrap 300 --json",
    "swords-test-subset.compare.differences-3": f"{SUB} --compare {NS} {GS} --bootstrap 200 --differences 3",
    "swords-test-subset.compare.differences-0.json": (
        f"{SUB} --compare {NS} {GS} --bootstrap 200 --differences 0 --json"
    ),
    "swords-test-subset.compare.cut": f"{SUB} --compare {CS} {NS} --bootstrap 200 --seed 1",
    "swords-test-subset.compare.ranking.k-5": f"{SUB} --compare {NS} {GS} --bootstrap 200 --setting ranking --k 5",
    # Details files (every record of each target and substitute): of a few targets, --given-only; one of the 89.
    "swords-test-subset.few.details-jsonl": (
        f"{SUB} --predictions {FEW} {B0} --given-only --details {{out}}/details.jsonl"
    ),
    "swords-test-subset.few.details-csv": f"{SUB} --predictions {FEW} {B0} --given-only --details {{out}}/details.csv",
    "swords-test-subset.few.details-parquet": (
        f"{SUB} --predictions {FEW} {B0} --given-only --no-analysis --details {{out}}/details.parquet"
    ),
    "swords-test-subset.few.details-jsonl.json": (
        f"{SUB} --predictions {FEW} {B0} --json --given-only --details {{out}}/details.jsonl"
    ),
    "swords-test-subset.few.details-jsonl.every-target": (
        f"{SUB} --predictions {FEW} {B0} --no-analysis --details {{out}}/details.jsonl"
    ),
    "swords-test-subset.few.details-jsonl.replaced": (
        f"{SUB} --predictions {FEW} {B0} --given-only --no-analysis --details {{out}}/details.jsonl ;; {SUB} "
        f"--predictions {FEW} {B0} --given-only --no-analysis --k 3 --details {{out}}/details.jsonl"
    ),
    "swords-test-subset.few.details-csv.forced": (
        f"{SUB} --predictions {FEW} {B0} --given-only --no-analysis --details {{out}}/details.csv ;; {SUB} "
        f"--predictions {FEW} {B0} --given-only --no-analysis --details {{out}}/details.csv --force"
    ),
    "swords-test-subset.compare.details-jsonl": (
        f"{SUB} --compare {FEW} {NS} --bootstrap 200 --details {{out}}/compared.jsonl"
    ),
    "swords-test-subset.compare.details-csv": (
        f"{SUB} --compare {FEW} {NS} --bootstrap 200 --details {{out}}/compared.csv"
    ),
}

# The other benchmark splits the SWORDS metrics score.
OTHER_SWORDS_FAMILY = {
    "swords-dev.noisy": f"--split dev --predictions noisy.swords.dev.jsonl {B0}",
    "swords-dev.noisy.json": f"--split dev --predictions noisy.swords.dev.jsonl {B0} --json --no-analysis",
    "swords-reannotated.noisy": (
        f"--dataset swords_reannotated --predictions noisy.swords_reannotated.test.jsonl {B0} --published"
    ),
    "semeval07-trial.gold": f"--dataset semeval07 --split trial --predictions gold.semeval07.trial.jsonl {B0}",
    "semeval07-trial.gold.ranking.json": (
        f"--dataset semeval07 --split trial --predictions gold.semeval07.trial.jsonl {B0} --setting ranking --json"
    ),
}
OTHER_SWORDS_FAMILY_SLOW = {  # 1 to 2 s each on two cores: larger splits
    "swords-dev-test.noisy": f"--split dev+test --predictions noisy.swords.dev+test.jsonl {B0}",
    "semeval07-test.noisy": f"--dataset semeval07 --predictions noisy.semeval07.test.jsonl {B0}",
    "swords-dev-test.noisy.json": f"--split dev+test --predictions noisy.swords.dev+test.jsonl {B0} --json",
    "swords-dev-test.cut.published": f"--split dev+test --predictions cut.swords.dev+test.jsonl {B0} --published",
    "semeval07-test.noisy.json": f"--dataset semeval07 --predictions noisy.semeval07.test.jsonl {B0} --json",
    "semeval07-test.noisy.published": (
        f"--dataset semeval07 --predictions noisy.semeval07.test.jsonl {B0} --published --no-analysis"
    ),
    "semeval07-test.noisy.ranking": (
        f"--dataset semeval07 --predictions noisy.semeval07.test.jsonl {B0} --setting ranking --no-analysis"
    ),
    "semeval07-trial-test.gold.published": (
        "--dataset semeval07 --split trial+test --predictions gold.semeval07.test.jsonl --bootstrap 0 --published "
        "--no-analysis"
    ),
}
COINCO = {  # CoInCo test: 5,450 targets (its scorer alone takes 2 s to build); slow
    "coinco-test.noisy": f"--dataset coinco --predictions noisy.coinco.test.jsonl {B0}",
    "coinco-test.noisy.include-problematic.json": (
        f"--dataset coinco --predictions noisy.coinco.test.jsonl {B0} --include-problematic --json --published"
    ),
    "coinco-test.cut.include-problematic.published": (
        f"--dataset coinco --predictions cut.coinco.test.jsonl {B0} --include-problematic --published --no-analysis"
    ),
}

# TSAR-2022: its JSONL and its official .tsv, a partial .tsv, every option it takes.
TSAR = {}
for language in ("en", "es", "pt"):
    TSAR |= {
        f"tsar2022-{language}-test.gold-tsv": (
            f"--dataset tsar2022_{language} --predictions gold.tsar2022_{language}.test.tsv"
        ),
        f"tsar2022-{language}-test.noisy-jsonl.json": (
            f"--dataset tsar2022_{language} --predictions noisy.tsar2022_{language}.test.jsonl --json"
        ),
        f"tsar2022-{language}-test.noisy-tsv.published": (
            f"--dataset tsar2022_{language} --predictions noisy.tsar2022_{language}.test.tsv --published"
        ),
    }
EN = "--dataset tsar2022_en"
TSAR |= {
    "tsar2022-en-test.gold-jsonl": f"{EN} --predictions gold.tsar2022_en.test.jsonl",
    "tsar2022-en-test.noisy-tsv": f"{EN} --predictions noisy.tsar2022_en.test.tsv",
    "tsar2022-en-test.noisy-tsv.json": f"{EN} --predictions noisy.tsar2022_en.test.tsv --json",
    "tsar2022-en-test.noisy-tsv.published.json": f"{EN} --predictions noisy.tsar2022_en.test.tsv --published --json",
    "tsar2022-en-test.noisy-tsv.bootstrap-200-seed-1": (
        f"{EN} --predictions noisy.tsar2022_en.test.tsv --bootstrap 200 --seed 1"
    ),
    "tsar2022-en-test.noisy-tsv.bootstrap-200-seed-1.json": (
        f"{EN} --predictions noisy.tsar2022_en.test.tsv --bootstrap 200 --seed 1 --json"
    ),
    "tsar2022-en-test.noisy-tsv.k-10": f"{EN} --predictions noisy.tsar2022_en.test.tsv --k 10",
    "tsar2022-en-test.cut-tsv.given-only": f"{EN} --predictions cut.tsar2022_en.test.tsv --given-only",
    "tsar2022-en-test.cut-tsv.given-only.json": f"{EN} --predictions cut.tsar2022_en.test.tsv --given-only --json",
    "tsar2022-en-test.cut-tsv.given-only.published": (
        f"{EN} --predictions cut.tsar2022_en.test.tsv --given-only --published"
    ),
    "tsar2022-en-test.cut-jsonl": f"{EN} --predictions cut.tsar2022_en.test.jsonl",
    "tsar2022-en-test.cut-jsonl.given-only": f"{EN} --predictions cut.tsar2022_en.test.jsonl --given-only",
    "tsar2022-en-test.compare": (
        f"{EN} --compare noisy.tsar2022_en.test.tsv gold.tsar2022_en.test.tsv --bootstrap 200 --seed 1"
    ),
    "tsar2022-en-test.compare.json": (
        f"{EN} --compare noisy.tsar2022_en.test.tsv gold.tsar2022_en.test.jsonl --bootstrap 200 --seed 1 --json"
    ),
    "tsar2022-en-test.compare.default-bootstrap": (
        f"{EN} --compare noisy.tsar2022_en.test.jsonl gold.tsar2022_en.test.tsv"
    ),
    "tsar2022-en-test.compare.cut": (
        f"{EN} --compare cut.tsar2022_en.test.jsonl noisy.tsar2022_en.test.tsv --bootstrap 200"
    ),
    "tsar2022-en-trial.gold-tsv": f"{EN} --split trial --predictions gold.tsar2022_en.trial.tsv",
    "tsar2022-en-trial-test.gold-jsonl": (
        f"{EN} --split trial+test --predictions gold.tsar2022_en.test.jsonl --published"
    ),
}

# ProLex: its official .csv and JSONL.
PL = "--dataset prolex"
PROLEX = {
    "prolex-test.gold-csv": f"{PL} --predictions gold.prolex.test.csv",
    "prolex-test.gold-csv.json": f"{PL} --predictions gold.prolex.test.csv --json",
    "prolex-test.noisy-csv": f"{PL} --predictions noisy.prolex.test.csv",
    "prolex-test.noisy-jsonl.json": f"{PL} --predictions noisy.prolex.test.jsonl --json",
    "prolex-test.noisy-csv.published": f"{PL} --predictions noisy.prolex.test.csv --published",
    "prolex-test.noisy-csv.published.json": f"{PL} --predictions noisy.prolex.test.csv --published --json",
    "prolex-test.noisy-csv.k-5": f"{PL} --predictions noisy.prolex.test.csv --k 5",
    "prolex-test.noisy-csv.k-5.published": f"{PL} --predictions noisy.prolex.test.csv --k 5 --published",
    "prolex-test.noisy-csv.bootstrap-200-seed-1": f"{PL} --predictions noisy.prolex.test.csv --bootstrap 200 --seed 1",
    "prolex-test.noisy-csv.bootstrap-200-seed-1.json": (
        f"{PL} --predictions noisy.prolex.test.csv --bootstrap 200 --seed 1 --json"
    ),
    "prolex-test.cut-jsonl": f"{PL} --predictions cut.prolex.test.jsonl",
    "prolex-test.cut-jsonl.given-only": f"{PL} --predictions cut.prolex.test.jsonl --given-only",
    "prolex-test.compare": f"{PL} --compare noisy.prolex.test.csv gold.prolex.test.csv --bootstrap 200 --seed 1",
    "prolex-test.compare.json": f"{PL} --compare noisy.prolex.test.jsonl gold.prolex.test.csv --bootstrap 200 --json",
    "prolex-test.compare.k-5": f"{PL} --compare noisy.prolex.test.csv gold.prolex.test.csv --bootstrap 200 --k 5",
    "prolex-dev.gold-csv": f"{PL} --split dev --predictions gold.prolex.dev.csv",
    "prolex-dev-test.gold-jsonl": f"{PL} --split dev+test --predictions gold.prolex.test.jsonl --published",
}

# Refusals: an option a family does not take, options that do not go together, a bad file or value.
TSV, CSV = "noisy.tsar2022_en.test.tsv", "noisy.prolex.test.csv"
REFUSED = {
    "refused.published-compare": f"--compare {N} {G} --published",
    "refused.given-only-compare": f"--compare {N} {G} --given-only",
    "refused.published-k-5": f"--predictions {N} --published --k 5",
    "refused.differences-without-compare": f"--predictions {N} --differences 3",
    "refused.worst-no-analysis": f"--predictions {N} --worst 2 --no-analysis",
    "refused.relations-compare": f"--compare {N} {G} --relations",
    "refused.worst-compare": f"--compare {N} {G} --worst 2",
    "refused.no-analysis-compare": f"--compare {N} {G} --no-analysis",
    "refused.force-without-details": f"--predictions {N} --force",
    "refused.include-problematic-swords": f"--predictions {N} {B0} --include-problematic",
    "refused.judgments-coinco": f"--dataset coinco --predictions {N} --judgments {UNREAD}",
    "refused.judgments-swords-dev": f"--split dev --predictions noisy.swords.dev.jsonl --judgments {JUDGED}",
    "refused.judgments-compare": f"--compare {N} {G} --judgments {UNREAD}",
    "refused.judgments-tsar": f"{EN} --predictions {TSV} --judgments {UNREAD}",
    "refused.judgments-prolex": f"{PL} --predictions {CSV} --judgments {UNREAD}",
    "refused.judgments-not-a-tasks-file": f"--predictions {N} {B0} --judgments {N}",
    "refused.bootstrap-negative": f"--predictions {N} --bootstrap -1",
    "refused.compare-bootstrap-10": f"--compare {N} {G} --bootstrap 10",
    "refused.compare-bootstrap-0": f"{EN} --compare {TSV} {TSV} --bootstrap 0",
    "refused.seed-negative": f"--predictions {N} --seed -1",
    "refused.k-0": f"--predictions {N} --k 0",
    "refused.setting-unknown": f"--predictions {N} --setting best",
    "refused.split-unknown": f"--split nope --predictions {N}",
    "refused.split-joined-twice": f"--split test+test --predictions {N}",
    "refused.dataset-unknown": f"--dataset nope --predictions {N}",
    "refused.no-predictions": "--dataset swords",
    "refused.predictions-and-compare": f"--predictions {N} --compare {N} {G}",
    "refused.file-missing": "--predictions missing.jsonl",
    "refused.file-bad-json": f"--predictions bad-json.jsonl {B0}",
    "refused.file-unknown-ids": f"--predictions unknown-ids.jsonl {B0}",
    "refused.file-empty": f"--predictions empty.jsonl {B0}",
    "refused.file-other-split": f"--dataset coinco --predictions coinco-oracle.swords.test.jsonl {B0}",
    "refused.file-other-split-given-only": f"--split dev --predictions {C} {B0} --given-only",
    "refused.details-unknown-format": f"{SUB} --predictions {FEW} {B0} --details {{out}}/details.txt",
    "refused.details-not-ours": f"{SUB} --predictions {FEW} {B0} --details {N}",
    "refused.compare-file-missing": f"{SUB} --compare {NS} missing.jsonl --bootstrap 200",
    "refused.tsar-details": f"{EN} --predictions {TSV} --details {{out}}/details.jsonl",
    "refused.tsar-relations": f"{EN} --predictions {TSV} --relations",
    "refused.tsar-no-analysis": f"{EN} --predictions {TSV} --no-analysis",
    "refused.tsar-worst": f"{EN} --predictions {TSV} --worst 2",
    "refused.tsar-differences": f"{EN} --compare {TSV} {TSV} --differences 2",
    "refused.tsar-include-problematic": f"{EN} --predictions {TSV} --include-problematic",
    "refused.tsar-ranking": f"{EN} --predictions {TSV} --setting ranking",
    "refused.tsar-k-5": f"{EN} --predictions {TSV} --k 5",
    "refused.tsar-force": f"{EN} --predictions {TSV} --force",
    "refused.tsar-cut-tsv": f"{EN} --predictions cut.tsar2022_en.test.tsv",
    "refused.tsar-wrong-order": f"{EN} --predictions wrong-order.tsv",
    "refused.tsar-other-language": f"--dataset tsar2022_es --predictions {TSV}",
    "refused.tsar-prolex-csv": f"{EN} --predictions {CSV}",
    "refused.prolex-details": f"{PL} --predictions {CSV} --details {{out}}/details.csv",
    "refused.prolex-ranking": f"{PL} --predictions {CSV} --setting ranking",
    "refused.prolex-include-problematic": f"{PL} --predictions {CSV} --include-problematic",
    "refused.prolex-bad-csv": f"{PL} --predictions bad.csv",
    "refused.prolex-other-split": f"{PL} --split dev --predictions {CSV}",
    "refused.prolex-tsv": f"{PL} --predictions {TSV}",
}

SLOW_GROUPS = (SWORDS_TEST_SLOW, OTHER_SWORDS_FAMILY_SLOW, COINCO)
CASES = {**SWORDS_TEST, **SWORDS_OPTIONS, **OTHER_SWORDS_FAMILY, **TSAR, **PROLEX, **REFUSED}
CASES |= {name: command for group in SLOW_GROUPS for name, command in group.items()}
# and two refusals that come after work: CoInCo test's scorer built (the file's ids are found to be another split's as
# it is read), the judgments read (their tasks are SWORDS test's)
SLOW = frozenset(
    [name for group in SLOW_GROUPS for name in group] + ["refused.file-other-split", "refused.judgments-swords-dev"]
)
