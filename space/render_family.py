"""ProLex's and TSAR-2022's examples as the Explore tab shows them: what each has (ProLex: the experts' judgements,
the proficiency-oriented subset, CEFR levels; TSAR-2022: annotator counts, the most frequent marked) and, plainly,
what it lacks, with its license. Every text from the data goes through html.escape."""

from __future__ import annotations

from html import escape

from swords_dataset.card import DESCRIPTIONS

# The lines saying what these benchmarks lack, where a SWORDS row shows its POS, lemma and graded score.
NO_POS_OR_LEMMA = "no POS, no lemma: the benchmark gives none"
PROLEX_SCORE = (
    "Judgement: the experts' binary acceptable / unacceptable (no graded score); proficiency-oriented: "
    "an acceptable substitute at or above the target's CEFR level (ProLex's own subset)."
)
TSAR_SCORE = (
    "Score: how many annotators gave the substitute (no graded judgement of each one); ★ the most frequent, "
    "the gold of ACC@k@Top1."
)
# ProLex's CEFR levels as its source gives them: 0-5 = A1-C2; 6 and -1 occur, undocumented (see the dataset card).
CEFR_NAMES = ("A1", "A2", "B1", "B2", "C1", "C2")
# Colours (text, background) of a ProLex judgement, and its word: colour is never the only cue.
PROLEX_CHIPS = {
    "acceptable": ("#14532d", "#bbf7d0", "acceptable"),
    "unacceptable": ("#7f1d1d", "#fecaca", "unacceptable"),
    "proficiency_acceptable": ("#1e3a8a", "#bfdbfe", "proficiency-oriented"),
    "proficiency_unacceptable": ("#374151", "#e5e7eb", "not proficiency-oriented"),
}
_BOX = "font-family: system-ui, sans-serif; line-height: 1.5; color: #111827; background: #ffffff; padding: 8px;"
_BAR = "#2563eb"


def cefr_name(level: int | None) -> str:
    """A ProLex CEFR level as a name: 3 -> "B2"; "—" when none is given; an undocumented value as it is."""
    if level is None:
        return "—"
    return CEFR_NAMES[level] if 0 <= level < len(CEFR_NAMES) else f"{level} (undocumented)"


def example_header(config: str, split: str, row: dict) -> str:
    """The header of a ProLex or TSAR-2022 example: what it has and, plainly, what it lacks; its license."""
    level = row.get("target_cefr")
    cefr = f" · target CEFR <b>{escape(cefr_name(level))}</b>" if level is not None else ""
    return (
        f'<div style="{_BOX}"><b>{escape(config)} {escape(split)}</b> · <code>{escape(row["id"])}</code> · '
        f"target <b>{escape(row['target'])}</b> ({NO_POS_OR_LEMMA}){cefr} · {len(row['substitutes'])} gold "
        f'substitutes<div class="swords-license" style="font-size:0.85em">{escape(DESCRIPTIONS.get(config, ""))}'
        "</div></div>"
    )


def _chip(label: str) -> str:
    fg, bg, words = PROLEX_CHIPS[label]
    return (
        f'<span class="swords-chip" style="color:{fg};background:{bg};padding:1px 6px;border-radius:4px;'
        'margin-right:4px;white-space:nowrap;display:inline-block">'
        f"{escape(words)}</span>"
    )


def _prolex_html(row: dict) -> str:
    lines = []
    for s in row["substitutes"]:
        chips = "".join(_chip(label) for label in s["labels"] if label in PROLEX_CHIPS)
        level = f"CEFR {cefr_name(s['cefr'])}" if s.get("cefr") is not None else ""
        lines.append(
            f'<div data-labels="{escape(" ".join(s["labels"]))}" style="display:flex;gap:8px;margin:2px 0">'
            f'<span style="width:12em;flex-shrink:0;text-align:right;overflow-wrap:anywhere">'
            f"{escape(s['substitute'])}</span><span>{chips}</span>"
            f'<span style="font-variant-numeric:tabular-nums">{escape(level)}</span></div>'
        )
    acceptable = sum("acceptable" in s["labels"] for s in row["substitutes"])
    counts = f"{acceptable} acceptable, {len(row['substitutes']) - acceptable} not (of {len(row['substitutes'])})"
    return f'<div style="{_BOX}"><div style="font-size:0.85em">{PROLEX_SCORE} {counts}.</div>{"".join(lines)}</div>'


def _tsar_html(row: dict) -> str:
    substitutes = sorted(row["substitutes"], key=lambda s: -s["score"])
    top = substitutes[0]["score"] if substitutes else 0
    lines = []
    for s in substitutes:
        given, annotators = s["votes_positive"], s["votes_total"]
        lines.append(
            f'<div data-count="{given}" style="display:flex;align-items:center;gap:8px;margin:2px 0">'
            f'<span style="width:12em;flex-shrink:0;text-align:right;overflow-wrap:anywhere">'
            f"{'★ ' if s['score'] == top else ''}{escape(s['substitute'])}</span>"
            f'<span style="flex:1;min-width:4em;background:#f3f4f6;height:12px;border-radius:3px">'
            f'<span style="display:block;width:{max(1.0, 100.0 * given / (annotators or 1)):.1f}%;height:12px;'
            f'background:{_BAR};border-radius:3px"></span></span>'
            f'<span style="width:10em;font-variant-numeric:tabular-nums">{given} of {annotators} annotators</span>'
            "</div>"
        )
    return f'<div style="{_BOX}"><div style="font-size:0.85em">{TSAR_SCORE}</div>{"".join(lines)}</div>'


def substitutes_html(row: dict) -> str:
    """A ProLex or TSAR-2022 example's gold: annotators' counts (TSAR-2022) as bars, experts' judgements as labels."""
    if not row.get("substitutes"):
        return f'<div style="{_BOX}"><em>This example has no gold substitutes.</em></div>'
    counted = all(s.get("votes_total") is not None for s in row["substitutes"])
    return _tsar_html(row) if counted else _prolex_html(row)
