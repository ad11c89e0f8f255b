"""The dataset card (README.md): its YAML header is what `datasets.load_dataset` reads to find the data."""

from __future__ import annotations

from pathlib import Path

import datasets
from huggingface_hub import DatasetCardData

from swords_dataset.configs import CONFIGS, DEFAULT_CONFIG, parquet_path
from swords_dataset.schema import FEATURES
from swords_lexsub.terminal import clipped

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
    "prolex": """@inproceedings{zhang-etal-2024-prolex,
    title = "{P}ro{L}ex: A Benchmark for Language Proficiency-oriented Lexical Substitution",
    author = "Zhang, Xuanming and Chen, Zixun and Yu, Zhou",
    booktitle = "Findings of the Association for Computational Linguistics: ACL 2024",
    year = "2024"
}""",
    "tsar2022": """@inproceedings{saggion-etal-2022-findings,
    title = "Findings of the {TSAR}-2022 Shared Task on Multilingual Lexical Simplification",
    author = "Saggion, Horacio and {\\v{S}}tajner, Sanja and Ferr{\\'e}s, Daniel and Sheang, Kim Cheng and Shardlow, Matthew and North, Kai and Zampieri, Marcos",
    booktitle = "Proceedings of the Workshop on Text Simplification, Accessibility, and Readability (TSAR-2022)",
    year = "2022",
    pages = "271--283"
}""",
}

_TSAR_LICENSE = "CC-BY-NC-SA-4.0 (non-commercial, share-alike; license text in data/{config}/LICENSE)"

# Shown with each config in the card's YAML (and by `datasets` as the config's description).
DESCRIPTIONS = {
    "prolex": "ProLex v1.0 (Zhang et al. 2024): proficiency-oriented lexical substitution, expert judgements. "
    "License: Apache-2.0 (text in data/prolex/LICENSE).",
    **{
        f"tsar2022_{language}": f"TSAR-2022 shared task on lexical simplification (Saggion et al. 2022), {name}. "
        f"License: {_TSAR_LICENSE.format(config=f'tsar2022_{language}')}."
        for language, name in (("en", "English"), ("es", "Spanish"), ("pt", "Portuguese"))
    },
}

BODY = """
# Lexical substitution benchmarks: SWORDS, CoInCo, SemEval-2007, ProLex and TSAR-2022 in one schema

Given a context and a target word in it, lexical substitution asks for words that could replace the
target. This repository holds the field's three English benchmarks, ProLex (proficiency-oriented
substitution) and TSAR-2022 (lexical simplification in English, Spanish and Portuguese) as Parquet, one
row per (context, target),
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
| `prolex` | dev (68), test (680) | ProLex v1.0 (Zhang et al. 2024), proficiency-oriented; Apache-2.0 |
| `tsar2022_en` | trial (10), test (373) | TSAR-2022 (Saggion et al. 2022), English; CC-BY-NC-SA-4.0 |
| `tsar2022_es` | trial (12), test (368) | TSAR-2022, Spanish; CC-BY-NC-SA-4.0 |
| `tsar2022_pt` | trial (10), test (374) | TSAR-2022, Portuguese; CC-BY-NC-SA-4.0 |

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
- `benchmark`: `swords-v1.1`, `swords-v1.1-reannotated`, `coinco`, `semeval07`, `prolex`,
  `tsar2022_en`, `tsar2022_es` or `tsar2022_pt`. ProLex and TSAR-2022: see their section below.
- `context_id`, `context`: SWORDS and CoInCo: the multi-sentence context (CoInCo: pre-context, target
  sentence and post-context, whitespace-normalised, joined by a space); SemEval: the sentence,
  detokenized, HTML entities and mojibake repaired.
- `target`, `offset`: the target's surface form and character offset:
  `context[offset:offset + len(target)] == target` holds on every row (asserted at build).
- `pos`: Universal Dependencies tag (NOUN, VERB, ADJ, ADV). `target_lemma`: the source's lemma.
  `target_cefr`: ProLex test only, else null.
- `substitutes`: `substitute`, `score`, `votes_positive`, `votes_total`, `labels`, `sources`, `cefr`
  (ProLex only, else null); in SWORDS, CoInCo and SemEval sorted by score descending (ties keep source order). SWORDS: `score` = positive labels / all labels
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

## ProLex and TSAR-2022

Neither benchmark gives a POS or a lemma: `pos` and `target_lemma` are null. Neither has a ranking
setting: `candidates` is empty. `provenance` is empty (nulls and empty lists). Ids name the config, the
split and the 1-based record: `prolex:test:0042` is ProLex test's 42nd data row (line 43 of the CSV, after
its header); `tsar2022_es:test:0042` is line 42 of the Spanish test gold file. `upstream_id` and
`context_id` equal `id` (the upstream SWORDS library never had these benchmarks).

**ProLex** (`prolex`, from github.com/BillyZhang24kobe/LS_Proficiency @ f54ba0f): one row per CSV row.
`context` is the sentence without its `**` marks; `target` is the marked word and `offset` where it
stands. In 2 dev and 27 test rows the word is marked more than once (it recurs in the sentence); the
first marked span is the target. `substitutes`: every `acc_subs` item, then every `unacc_subs` item, each
once (3 test rows list one twice), in the source's order, items exactly as given. `labels`:
`acceptable` or `unacceptable` (the experts' judgement), plus `proficiency_acceptable` /
`proficiency_unacceptable` for items in `prof_acc_subs` / `prof_unacc_subs` (the proficiency-oriented
subset: acceptable substitutes at or above the target's CEFR level, and those below it). Five items of
`prof_acc_subs` in 4 test rows are in neither expert list (spelling variants such as `"peoples"` beside
`people's`); they are kept as given, after the others, labelled `proficiency_acceptable` only. `score` is
the experts' **binary** judgement, 1.0 acceptable and 0.0 unacceptable (a proficiency item counts as
acceptable, as the benchmark defines that subset), not a graded fraction of annotators. `votes_positive`
and `votes_total` are null (there are no annotator counts). CEFR levels (test only; dev has none, so
null): `target_cefr` is `t_words_cefr` and each proficiency substitute's `cefr` its level in
`prof_acc_cefr` / `prof_unacc_cefr`, as integers as the source gives them: 0-5 = A1-C2 (the
repository's own example: "promotion (B2)" is 3). The source's `None` is null; it also holds 6 (6
targets, 89 substitutes) and -1 (2 targets), whose meaning it does not document. Substitutes outside the
proficiency lists have a null `cefr`.

**TSAR-2022** (`tsar2022_en`, `tsar2022_es`, `tsar2022_pt`, from
github.com/LaSTUS-TALN-UPF/TSAR-2022-Shared-Task @ 089c266): one row per line of the gold TSV
(`sentence<TAB>complex word<TAB>one annotation per annotator`); the build checks that the unlabelled
`_none.tsv` inputs match the gold files line by line. `context` is the sentence, `target` the complex
word, `offset` its first occurrence as a whole word (in 2 test lines, English "impeach" and Spanish
"ovina", the same letters occur earlier inside another word: "impeachment", "bovina"). `substitutes`:
each distinct annotation, stripped of surrounding whitespace as the official scorer strips it and
otherwise exactly as given (no case folding), most annotators first, ties in order of first appearance;
`score` = `votes_positive` = the number of annotators who gave it, `votes_total` = the number of
annotations on the line (English 25-26, Spanish 24-25, Portuguese 11-26). `labels` is empty; `sources` is
`["tsar2022"]`. Annotations equal to the complex word itself are kept (English test: 238 lines have
one, Spanish test: 227); the official scorer leaves them out when it scores, and so does the metric.
TSAR-2022's data is licensed **CC-BY-NC-SA-4.0**: non-commercial use only, derivatives under the same
license; its text ships in `data/tsar2022_*/LICENSE`.

## Licenses

SWORDS: CC-BY-3.0-US. CoInCo: CC-BY-3.0 (with the SWORDS authors' patch). SemEval-2007 Task 10 data
and the candidate lists (from Melamud et al.'s lexsub repository): research use. ProLex: Apache-2.0 (its
repository's license; text in `data/prolex/LICENSE`). TSAR-2022: CC-BY-NC-SA-4.0 (text in
`data/tsar2022_en/LICENSE`, and the same beside the Spanish and Portuguese data).

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
        pretty_name="Lexical substitution benchmarks: SWORDS, CoInCo, SemEval-2007, ProLex, TSAR-2022",
        license=["cc-by-3.0", "apache-2.0", "cc-by-nc-sa-4.0", "other"],
        language=["en", "es", "pt"],
        task_categories=["text-generation", "text-ranking"],
        tags=[
            "lexical-substitution",
            "lexical-simplification",
            "swords",
            "coinco",
            "semeval-2007",
            "prolex",
            "tsar-2022",
        ],
        size_categories=["10K<n<100K"],
        configs=[
            {
                "config_name": config,
                **({"default": True} if config == DEFAULT_CONFIG else {}),
                **({"description": DESCRIPTIONS[config]} if config in DESCRIPTIONS else {}),
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


def card_problem(folder: Path) -> str | None:
    """What in `folder`'s dataset card disagrees with CONFIGS and parquet_path (which `datasets` reads it for), in one
    line naming the card and the config; None when they agree."""
    import yaml
    from huggingface_hub.repocard import metadata_load

    card = Path(folder) / "README.md"
    try:
        header = metadata_load(card)
    except (OSError, ValueError, yaml.YAMLError) as error:  # no card, not UTF-8, broken YAML
        return (
            f"{card}: cannot be read as a dataset card ({clipped(str(error).splitlines()[0] if str(error) else error)})"
        )
    entries = header.get("configs") if isinstance(header, dict) else None
    listed: dict[str, dict[str, str]] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("config_name"), str):
            return f"{card}: a `configs` entry without a config_name"
        files = entry.get("data_files")
        files = files if isinstance(files, list) else []
        listed[entry["config_name"]] = {str(f.get("split")): str(f.get("path")) for f in files if isinstance(f, dict)}
    advice = "the card and the installed package disagree (reinstall, or rebuild with `swords data build`)"
    for config, splits in CONFIGS.items():
        if config not in listed:
            return f"{card}: no config {config!r}, which the toolkit has; {advice}"
        expected = {split: parquet_path(config, split) for split in splits}
        if listed[config] != expected:
            found = ", ".join(f"{s}: {p}" for s, p in listed[config].items()) or "none"
            wanted = ", ".join(f"{s}: {p}" for s, p in expected.items())
            return f"{card}: config {config!r} lists {clipped(found)}; the toolkit has {wanted}; {advice}"
    if unknown := [config for config in listed if config not in CONFIGS]:
        return f"{card}: config {clipped(unknown[0], quote=True)} is not one of the toolkit's ({', '.join(CONFIGS)}); {advice}"
    return None
