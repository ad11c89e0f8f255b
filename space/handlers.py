"""What each tab does, in plain Python: no Gradio here, so every handler is importable and testable alone.

Handlers take plain values (strings, numbers, a file path) and return plain values or small result objects
with the tables (pandas DataFrames) and HTML the UI shows. Anything the user can fix is a SpaceError with
a message; the app turns it into a notice, never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from pathlib import Path

import pandas as pd

from swords_dataset.errors import SwordsError
from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_metric import MetricInputError, Scorer, UnknownTargetsError

from . import SPACE_DIR, data, render, systems, text
from .errors import SpaceError
from .published import SHORT_SOURCE, TABLE_4
from .systems import LLMSettings

Progress = Callable[[float, str], None]

RESULTS_ENV = "SWORDS_SPACE_RESULTS"
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
# What a predictions file may expand to: 100 substitutes for each CoInCo test target is about 10-20 MB, for
# each CoInCo dev target about 20-30 MB. A .gz that expands past it (a gzip bomb) is refused as soon as it
# gets there. Files are read as streams, a target at a time: memory grows with the targets, not the file.
MAX_UNCOMPRESSED_BYTES = 32 * 1024 * 1024
MAX_BOOTSTRAP = 2000
CURVE_KS = tuple(range(1, 21))
K = 10

# (label, metric key) of the Score tab's table, in the paper's order: Table 4, then 7 and 8.
METRIC_ROWS: tuple[tuple[str, str], ...] = (
    ("lenient F@10, acceptable", "lenient_a_f@10"),
    ("lenient F@10, conceivable", "lenient_c_f@10"),
    ("strict F@10, acceptable", "strict_a_f@10"),
    ("strict F@10, conceivable", "strict_c_f@10"),
    ("lenient P@10, acceptable", "lenient_a_p@10"),
    ("lenient R@10, acceptable", "lenient_a_r@10"),
    ("lenient P@10, conceivable", "lenient_c_p@10"),
    ("lenient R@10, conceivable", "lenient_c_r@10"),
    ("strict P@10, acceptable", "strict_a_p@10"),
    ("strict R@10, acceptable", "strict_a_r@10"),
    ("strict P@10, conceivable", "strict_c_p@10"),
    ("strict R@10, conceivable", "strict_c_r@10"),
    ("GAP", "gap"),
    ("GAP (ratio weights)", "gap_rat"),
    ("best", "best_r"),
    ("best-mode", "best_mode_r"),
    ("oot", "oot_r"),
    ("oot-mode", "oot_mode_r"),
    ("P@1 (strict, conceivable)", "strict_c_p@1"),
    ("LexSubGen P@1", "lexsubgen_p@1"),
    ("LexSubGen P@3", "lexsubgen_p@3"),
    ("LexSubGen R@10", "lexsubgen_r@10"),
)
EXAMPLE_METRICS = ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10", "gap")
# The columns of each table the UI shows (also its headers before the first answer).
SUGGESTION_COLUMNS = ["rank", "substitute", "score", "gold score", "judgement"]
EXAMPLE_METRIC_COLUMNS = ["metric", "value"]
SCORE_METRIC_COLUMNS = ["metric", "key", "value", "95% interval"]
BY_POS_COLUMNS = ["POS", "targets", "lenient F@10", "lenient Fc@10", "strict F@10", "strict Fc@10", "GAP"]
PUBLISHED_COLUMNS = ["system", "benchmark", "lenient F@10", "lenient Fc@10", "source"]
LEADERBOARD_METRICS = (
    ("lenient F@10", "lenient_a_f@10"),
    ("lenient Fc@10", "lenient_c_f@10"),
    ("strict F@10", "strict_a_f@10"),
    ("strict Fc@10", "strict_c_f@10"),
    ("GAP", "gap"),
)


def _noop(fraction: float, message: str) -> None:
    pass


# -- choices for the UI ---------------------------------------------------------------------------------


def split_choices() -> list[str]:
    return [data.split_label(config, split) for config, split in data.splits()]


def system_choices() -> tuple[list[str], str | None]:
    """(available systems, the default one)."""
    return systems.available_systems(), systems.default_system()


def unavailable_note() -> str | None:
    """The system choice's caption: the local LLM's nature when it is offered, and which systems are not
    offered here, and why."""
    parts = []
    if systems.LOCAL_LLM in systems.available_systems():
        parts.append(f"{systems.LOCAL_LLM}: {systems.LOCAL_LLM_NOTE}.")
    missing = systems.unavailable_systems()
    if missing:
        parts.append("Not available here: " + "; ".join(f"{name} ({reason})" for name, reason in missing.items()))
    return " ".join(parts) or None


def word_choices(context: str | None) -> list[tuple[str, str]]:
    return text.context_words(context)


def pick_word(value: str | None) -> tuple[str, int]:
    """A word picked from the context's list -> (target, occurrence)."""
    parsed = text.parse_word_choice(value)
    if parsed is None:
        raise SpaceError("Pick a word of the context from the list.")
    return parsed


def results_dir(folder: str | Path | None = None) -> Path:
    """Where stored baseline results live: the argument, else $SWORDS_SPACE_RESULTS, else space/results."""
    return Path(folder or os.environ.get(RESULTS_ENV) or SPACE_DIR / "results")


# -- Substitute -----------------------------------------------------------------------------------------


@dataclass
class SubstituteResult:
    row: dict
    system: str
    suggestions: list[dict]  # rank, substitute, score, gold (text), judgement
    total: int  # how many substitutes the system gave (suggestions shows the first top_k)
    example: tuple[str, str] | None = None  # (config, split) when the row is a benchmark example
    metrics: dict | None = None  # Scorer on that single example
    status: str = ""

    def table(self) -> pd.DataFrame:
        columns = SUGGESTION_COLUMNS
        return pd.DataFrame(
            [[s["rank"], s["substitute"], round(s["score"], 4), s["gold"], s["judgement"]] for s in self.suggestions],
            columns=columns,
        )

    def html(self) -> str:
        return render.suggestions_html(self.suggestions, with_gold=self.example is not None)

    def context_html(self) -> str:
        return render.context_html(self.row["context"], self.row["offset"], len(self.row["target"]))

    def metrics_table(self) -> pd.DataFrame:
        if not self.metrics:
            return pd.DataFrame(columns=EXAMPLE_METRIC_COLUMNS)
        labels = dict((key, label) for label, key in METRIC_ROWS)
        return pd.DataFrame(
            [[labels[key], round(self.metrics[key], 2)] for key in EXAMPLE_METRICS], columns=EXAMPLE_METRIC_COLUMNS
        )


def judge(row: dict, substitutes: Iterable[str], config: str, split: str) -> list[tuple[str, str]]:
    """(gold text, class) of each substitute against a benchmark example's gold, as the metric counts it
    (Scorer.judge: lemmatized under the target's POS, a lemma's forms merged, the metric's thresholds)."""
    judged = scorer_for(config, split, include_problematic=True).judge(row["id"], substitutes)
    return [(f"{j.score:.2f} ({j.positive}/{j.total})" if j.score is not None else "—", j.label) for j in judged]


def _resolve_row(
    context: str, target: str | None, occurrence: float | None, pos: str | None, example: dict | None
) -> tuple[dict, tuple[str, str] | None, str]:
    """(row, (config, split) if it is a benchmark example, how the POS was chosen)."""
    if example:  # picked from a benchmark: used as long as the user has not edited context or target
        row = data.get_row(example.get("config", ""), example.get("split", ""), example.get("id", ""))
        if row is not None and row["context"] == context and row["target"] == (target or "").strip():
            return row, (example["config"], example["split"]), "from the benchmark"
    offset, written = text.locate(context, target, occurrence)
    found = data.find_example(context, offset, written)
    if found is not None:
        config, split, row = found
        return row, (config, split), "from the benchmark"
    if pos in (None, "", text.AUTO_POS):
        return text.make_row(context, offset, written, text.guess_pos(context, offset, written)), None, "guessed"
    if pos not in data.POS_TAGS:
        raise SpaceError(f"Unknown part of speech {pos!r}; choose {', '.join(data.POS_TAGS)} or auto.")
    return text.make_row(context, offset, written, pos), None, "chosen"


def substitute(
    context: str | None,
    target: str | None,
    occurrence: float | None = 1,
    pos: str | None = text.AUTO_POS,
    system: str | None = None,
    top_k: float | None = 10,
    example: dict | None = None,
    llm: LLMSettings | None = None,
    progress: Progress = _noop,
) -> SubstituteResult:
    """Ranked substitutes of one system for the chosen target; for a benchmark example, with each
    suggestion's gold judgement and the example's metrics."""
    context = text.check_context(context)
    name = system or systems.default_system()
    if name is None:
        raise SpaceError("No substitution system is installed (pip install 'swords-lexsub[baselines]').")
    if name not in systems.available_systems():
        raise SpaceError(f"Unknown or unavailable system {name!r}; choose one of the list.")
    top = int(min(max(top_k or 10, 1), 50))
    progress(0.1, "reading the target")
    row, example_split, pos_how = _resolve_row(context, target, occurrence, pos, example)
    progress(0.3, f"asking {name}" + (f" ({systems.LOCAL_LLM_NOTE})" if name == systems.LOCAL_LLM else ""))
    prediction = systems.predict(name, row, llm)
    progress(0.9, "comparing with the gold")
    shown = prediction[:top]
    gold = (judge(row, [s for s, _ in shown], *example_split) if example_split
            else [("—", NOT_IN_BENCHMARK)] * len(shown))
    suggestions = [
        {"rank": i + 1, "substitute": s, "score": score, "gold": g, "judgement": j}
        for i, ((s, score), (g, j)) in enumerate(zip(shown, gold, strict=True))
    ]
    metrics = None
    if example_split and row["substitutes"]:
        scorer = Scorer([row], split=example_split[1], include_problematic=True)  # one example, shown as it is
        metrics = scorer.score({row["id"]: prediction}, by_pos=False)
    if not example_split:
        where = "free text: no gold to compare with"
    else:
        where = f"benchmark example {example_split[0]} {example_split[1]} `{row['id']}`: " + (
            "gold judgements shown" if row["substitutes"] else "it has no gold substitutes"
        )
    if prediction:
        status = f"**{name}**: {len(shown)} of {len(prediction)} substitutes"
    else:
        status = (
            f"**{name}** found no substitutes (the target's lemma may be unknown to it, or it answers only "
            "benchmark targets)"
        )
    status += f" for “{escape(row['target'])}” ({row['pos']}, {pos_how}) · {where}."  # typed text: escaped
    return SubstituteResult(row, name, suggestions, len(prediction), example_split, metrics, status)


def llm_settings(base_url: str | None, model: str | None, mode: str | None, api_key: str | None) -> LLMSettings:
    """Validated LLM settings for a session (the key stays in them, in memory, nowhere else)."""
    base_url, model, api_key = (base_url or "").strip(), (model or "").strip(), (api_key or "").strip()
    if not api_key:
        raise SpaceError("Paste an API key (it is kept only in this session's memory on the server).")
    if len(api_key) > 500 or any(c.isspace() for c in api_key):
        raise SpaceError("That does not look like an API key (no spaces, at most 500 characters).")
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", base_url) or len(base_url) > 300:
        raise SpaceError("The base URL must be an http(s) URL, e.g. https://api.openai.com/v1.")
    if not re.fullmatch(r"[\w.:/@+-]{1,100}", model):
        raise SpaceError("Name the model, e.g. gpt-4o-mini (letters, digits and . : / @ + - _).")
    if mode not in ("chat", "completions"):
        raise SpaceError("The mode is chat or completions.")
    return LLMSettings(base_url=base_url.rstrip("/"), model=model, mode=mode, api_key=api_key)


# -- Explore --------------------------------------------------------------------------------------------


def search_examples(split_label: str | None, query: str | None = "", pos: str | None = data.ALL_POS,
                    limit: int = 200) -> tuple[list[tuple[str, str]], str]:
    """Dropdown choices (label, id) of the matching examples, and a line saying how many matched."""
    config, split = _split(split_label)
    query = (query or "")[: text.MAX_TARGET_CHARS]
    rows, total = data.search(config, split, query, pos or data.ALL_POS, limit)
    choices = [(data.example_label(row), row["id"]) for row in rows]
    shown = f", showing the first {len(rows)}." if total > len(rows) else (", all shown." if total else ".")
    if query.strip():
        what = f"{'target' if total == 1 else 'targets'} starting with “{escape(query.strip())}”"
    else:
        what = "example" if total == 1 else "examples"
    where = f"{config} {split}" + (f" ({pos})" if pos not in (None, "", data.ALL_POS) else "")
    return choices, f"{total:,} {what} in {where}{shown}"


def _short(value: object, limit: int = 40) -> str:
    """A user's value, quoted and cut short: a message never echoes megabytes back."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _split(split_label: str | None) -> tuple[str, str]:
    unknown = SpaceError(f"Unknown benchmark {_short(split_label)}; choose one of {', '.join(split_choices())}.")
    if not isinstance(split_label, str | None) or len(split_label or "") > 60:
        raise unknown
    try:
        return data.parse_split_label(split_label or "")
    except SwordsError:
        raise unknown from None


def _example(split_label: str | None, row_id: str | None) -> tuple[str, str, dict]:
    config, split = _split(split_label)
    row = data.get_row(config, split, row_id) if isinstance(row_id, str) and len(row_id) <= 100 else None
    if row is None:
        raise SpaceError(f"No example {_short(row_id)} in {config} {split}.")
    return config, split, row


def show_example(split_label: str | None, row_id: str | None) -> tuple[str, str, str]:
    """(header, context with the target marked, substitutes with score bars) as HTML."""
    config, split, row = _example(split_label, row_id)
    return (
        render.example_header(config, split, row),
        render.context_html(row["context"], row["offset"], len(row["target"])),
        render.substitutes_html(row),
    )


def example_inputs(split_label: str | None, row_id: str | None) -> tuple[str, str, int, str, dict]:
    """What the Substitute tab needs to run on an example: context, target, occurrence, POS, example key."""
    config, split, row = _example(split_label, row_id)
    offsets = text.occurrences(row["context"], row["target"])
    occurrence = offsets.index(row["offset"]) + 1 if row["offset"] in offsets else 1
    return row["context"], row["target"], occurrence, row["pos"], {"config": config, "split": split, "id": row["id"]}


# -- Score ----------------------------------------------------------------------------------------------


_scorer_lock = threading.Lock()


def scorer_for(config: str, split: str, setting: str = "generative", include_problematic: bool = False) -> Scorer:
    with _scorer_lock:  # preparing references takes seconds for CoInCo: once per split
        return _scorer(config, split, setting, include_problematic)


@lru_cache(maxsize=16)
def _scorer(config: str, split: str, setting: str, include_problematic: bool) -> Scorer:
    # The references prepared when the dataset was built: no row dicts held, nothing lemmatized here.
    return Scorer.from_dataset(config, split, setting=setting, include_problematic=include_problematic)


def pr_curve(scorer: Scorer, predictions, ks: Iterable[int] = CURVE_KS) -> pd.DataFrame:
    """Precision and recall at every k, as the metric computes them (Scorer.precision_recall: one pass over
    predictions prepared once). Long format: k, setting, series, value."""
    curve = scorer.precision_recall(predictions, ks)
    records = []
    for setting in ("lenient", "strict"):
        for threshold, name in (("a", "acceptable"), ("c", "conceivable")):
            for k, values in curve.items():
                records.append({"k": k, "setting": setting, "series": f"P, {name}",
                                "value": values[f"{setting}_{threshold}_p"]})
                records.append({"k": k, "setting": setting, "series": f"R, {name}",
                                "value": values[f"{setting}_{threshold}_r"]})
    return pd.DataFrame(records, columns=["k", "setting", "series", "value"])


@dataclass
class ScoreResult:
    result: dict
    config: str
    split: str
    setting: str
    source: str  # the file's name, for messages
    curve: pd.DataFrame = field(default_factory=pd.DataFrame)
    file_format: str = ""

    def metrics_table(self) -> pd.DataFrame:
        intervals = self.result.get("confidence_intervals") or {}
        rows = []
        for label, key in METRIC_ROWS:
            interval = intervals.get(key)
            rows.append([label, key, round(self.result[key], 2),
                         f"[{interval[0]:.1f}, {interval[1]:.1f}]" if interval else ""])
        return pd.DataFrame(rows, columns=SCORE_METRIC_COLUMNS)

    def by_pos_table(self) -> pd.DataFrame:
        columns = BY_POS_COLUMNS
        rows = [
            [pos, int(m["targets_scored"])] + [round(m[key], 2) for key in
                                                ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10",
                                                 "strict_c_f@10", "gap")]
            for pos, m in (self.result.get("by_pos") or {}).items()
        ]
        return pd.DataFrame(rows, columns=columns)

    def published_table(self) -> pd.DataFrame:
        """This file's lenient F@10 / Fc@10 beside the paper's Table 4 rows."""
        rows = [["this file", f"{self.config} {self.split}",
                 round(self.result["lenient_a_f@10"], 1), round(self.result["lenient_c_f@10"], 1), "measured here"]]
        for entry in TABLE_4:
            rows.append([entry.label, f"{entry.config} {entry.split}", entry.metrics.get("lenient_a_f@10"),
                         entry.metrics.get("lenient_c_f@10"), SHORT_SOURCE])
        return pd.DataFrame(rows, columns=PUBLISHED_COLUMNS)

    def summary(self) -> str:
        r = self.result
        missing = r["targets_without_predictions"]
        line = (
            f"Scored **{self.source}** on **{self.config} {self.split}** ({self.setting}): "
            f"{r['targets_scored']:,} targets"
        )
        if missing:
            line += f", **{missing:,} without predictions** (they count as empty answers)"
        line += f". lenient F@10 **{r['lenient_a_f@10']:.1f}**, Fc@10 **{r['lenient_c_f@10']:.1f}**."
        if r.get("targets_skipped"):
            line += (f" CoInCo's {r['targets_skipped']} problematic targets are left out, as the upstream scorer "
                     "leaves them out (tick the box to include them).")
        if r.get("id_scheme") == "upstream" and self.config != "swords":
            line += " The file uses the upstream SWORDS library's target ids."
        unusual = r.get("input_notes") or {}
        parts = [f"{unusual[key]:,} {label}" for key, label in (
            ("empty_substitutes", "empty substitutes (wrong answers)"),
            ("target_copies", "copies of the target (dropped)"),
            ("duplicates", "duplicates after lemmatization (merged)"),
        ) if unusual.get(key)]
        if parts:
            line += " Scored as the upstream scorer scores them: " + ", ".join(parts) + "."
        return line

    def curve_for(self, setting: str) -> pd.DataFrame:
        return self.curve[self.curve["setting"] == setting].reset_index(drop=True)


def stored_predictions(folder: str | Path | None = None) -> list[tuple[str, str]]:
    """(label, file name) of the baseline predictions stored in the results folder."""
    choices = []
    for path in sorted(results_dir(folder).glob("*.jsonl")):
        run = _read_metrics(path.with_name(path.name[: -len(".jsonl")] + ".metrics.json")).get("run", {})
        label = f"{run['system']} · {run['dataset']} {run['split']}" if run.get("system") else path.name
        choices.append((label, path.name))
    return choices


def stored_split(name: str | None, folder: str | Path | None = None) -> str | None:
    """The benchmark split a stored predictions file was made for (its metrics file says)."""
    if not name:
        return None
    path = _stored_path(name, folder)
    run = _read_metrics(path.with_name(path.name[: -len(".jsonl")] + ".metrics.json")).get("run", {})
    if run.get("dataset") and run.get("split"):
        return data.split_label(run["dataset"], run["split"])
    return None


def _stored_path(name: str, folder: str | Path | None = None) -> Path:
    known = {file_name for _, file_name in stored_predictions(folder)}
    if name not in known:  # only the listed files: a name is never a path to elsewhere
        raise SpaceError(f"No stored predictions named {name!r}.")
    return results_dir(folder) / name


def _check_upload(path: Path, shown: str) -> None:
    if not path.is_file():
        raise SpaceError("The upload did not arrive; try again.")
    size = path.stat().st_size
    if size > MAX_UPLOAD_BYTES:
        raise SpaceError(f"{shown} is {size / 2**20:.1f} MB; the limit is {MAX_UPLOAD_BYTES // 2**20} MB.")
    if size == 0:
        raise SpaceError(f"{shown} is empty.")


def score_predictions(
    upload: str | Path | None,
    stored: str | None,
    split_label: str | None,
    setting: str | None = "generative",
    bootstrap: float | None = 1000,
    folder: str | Path | None = None,
    progress: Progress = _noop,
    include_problematic: bool = False,
) -> ScoreResult:
    """Score an uploaded predictions file (or a stored baseline's) on a benchmark split: every metric,
    bootstrap intervals, per POS, and the P/R curve at k = 1…20. Files may be keyed by the dataset's ids or
    by the upstream SWORDS library's."""
    config, split = _split(split_label)
    setting = setting or "generative"
    if setting not in ("generative", "ranking"):
        raise SpaceError("The setting is generative or ranking.")
    resamples = int(min(max(bootstrap or 0, 0), MAX_BOOTSTRAP))
    if upload:
        path = Path(upload)
        shown = path.name
        _check_upload(path, shown)
    elif stored:
        path = _stored_path(stored, folder)
        shown = path.name
    else:
        raise SpaceError("Upload a predictions file or choose a stored baseline first.")
    progress(0.05, f"preparing {config} {split}")
    scorer = scorer_for(config, split, setting, bool(include_problematic))
    progress(0.2, "reading the predictions")
    try:
        # Streamed: what is held is per target, not per substitute; a file is read once for every figure.
        predictions = scorer.read(path, max_bytes=MAX_UNCOMPRESSED_BYTES, max_target_chars=MAX_UNCOMPRESSED_BYTES,
                                  source=shown)
        progress(0.4, f"scoring, {resamples} bootstrap resamples")
        result = scorer.score(predictions, bootstrap=resamples)
        progress(0.8, "precision and recall at k = 1…20")
        curve = pr_curve(scorer, predictions)
    except UnknownTargetsError as error:
        hint = f". Choose {data.split_label(*error.belongs_to)} as the benchmark." if error.belongs_to else "."
        raise SpaceError(str(error).replace(str(path), shown) + hint) from None
    except MetricInputError as error:
        raise SpaceError(str(error).replace(str(path), shown)) from None
    progress(1.0, "done")
    return ScoreResult(result, config, split, setting, shown, curve, predictions.file_format or "")


# -- Leaderboard ----------------------------------------------------------------------------------------


def _read_metrics(path: Path) -> dict:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def leaderboard_columns() -> list[str]:
    return ["system", "benchmark", "targets", *[label for label, _ in LEADERBOARD_METRICS], "source"]


def leaderboard(folder: str | Path | None = None) -> tuple[pd.DataFrame, str]:
    """Stored baselines' results (every *.metrics.json of the results folder, as `swords run` writes
    them) and the paper's published figures, one row each; and a note on what was skipped."""
    columns = leaderboard_columns()
    rows, skipped = [], []
    for path in sorted(results_dir(folder).glob("*.metrics.json")):
        metrics = _read_metrics(path)
        run = metrics.get("run") or {}
        numbers = all(isinstance(metrics.get(key), int | float) for _, key in LEADERBOARD_METRICS)
        if not run.get("system") or not numbers:
            skipped.append(path.name)
            continue
        rows.append([run["system"], f"{run.get('dataset', '?')} {run.get('split', '?')}",
                     int(metrics.get("targets_scored", 0)),
                     *[round(float(metrics[key]), 1) for _, key in LEADERBOARD_METRICS], "measured (swords run)"])
    for entry in TABLE_4:
        rows.append([entry.label, f"{entry.config} {entry.split}", None,
                     *[entry.metrics.get(key) for _, key in LEADERBOARD_METRICS], SHORT_SOURCE])
    table = pd.DataFrame(rows, columns=columns)
    table = table.sort_values(["benchmark", "lenient Fc@10"], ascending=[True, False], na_position="last",
                              kind="stable").reset_index(drop=True)
    where = results_dir(folder).resolve()
    if where.is_relative_to(SPACE_DIR.parent):  # a path relative to the project, not the server's layout
        where = where.relative_to(SPACE_DIR.parent)
    note = f"{len(rows) - len(TABLE_4)} stored results from `{where}`"
    if skipped:
        note += f"; skipped (not a metrics file of `swords run`): {', '.join(skipped)}"
    return table, note + "."


def warm() -> None:
    """What the first requests need, loaded in the background at start: the example index, the SWORDS
    test scorer and the default system's model."""
    data.warm()
    scorer_for("swords", "test")
    systems.warm(systems.default_system())
