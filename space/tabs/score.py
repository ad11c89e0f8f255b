"""The Score tab: a predictions file (an upload or a stored baseline's), read once as a stream (score_files.py), scored
by the metric's one evaluation and laid out by score_result.py, score_analysis.py and score_compare.py."""

from __future__ import annotations

from pathlib import Path

import gradio as gr

from swords_metric import MetricInputError, evaluate
from swords_space import benchmarks, memory, render, scoring
from swords_space import published as beside
from swords_space.errors import SpaceError
from swords_space.events import Progress, messages, no_progress, tracker
from swords_space.inputs import Checkbox, Dropdown, PredictionsFile, Radio, Slider
from swords_space.stored import stored_predictions, stored_split
from swords_space.table_widths import read_only_table
from swords_space.tabs import explore, score_analysis, score_compare, score_judgments, score_result
from swords_space.tabs.score_files import MAX_UPLOAD_BYTES, chosen_file, read_predictions
from swords_space.tabs.score_result import BY_POS_COLUMNS, SCORE_METRIC_COLUMNS, ScoreResult

# Two scores at once: files are read as streams (memory grows with the targets, not the file), so three ~19 MB
# CoInCo files and a bomb at once peak under 1 GB (benchmarks/bench_space.py); a bomb never waits behind one.
SCORE_CONCURRENCY = 2
MAX_BOOTSTRAP = 2000
DEFAULT_SPLIT = "swords test"

# -- handlers -----------------------------------------------------------------------------------------------


def score_predictions(
    upload: str | Path | None,
    stored: str | None,
    split_label: str | None,
    setting: str | None = "generative",
    bootstrap: float | None = 1000,
    folder: str | Path | None = None,
    progress: Progress = no_progress,
    include_problematic: bool = False,
    compare_upload: str | Path | None = None,
    compare_stored: str | None = None,
    judgments: list | None = None,
) -> ScoreResult:
    """Score an uploaded predictions file (or a stored baseline's) on a benchmark split by its shared scorer: every
    figure of the evaluation, with judgments files the extended ones, the family's P/R curve at k = 1…20, and with a
    second file the paired test and where the two differ most. Ids: the dataset's or upstream's."""
    config, split = benchmarks.choose_split(split_label)
    setting = setting or "generative"
    if setting not in ("generative", "ranking"):
        raise SpaceError("The setting is generative or ranking.")
    resamples = int(min(max(bootstrap or 0, 0), MAX_BOOTSTRAP))
    path = chosen_file(upload, stored, folder)
    if path is None:
        raise SpaceError("Upload a predictions file or choose a stored baseline first.")
    other = chosen_file(compare_upload, compare_stored, folder)
    shown = render.visible(path.name)  # an upload's name is the sender's
    other_shown = (
        "" if other is None else render.visible(other.name if other.name != path.name else f"{other.name} (compared)")
    )
    progress(0.05, f"preparing {config} {split}")
    scorer = scoring.scorer_for(config, split, setting, bool(include_problematic))
    progress(0.15, "reading the predictions")
    predictions = read_predictions(scorer, path, shown)
    if other is not None:
        progress(0.3, "reading the file to compare with")
        other_predictions = read_predictions(scorer, other, other_shown)
    judged = score_judgments.checked(judgments)
    names = {str(path): shown, **{str(file): name for file, name in judged}}  # as the user knows the files
    options = {"dataset": config, "scorer": scorer, "setting": setting, "style": "space"}  # refused in its words
    try:
        progress(0.4, f"scoring, {resamples} bootstrap resamples; what it proposed")
        evaluation = evaluate(
            path if judged else predictions,  # the gold judgments extend reads the file again (its size checked)
            judgments=[file for file, _ in judged] or None,
            include_problematic=bool(include_problematic),
            bootstrap=resamples,
            worst=score_analysis.WORST_TARGETS,
            relations=True,
            source=shown,
            **options,
        )
        progress(0.7, "precision and recall at k = 1…20")
        curve = evaluation.family.curve(scorer, predictions, score_result.CURVE_KS)
        comparison = None
        if other is not None:  # the paired test, on every benchmark (as swords evaluate --compare)
            progress(0.8, f"comparing, {score_compare.PAIRED_RESAMPLES} paired resamples")
            comparison = evaluate(
                compare=(predictions, other_predictions),
                bootstrap=score_compare.PAIRED_RESAMPLES,
                differences=score_compare.DIFFERENCES_SHOWN,
                sources=(shown, other_shown),
                **options,
            ).comparison
    except MetricInputError as error:
        raise SpaceError(_as_known(str(error), names)) from None
    if "judgments" in evaluation.result:  # the merge's notes (a cut last line, …) name the uploads too
        judged_notes = evaluation.result["judgments"]["notes"]
        evaluation.result["judgments"]["notes"] = [_as_known(note, names) for note in judged_notes]
    progress(1.0, "done")
    scored = (evaluation.result, evaluation.family, config, split, setting, shown, score_result.curve_frame(curve))
    return ScoreResult(*scored, predictions.file_format or "", other_shown, comparison)


def _as_known(text: str, names: dict[str, str]) -> str:
    """The uploads named as the user knows them, not by the server's copies."""
    for where, name in names.items():
        text = text.replace(where, name)
    return text


# -- events -------------------------------------------------------------------------------------------------


def on_score(
    upload=None,
    stored=None,
    split_label=DEFAULT_SPLIT,
    setting="generative",
    bootstrap=1000,
    curve_setting="lenient",
    include_problematic=False,
    compare_upload=None,
    compare_stored=None,
    judgments=None,
    progress=gr.Progress(),  # noqa: B008 (Gradio's way to ask for a progress bar)
):
    try:
        with messages():
            result = score_predictions(
                upload,
                stored,
                split_label,
                setting,
                bootstrap,
                progress=tracker(progress),
                include_problematic=bool(include_problematic),
                compare_upload=compare_upload,
                compare_stored=compare_stored,
                judgments=judgments,
            )
    finally:  # a large file's parsed predictions are garbage now: give their memory back
        memory.release()
    return score_result.scored(result, curve_setting)


def on_score_page(*values, progress=gr.Progress()):  # noqa: B008 (Gradio's way to ask for a progress bar)
    """The page's Score button: on_score, but a file it cannot score is a message that stays (score_result)."""
    try:
        return *score_result.fitted(on_score(*values, progress=progress)), ""
    except gr.Error as error:
        return *score_result.not_scored(), f"{score_result.NOT_SCORED} {error.message}"


def on_published_notes(split_label):
    """The note below the table beside the published rows: what its setting labels [1], [2], … stand for."""
    return beside.notes(*benchmarks.parse_split_label(split_label)) if split_label else ""


def on_curve_setting(curve, setting):
    return gr.skip() if curve is None or len(curve) == 0 else curve[curve["setting"] == setting].reset_index(drop=True)


def on_stored(name):
    if not name:
        return gr.skip(), gr.skip()
    with messages():
        split_label = stored_split(name)
    return None, (split_label or gr.skip())


def on_compare_stored(name):
    return None if name else gr.skip()  # a stored file chosen: the upload it replaces goes


# -- layout -------------------------------------------------------------------------------------------------


def build(splits: list[str], fill: explore.ExampleTarget, tabs: gr.Tabs) -> None:
    """The tab's components (inside its gr.Tab) and events; a selected target fills `fill` and switches `tabs`."""
    curve_state = gr.State(None)  # this session's whole curve: switching lenient/strict redraws without rescoring
    scored_split = gr.State(None)  # the benchmark split the tables' targets belong to
    upload_mb = MAX_UPLOAD_BYTES // 2**20
    with gr.Row():
        with gr.Column(scale=1):
            upload = PredictionsFile(
                "The predictions file",
                f"Predictions file (upstream JSON or JSONL, .gz "
                f"allowed; TSAR-2022's .tsv, ProLex's .csv; at most {upload_mb} MB)",
                "score-file",
            )
            stored = Dropdown(
                stored_predictions(), value=None, label="…or a stored baseline's predictions", elem_id="score-stored"
            )
            compare_upload, compare_stored = score_compare.inputs(stored_predictions(), upload_mb)
            judgments = score_judgments.inputs()
            split = Dropdown(splits, value=DEFAULT_SPLIT, label="Benchmark", elem_id="score-split")
            with gr.Row():
                setting = Radio(["generative", "ranking"], value="generative", label="Setting")
                bootstrap = Slider(0, MAX_BOOTSTRAP, value=1000, step=100, label="Bootstrap resamples (95% intervals)")
            include_problematic = Checkbox(
                False,
                label="CoInCo: also score its 'problematic' targets (the upstream scorer leaves them out)",
                elem_id="score-problematic",
            )
            score = gr.Button("Score", variant="primary", elem_id="score")
            status = gr.Markdown(elem_id="score-status")  # why a file was not scored, below the button pressed
        with gr.Column(scale=2):
            summary = gr.Markdown(label="Summary", elem_id="score-summary")
            metrics = read_only_table(
                label="Metrics (percent)",
                elem_id="score-metrics",
                headers=SCORE_METRIC_COLUMNS,
            )
            gr.Markdown(scoring.DEFINED, elem_id="score-defined")  # where a reader first meets the words
            signature = gr.Textbox(label="Signature", elem_id="score-signature", interactive=False)
            extended = score_judgments.outputs()
    # The panels of the SWORDS metrics, shown where the evaluation has them (score_result.scored).
    with gr.Column(elem_id="score-swords-panels") as charts_block:
        gr.Markdown(score_result.SWORDS_ONLY.replace("apply", "below apply", 1), elem_id="score-swords-only")
        with gr.Row(elem_id="score-charts"):
            with gr.Column():
                curve_setting = Radio(["lenient", "strict"], value="lenient", label="Curve")
                curve = gr.LinePlot(
                    x="k",
                    y="value",
                    color="series",
                    label="Precision and recall at k",
                    x_title="k",
                    y_title="percent",
                    y_lim=[0, 100],
                    elem_id="score-curve",
                    color_map=render.CURVE_COLOURS,
                    colors_in_legend=[],
                )
                gr.HTML(render.swatches_html(render.CURVE_COLOURS))  # wraps, where the chart's own legend is cut
            with gr.Column():
                classes = score_analysis.share_plot(  # coloured as the Substitute and Explore tabs colour the classes
                    "Its top 10, by the benchmark's judgement", render.BAR_COLOURS, "score-classes"
                )
            with gr.Column():
                relations = score_analysis.share_plot(
                    "Its top 10, by WordNet relation to the target", render.RELATION_COLOURS, "score-relations"
                )
    published = read_only_table(
        label=f"{beside.TITLE} (percent)",
        elem_id="score-published",
        headers=beside.columns("swords", "test"),
        wrap=True,
    )
    published_notes = gr.Markdown(elem_id="score-published-notes")
    gr.Markdown(f"Published rows: {beside.citations()}. Blank: not reported.")
    with gr.Column(elem_id="score-worst-block") as worst_block:
        worst = score_analysis.worst_targets()
    compare_block, comparison, difference_chart, differences, difference_block = score_compare.outputs()
    with gr.Column(elem_id="score-by-pos-block") as by_pos_block:
        by_pos = read_only_table(
            label="By part of speech (percent)",
            elem_id="score-by-pos",
            headers=BY_POS_COLUMNS,
        )

    inputs = [
        upload,
        stored,
        split,
        setting,
        bootstrap,
        curve_setting,
        include_problematic,
        compare_upload,
        compare_stored,
        judgments,
    ]
    outputs = [
        summary,
        metrics,
        by_pos,
        curve,
        published,
        signature,
        classes,
        relations,
        worst,
        comparison,
        difference_chart,
        differences,
        curve_state,
        scored_split,
        compare_block,
        *extended,
        charts_block,
        worst_block,
        by_pos_block,
        difference_block,
    ]
    # The API's /score answers a file it cannot score with an error; the page shows it in the summary instead.
    api_score = gr.Button(visible=False)
    shared = {"concurrency_limit": SCORE_CONCURRENCY, "concurrency_id": "score"}  # both events, one limit
    api_score.click(on_score, inputs, outputs, api_name="score", **shared)
    scored = score.click(on_score_page, inputs, [*outputs, status], api_visibility="private", **shared)
    scored.then(on_published_notes, scored_split, published_notes, api_visibility="private")
    curve_setting.change(on_curve_setting, [curve_state, curve_setting], curve, api_visibility="private")
    stored.change(on_stored, stored, [upload, split], api_visibility="private")
    split.change(score_judgments.on_split, split, judgments, api_visibility="private")
    compare_stored.change(on_compare_stored, compare_stored, compare_upload, api_visibility="private")
    for table in (worst, differences):
        table.select(score_analysis.on_open_target, scored_split, [*fill.outputs(), tabs], api_visibility="private")
