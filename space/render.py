"""HTML fragments for the UI. Every text from a user or a dataset goes through html.escape (untrusted); a word from
a user's file or a server is shown through `visible` wherever the page shows it, in HTML, tables and charts alike."""

from __future__ import annotations

import re
from html import escape

from swords_dataset.judgements import (
    ACCEPTABLE,
    ACCEPTABLE_ABOVE,
    CONCEIVABLE,
    CONCEIVABLE_FROM,
    JUDGED_UNACCEPTABLE,
    NOT_IN_BENCHMARK,
)
from swords_lexsub.terminal import shown
from swords_metric import RELATIONS

# Judgement of a suggestion against an example's gold, with its colours (text and background) and a
# word, so colour is never the only cue.
JUDGEMENTS = {
    ACCEPTABLE: ("#14532d", "#bbf7d0", f"acceptable (score > {ACCEPTABLE_ABOVE:g})"),
    CONCEIVABLE: ("#713f12", "#fef08a", f"conceivable (score ≥ {CONCEIVABLE_FROM:g})"),
    JUDGED_UNACCEPTABLE: ("#7f1d1d", "#fecaca", f"judged unacceptable (score < {CONCEIVABLE_FROM:g})"),
    NOT_IN_BENCHMARK: ("#1f2937", "#e5e7eb", "not in the benchmark"),
}

_CELL = "border:none;border-bottom:1px solid #e5e7eb;padding:3px 8px"
_BOX = "font-family: system-ui, sans-serif; line-height: 1.5; color: #111827; background: #ffffff; padding: 8px;"


def plural(count: int, word: str, words: str | None = None) -> str:
    """A count and its noun, agreeing: "1 judge", "2 judges" (`words`: an irregular plural)."""
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


def visible(word: str) -> str:
    """A word from a user's file or a server as the page shows it: lone surrogates, control characters and
    bidirectional overrides written as escapes (`\\ud800`, `\\x1b`, `\\u202e`), so the page shows what is there."""
    return shown(word)


_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+!|~>-])")


def markdown_text(text: object) -> str:
    """Text from a file for a Markdown output, never markup: escaped as `visible`, then `<` and `&` as entities and
    Markdown's punctuation behind a backslash."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", escape(visible(str(text)), quote=False))


# A paragraph's end in a benchmark's context: a blank line, or a line break before an indented line (a new line of
# dialogue). Any other line break is where the source's lines were wrapped, and is a space on the page: kept, it left
# lines of every length ("ragged"), as the source's width, not the page's, had wrapped them.
_PARAGRAPH_END = re.compile(r"[ \t]*\n(?:[ \t]*\n)+[ \t]*|[ \t]*\n(?=[ \t]+\S)[ \t]*")
_WRAPPED = re.compile(r"[ \t]*\n[ \t]*")


def _text(text: str) -> str:
    """Text of a context for the page: its paragraphs each starting on a new line, its wrapped lines joined."""
    paragraphs = _PARAGRAPH_END.split(text)
    return "<br>".join(escape(_WRAPPED.sub(" ", paragraph)) for paragraph in paragraphs)


def context_html(context: str, offset: int, length: int) -> str:
    """The context with the target marked, laid out evenly (_text): the page wraps its lines, not the source."""
    before, target, after = context[:offset], context[offset : offset + length], context[offset + length :]
    return (
        f'<div class="swords-context" style="{_BOX}">{_text(before)}'
        f'<mark class="swords-target" style="background:#fde047;color:#111827;font-weight:600;padding:0 2px">'
        f"{_text(target)}</mark>{_text(after)}</div>"
    )


def legend_html() -> str:
    chips = "".join(
        f'<span class="swords-chip" style="color:{fg};background:{bg};padding:1px 6px;border-radius:4px;'
        'margin-right:6px;white-space:nowrap;display:inline-block">'
        f"{escape(words)}</span>"
        for fg, bg, words in JUDGEMENTS.values()
    )
    return f'<div style="font-size:0.85em;margin-top:4px">{chips}</div>'


def swatches_html(colours: dict[str, str]) -> str:
    """A chart's legend: a swatch of each colour and its name, in the given order, wrapping as the width needs."""
    items = "".join(
        f'<span style="white-space:nowrap;margin-right:10px"><span style="display:inline-block;width:10px;'
        f'height:10px;background:{colour};margin-right:4px;vertical-align:middle"></span>{escape(name)}</span>'
        for name, colour in colours.items()
    )
    return f'<div class="swords-swatches" style="font-size:0.8em;line-height:1.6">{items}</div>'


def suggestions_html(suggestions: list[dict], with_gold: bool) -> str:
    """A ranked table of suggestions; with gold, each is coloured by its judgement."""
    if not suggestions:
        return f'<div style="{_BOX}"><em>No suggestions.</em></div>'
    names = ["#", "substitute", "system score"] + (["gold score", "judgement"] if with_gold else [])
    head = "".join(f'<th style="{_CELL};text-align:left">{name}</th>' for name in names)
    lines = []
    for item in suggestions:
        cells = f'<td style="{_CELL}">{item["rank"]}</td>'
        style = ""
        if with_gold:
            fg, bg, _ = JUDGEMENTS[item["judgement"]]
            style = f"color:{fg};background:{bg};padding:1px 6px;border-radius:4px"
        cells += (
            f'<td style="{_CELL}"><span class="swords-suggestion" style="{style}">{escape(item["substitute"])}</span>'
            f'</td><td style="{_CELL}">{item["score"] + 0.0:.4g}</td>'  # + 0.0: no "-0"
        )
        if with_gold:
            cells += "".join(f'<td style="{_CELL}">{escape(item[key])}</td>' for key in ("gold", "judgement"))
        lines.append(f'<tr data-judgement="{escape(item.get("judgement", ""))}">{cells}</tr>')
    legend = legend_html() if with_gold else ""
    return (
        f'<div style="{_BOX}"><table class="swords-suggestions" style="border-collapse:collapse;width:100%">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(lines)}</tbody></table>{legend}</div>"
    )


# The colour of a gold substitute's score bar, by its class.
BAR_COLOURS = {
    ACCEPTABLE: "#16a34a",
    CONCEIVABLE: "#ca8a04",
    JUDGED_UNACCEPTABLE: "#dc2626",
    NOT_IN_BENCHMARK: "#9ca3af",
}
# The precision/recall curves' colours (the Score tab), by series (score_result.pr_curve's names).
CURVE_COLOURS = {
    "P, acceptable": "#4c78a8",
    "R, acceptable": "#f58518",
    "P, conceivable": "#e45756",
    "R, conceivable": "#72b7b2",
}
# The colour of each WordNet relation (the Score tab's chart), in the metric's order: closer relations stronger,
# "other" and "not in WordNet" greys, as "not in the benchmark" is.
RELATION_COLOURS = dict(
    zip(
        RELATIONS, ("#16a34a", "#2563eb", "#60a5fa", "#9333ea", "#dc2626", "#d97706", "#6b7280", "#d1d5db"), strict=True
    )
)


def own_class(score: float) -> str:
    """The class a gold substitute's own score gives it (before the metric merges the forms of a lemma)."""
    return ACCEPTABLE if score > ACCEPTABLE_ABOVE else CONCEIVABLE if score >= CONCEIVABLE_FROM else JUDGED_UNACCEPTABLE


MERGED = "merged"


def substitutes_html(row: dict, labels: list[str]) -> str:
    """A benchmark example's gold substitutes, best first, each with a bar for its score coloured by its class as the
    metric counts it (`labels`, in the row's order); one the metric merged with another form of its lemma, so counted
    in another class than its own score's, is marked and explained below; a legend of the colours."""
    judged = sorted(zip(row.get("substitutes") or [], labels, strict=True), key=lambda pair: -pair[0]["score"])
    if not judged:
        return f'<div style="{_BOX}"><em>This example has no gold substitutes.</em></div>'
    top = max(s["score"] for s, _ in judged) or 1.0
    fraction = row.get("benchmark", "").startswith("swords")  # SWORDS: share of annotators; else a count
    lines, merged = [], []
    for s, label in judged:
        width = max(1.0, 100.0 * s["score"] / top)
        value = f"{s['score']:.2f} ({s['votes_positive']}/{s['votes_total']})" if fraction else f"{s['score']:g}"
        mark = ""
        if fraction and own_class(s["score"]) != label:
            merged.append(s["substitute"])
            mark = f' <span class="swords-merged" title="counted as {escape(label)}">· {MERGED}</span>'
        lines.append(
            f'<div data-judgement="{escape(label)}" title="{escape(label)}" '
            'style="display:flex;align-items:center;gap:8px;margin:2px 0">'
            f'<span style="width:12em;flex-shrink:0;text-align:right;overflow-wrap:anywhere">'
            f"{escape(s['substitute'])}</span>"
            f'<span style="flex:1;min-width:4em;background:#f3f4f6;height:12px;border-radius:3px">'
            f'<span style="display:block;width:{width:.1f}%;height:12px;background:{BAR_COLOURS[label]};'
            'border-radius:3px"></span></span>'
            f'<span style="width:10em;font-variant-numeric:tabular-nums">{escape(value)}{mark}</span></div>'
        )
    what = "share of annotators who judged it acceptable" if fraction else "number of annotators who gave it"
    note = ""
    if merged:
        note = (
            f'<div class="swords-merged-note" style="font-size:0.85em;margin-top:4px">{MERGED}: '
            f"{escape(', '.join(merged))} {'takes' if len(merged) == 1 else 'take'} the class of another form of "
            "the same lemma in the gold, as the metric merges a lemma's forms; the colour is that class, the "
            "figure its own.</div>"
        )
    return (
        f'<div style="{_BOX}"><div style="font-size:0.85em">Score: {what}. Colour: its class, as the metric counts '
        f"it.</div>{legend_html()}{note}{''.join(lines)}</div>"
    )


def example_header(config: str, split: str, row: dict) -> str:
    return (
        f'<div style="{_BOX}"><b>{escape(config)} {escape(split)}</b> · <code>{escape(row["id"])}</code> · '
        f"target <b>{escape(row['target'])}</b> ({escape(row['pos'])}, lemma <i>{escape(row['target_lemma'])}</i>)"
        f" · {len(row['substitutes'])} gold substitutes</div>"
    )
