"""The dataset card (README.md): its YAML header is what `datasets.load_dataset` reads to find the data."""

from __future__ import annotations

from pathlib import Path

import datasets
from huggingface_hub import DatasetCardData

from . import CONFIGS, DEFAULT_CONFIG, parquet_path
from .schema import FEATURES

CITATIONS = {
    "swords": """@inproceedings{lee-etal-2021-swords,
    title = "Swords: A Benchmark for Lexical Substitution with Improved Data Coverage and Quality",
    author = "Lee, Mina and Donahue, Chris and Jia, Robin and Iyabor, Alexander and Liang, Percy",
    booktitle = "Proceedings of the 2021 Conference of the North American Chapter of the Association for Computational Linguistics: Human Language Technologies",
    year = "2021",
    pages = "4362--4379",
    url = "https://arxiv.org/abs/2106.04102"
}""",
    "coinco": """@inproceedings{kremer-etal-2014-substitutes,
    title = "What Substitutes Tell Us - Analysis of an ``All-Words'' Lexical Substitution Corpus",
    author = "Kremer, Gerhard and Erk, Katrin and Pad{\\'o}, Sebastian and Thater, Stefan",
    booktitle = "Proceedings of the 14th Conference of the European Chapter of the Association for Computational Linguistics",
    year = "2014",
    pages = "540--549"
}""",
    "semeval07": """@inproceedings{mccarthy-navigli-2007-semeval,
    title = "{S}em{E}val-2007 Task 10: {E}nglish Lexical Substitution Task",
    author = "McCarthy, Diana and Navigli, Roberto",
    booktitle = "Proceedings of the Fourth International Workshop on Semantic Evaluations (SemEval-2007)",
    year = "2007",
    pages = "48--53"
}""",
}

BODY = """
# Lexical substitution benchmarks: SWORDS, CoInCo and SemEval-2007 in one schema

Given a context and a target word in it, lexical substitution asks for words that could replace the
target. This repository holds the field's three benchmarks as Parquet, one row per (context, target),
with the same columns everywhere, built from the upstream releases by `swords data build` and checked
against the published statistics by `swords data verify` (see the toolkit's README).

```python
from datasets import load_dataset
swords_test = load_dataset("swords_dataset", "swords", split="test")   # or ORG/NAME on the Hub
```

## Configs

| config | splits | what |
| --- | --- | --- |
| `swords` (default) | dev (370), test (762) | SWORDS v1.1 (Lee et al. 2021); ids are the upstream `t:<sha1>` target ids |
| `swords_test_subset` | test (89) | the first annotation of the 89 SWORDS test targets that were annotated twice |
| `swords_reannotated` | test (89) | the second, independent annotation of the same 89 targets (the paper's "Humans") |
| `coinco` | dev (10,179), test (5,450) | CoInCo (Kremer et al. 2014), official split by MASC document |
| `semeval07` | trial (300), test (1,710) | SemEval-2007 Task 10 (McCarthy & Navigli 2007) |

## Columns

- `id`: SWORDS: upstream target id (so result files made for the upstream release key into it);
  CoInCo: `coinco:<token id>`; SemEval: `semeval07:<instance id>`.
- `upstream_id`: the `t:<sha1>` id the upstream SWORDS library (github.com/p-lambda/swords) gives the
  target, so result files it made key into every config (SWORDS: equal to `id`). It is a hash of upstream's
  context string, target, offset and POS; for SemEval-2007 upstream's context string differs from ours
  (other detokenization), and the build reproduces it. The build checks that every split reproduces the
  dataset id upstream pins for it (a hash of every context, target, substitute and label id): CoInCo's
  against upstream's default build, which leaves out the `coinco_problematic` targets (their
  `upstream_id` is the one upstream gives them when it keeps them).
- `benchmark`: `swords-v1.1`, `swords-v1.1-reannotated`, `coinco` or `semeval07`.
- `context_id`, `context`: SWORDS and CoInCo: the multi-sentence context (CoInCo: pre-context, target
  sentence and post-context, whitespace-normalised, joined by a space); SemEval: the sentence,
  detokenized, HTML entities and mojibake repaired.
- `target`, `offset`: the target's surface form and character offset:
  `context[offset:offset + len(target)] == target` holds on every row (asserted at build).
- `pos`: Universal Dependencies tag (NOUN, VERB, ADJ, ADV). `target_lemma`: the source's lemma.
- `substitutes`: `substitute`, `score`, `votes_positive`, `votes_total`, `labels`, `sources`, sorted by
  score descending (ties keep source order). SWORDS: `score` = positive labels / all labels
  (abstentions count as "no", as in the upstream README), `labels` the raw TRUE/FALSE/UNSURE judgements.
  CoInCo and SemEval: `score` = number of annotators who produced the substitute (= both vote counts);
  these sources have no per-annotator judgements, so `labels` is empty.
- `candidates`: the candidate pool for the ranking setting, in alphabetical order. SWORDS: every
  labelled substitute (score 0 included); CoInCo and SemEval: the lemma.POS candidate list of the
  source plus any gold substitute missing from it.
- `provenance`: `coinco_token_ids`, `masc_sentences` (`<MASC file>:<sentence id>`),
  `coinco_problematic` (CoInCo's own flag), `semeval_lexelt`, `semeval_instance`. Every CoInCo row is
  here (Table 2's counts); the scorer leaves the 62 problematic test targets (152 in dev) out by default,
  as the upstream library, Melamud et al.'s `coinco.no_problematic` files and LexSubGen do.

## Licenses

SWORDS: CC-BY-3.0-US. CoInCo: CC-BY-3.0 (with the SWORDS authors' patch). SemEval-2007 Task 10 data
and the candidate lists (from Melamud et al.'s lexsub repository): research use.

## Citations
"""


def dataset_infos(split_sizes: dict[str, dict[str, int]]) -> datasets.info.DatasetInfosDict:
    infos = datasets.info.DatasetInfosDict()
    for config, sizes in split_sizes.items():
        info = datasets.DatasetInfo(features=FEATURES, config_name=config)
        info.splits = datasets.SplitDict()
        for split, n in sizes.items():
            info.splits.add(datasets.SplitInfo(name=split, num_examples=n))
        infos[config] = info
    return infos


def card_text(split_sizes: dict[str, dict[str, int]]) -> str:
    data = DatasetCardData(
        pretty_name="Lexical substitution benchmarks: SWORDS, CoInCo, SemEval-2007",
        license=["cc-by-3.0", "other"],
        language=["en"],
        task_categories=["text-generation", "text-ranking"],
        tags=["lexical-substitution", "swords", "coinco", "semeval-2007"],
        size_categories=["10K<n<100K"],
        configs=[
            {
                "config_name": config,
                **({"default": True} if config == DEFAULT_CONFIG else {}),
                "data_files": [{"split": split, "path": parquet_path(config, split)} for split in splits],
            }
            for config, splits in CONFIGS.items()
        ],
    )
    dataset_infos(split_sizes).to_dataset_card_data(data)
    citations = "\n\n".join(f"```bibtex\n{c}\n```" for c in CITATIONS.values())
    return f"---\n{data.to_yaml()}\n---\n{BODY}\n{citations}\n"


def write_card(output_dir: Path, split_sizes: dict[str, dict[str, int]]) -> None:
    (Path(output_dir) / "README.md").write_text(card_text(split_sizes), encoding="utf-8")
