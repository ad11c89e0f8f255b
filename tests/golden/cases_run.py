"""The golden cases of `swords run`, for the systems that need no model, no network and no data outside the package
(the CoInCo oracle, the second SWORDS annotation, WordNet, the recorded GPT-3 completions): each family, partial
(--limit) and whole runs on small splits, a run reused and extended, and the refusals. A case is one command or
several run one after another (" ;; " between them), in a fresh folder of its own (the outputs' names are relative
to it); `--no-progress` is added to each."""

from __future__ import annotations

B0 = "--bootstrap 0"
SUB = "--dataset swords_test_subset"
CASES = {
    "coinco-oracle.swords-test.limit-20": f"--system coinco-oracle --output run.jsonl {B0} --limit 20",
    "coinco-oracle.swords-test-subset.bootstrap-200.json": (
        f"--system coinco-oracle {SUB} --output run.jsonl --bootstrap 200 --json"
    ),
    "humans-all.swords-test-subset.default-output": f"--system humans-all {SUB} {B0} --limit 3",
    "humans-all.swords-test-subset.output-without-suffix": f"--system humans-all {SUB} --output mine {B0} --limit 3",
    "humans-all.swords-test-subset.reused": (
        f"--system humans-all {SUB} --output run.jsonl {B0} --limit 5 ;; --system humans-all {SUB} --output run.jsonl "
        f"{B0} --limit 5 --json"
    ),
    "humans-all.swords-test-subset.extended": (
        f"--system humans-all {SUB} --output run.jsonl {B0} --limit 5 ;; --system humans-all {SUB} --output run.jsonl "
        f"{B0} --limit 12"
    ),
    "humans-all.swords-test-subset.forced": (
        f"--system humans-all {SUB} --output run.jsonl {B0} --limit 5 ;; --system humans-all {SUB} --output run.jsonl "
        f"{B0} --limit 5 --force"
    ),
    "refused.joined-split": (
        f"--system coinco-oracle --dataset swords --split dev+test --output run.jsonl {B0} --limit 8"
    ),
    "coinco-oracle.swords-test.limit-20.json": f"--system coinco-oracle --output run.jsonl {B0} --limit 20 --json",
    "coinco-oracle.coinco-test.limit-30": f"--system coinco-oracle --dataset coinco --output run.jsonl {B0} --limit 30",
    "humans.swords-test-subset": f"--system humans --dataset swords_test_subset --output run.jsonl {B0}",
    "humans.swords-test.partial": f"--system humans --dataset swords --output run.jsonl {B0}",
    "humans-acceptable.swords-test-subset.json": (
        f"--system humans-acceptable --dataset swords_test_subset --output run.jsonl {B0} --json"
    ),
    "humans-conceivable.swords-test-subset": (
        f"--system humans-conceivable --dataset swords_test_subset --output run.jsonl {B0}"
    ),
    "humans-all.swords-test-subset.limit-10": (
        f"--system humans-all --dataset swords_test_subset --output run.jsonl {B0} --limit 10"
    ),
    "humans.swords-reannotated": f"--system humans --dataset swords_reannotated --output run.jsonl {B0} --limit 6",
    "wordnet.swords-test.limit-10": f"--system wordnet --output run.jsonl {B0} --limit 10",
    "wordnet.semeval07-test.limit-15": f"--system wordnet --dataset semeval07 --output run.jsonl {B0} --limit 15",
    "wordnet.semeval07-trial.limit-6": (
        f"--system wordnet --dataset semeval07 --split trial --output run.jsonl {B0} --limit 6"
    ),
    "wordnet.tsar2022-en-test": f"--system wordnet --dataset tsar2022_en --output run.jsonl {B0}",
    "wordnet.tsar2022-en-test.limit-30.json": (
        "--system wordnet --dataset tsar2022_en --output run.jsonl --bootstrap 100 --limit 30 --json"
    ),
    "wordnet.tsar2022-en-trial": f"--system wordnet --dataset tsar2022_en --split trial --output run.jsonl {B0}",
    "wordnet.prolex-test": f"--system wordnet --dataset prolex --output run.jsonl {B0}",
    "wordnet.prolex-test.limit-40.json": (
        "--system wordnet --dataset prolex --output run.jsonl --bootstrap 100 --limit 40 --json"
    ),
    "wordnet.prolex-dev.limit-10": f"--system wordnet --dataset prolex --split dev --output run.jsonl {B0} --limit 10",
    "gpt3-recorded.swords-dev": f"--system gpt3-recorded --dataset swords --split dev --output run.jsonl {B0}",
    "gpt3-recorded.swords-dev.parse-upstream": (
        f"--system gpt3-recorded --dataset swords --split dev --output run.jsonl {B0} --parse upstream"
    ),
    # Refusals: one line on stderr, exit 2, nothing written.
    "refused.no-system": f"--dataset swords {B0}",
    "refused.unknown-system": f"--system wordnett {B0}",
    "refused.unknown-system-option": f"--system wordnet --output run.jsonl {B0} --temperature 1",
    "refused.split-unknown": f"--system wordnet --split nope {B0}",
    "refused.bootstrap-negative": "--system wordnet --output run.jsonl --bootstrap -1",
    "refused.limit-negative": f"--system wordnet --output run.jsonl {B0} --limit -1",
    "refused.humans-coinco": f"--system humans --dataset coinco --output run.jsonl {B0}",
    "refused.coinco-oracle-tsar": f"--system coinco-oracle --dataset tsar2022_en --output run.jsonl {B0}",
    "refused.coinco-oracle-prolex": f"--system coinco-oracle --dataset prolex --output run.jsonl {B0}",
    "refused.wordnet-tsar-es": f"--system wordnet --dataset tsar2022_es --output run.jsonl {B0}",
    "refused.gpt3-recorded-coinco": f"--system gpt3-recorded --dataset coinco --output run.jsonl {B0}",
    "refused.other-settings": (
        f"--system humans {SUB} --output run.jsonl {B0} --limit 4 ;; --system humans-all {SUB} --output run.jsonl {B0}"
    ),
    "refused.narrower-limit": (
        f"--system humans-all {SUB} --output run.jsonl {B0} --limit 10 ;; --system humans-all {SUB} --output run.jsonl "
        f"{B0} --limit 5"
    ),
    "refused.output-not-a-run": f"--system humans-all {SUB} --output notes.jsonl {B0} --limit 3",
}
SLOW = frozenset(  # 1 to 2.5 s each on two cores (the CoInCo oracle's table, SWORDS test's and CoInCo's scorers)
    {
        "coinco-oracle.swords-test.limit-20.json",
        "coinco-oracle.coinco-test.limit-30",
        "wordnet.swords-test.limit-10",
        "humans.swords-test.partial",
    }
)
# A file of the user's where a run would write: created before the case's commands (the run must leave it).
USER_FILES = {"refused.output-not-a-run": {"notes.jsonl": '{"mine": true}\n'}}
