"""Readable tables of results, in the layout of the SWORDS paper's Tables 4 (generative), 7 (ranking) and 8
(traditional metrics)."""

from __future__ import annotations

from swords_lexsub.terminal import shown

SWORDS_UNIT = "percentages, as the SWORDS paper reports them"  # the SWORDS reader table's how_shown
# What lenient, strict, A and C mean, in two short lines where a reader first meets them: the report below the
# SWORDS table, `swords run`'s and `swords evaluate`'s --help, the Score tab (the SWORDS reader table's `defined`).
# Lenient: the SWORDS paper's §5.4 ("filtering out model generated substitutes which are not in SWORDS"); A and C:
# its §3 (a score is the share of annotators who accepted the substitute; C from 10%, one of at most ten).
SWORDS_DEFINED = (
    "lenient: substitutes the benchmark never judged are left out; strict: they count as wrong.",
    "A: acceptable (score > 50%: most annotators accepted it); C: conceivable (>= 10%: one or more did).",
)
# What SemEval-2007's best is, below the table that shows it: its figures look small beside the papers' otherwise.
BEST_DEFINED = (
    "SemEval-2007's best divides a target's credit by the number of answers in its whole list (its",
    "systems gave one or a few), so a long list scores low; oot credits the first 10 answers.",
)
# What a note's "duplicates after lemmatization" are (swords_metric/predictions/lemmatized.py merges them).
DUPLICATES_MEANT = (
    'forms of one lemma in a target\'s list, as "runs" and "ran": counted once, at the best-ranked one\'s place'
)


def _cell(result: dict, name: str) -> str:
    value = f"{result[name]:6.2f}"
    interval = (result.get("confidence_intervals") or {}).get(name)
    return value + (f" [{interval[0]:.1f}, {interval[1]:.1f}]" if interval else "")


def table_text(lines: list[list[str]], left: int = 1) -> str:
    """Rows of cells as aligned text: the first `left` columns to the left, the others to the right."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i < left else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    )


def format_result(result: dict, title: str = "", setting: str = "generative", k: int = 10) -> str:
    """A plain-text report of one system's result dict (as Scorer.score returns it)."""
    out = [shown(title)] if title else []
    line = f"targets scored {result['targets_scored']}, without predictions {result['targets_without_predictions']}"
    if result.get("targets_skipped"):
        line += f"; {result['targets_skipped']} problematic targets left out (as upstream)"
    if result.get("id_scheme"):
        line += f"; keyed by {result['id_scheme']} ids"
    out += [line, f"figures: {SWORDS_UNIT}", ""]
    if setting == "ranking":
        gap = [["", "GAP", "GAP (ratio weights)"], ["", _cell(result, "gap"), _cell(result, "gap_rat")]]
        out += ["Ranking setting (Table 7)", table_text(gap), ""]
    out.append(f"Generative setting (Table 4): F@{k} against acceptable (A) and conceivable (C) references")
    table = [["", f"F@{k} A", f"F@{k} C", f"P@{k} A", f"R@{k} A", f"P@{k} C", f"R@{k} C"]]
    for name in ("lenient", "strict"):
        parts = (("a", "f"), ("c", "f"), ("a", "p"), ("a", "r"), ("c", "p"), ("c", "r"))
        table.append([name, *(_cell(result, f"{name}_{t}_{m}@{k}") for t, m in parts)])
    names = (
        "best_p best_r best_mode_p best_mode_r oot_p oot_r oot_mode_p oot_mode_r strict_c_p@1 gap lexsubgen_p@1 "
        "lexsubgen_p@3 lexsubgen_r@10"
    ).split()
    out += [
        table_text(table),
        *SWORDS_DEFINED,
        "",
        "Traditional metrics (Table 8) and LexSubGen's P/R",
        table_text(
            [["", *(n.replace("strict_c_", "") for n in names[:9])], ["", *(f"{result[n]:.2f}" for n in names[:9])]]
        ),
        table_text([["", *names[9:]], ["", *(f"{result[n]:.2f}" for n in names[9:])]]),
        *BEST_DEFINED,
    ]
    if result.get("by_pos"):
        table = [["POS", "targets", f"lenient F@{k} A", f"lenient F@{k} C", f"strict F@{k} C", "GAP", "oot_r"]]
        by_pos = (f"lenient_a_f@{k}", f"lenient_c_f@{k}", f"strict_c_f@{k}", "gap", "oot_r")
        for pos, metrics in result["by_pos"].items():
            table.append([pos, str(int(metrics["targets_scored"])), *(f"{metrics[n]:.2f}" for n in by_pos)])
        out += ["", "By part of speech", table_text(table)]
    out += ["", f"signature: {result['signature']}"]
    return "\n".join(out)


def format_comparison(comparison: dict, reader=None) -> str:
    """The paired test's table, any family's: each file's figures as the family's reader table prints them
    (`reader`, the SWORDS metrics' when None; TSAR-2022's floored, as tsar_eval.py prints them and as
    `--predictions` gives them); the difference and its interval, of the figures before any flooring."""
    d = 2 if reader is None else reader.decimals
    text = (lambda value: f"{value:.2f}") if reader is None else reader.text
    table = [["metric", shown(comparison["a"]), shown(comparison["b"]), "A - B", "95% interval", "p"]]
    for name, c in comparison["metrics"].items():
        table.append(
            [
                name,
                text(c["a"]),
                text(c["b"]),
                f"{c['difference']:+z.{d}f}",  # z: no "-0.00" for a difference that rounds to 0
                f"[{c['interval'][0]:+z.{d}f}, {c['interval'][1]:+z.{d}f}]",
                f"{c['p_value']:.4f}",
            ]
        )
    figures = f"figures: {SWORDS_UNIT if reader is None else reader.how_shown}"
    if reader is not None and reader.floored_decimals is not None:
        figures += f"; A - B and its interval: of the figures before flooring, to {d} decimals"
    return figures + "\n" + table_text(table) + f"\n\nsignature: {comparison['signature']}"


def _shortened(words: list[str], most: int) -> str:
    """The first `most` words, each shown as a terminal line can hold it, and how many more there are."""
    listed = ", ".join(shown(word) for word in words[:most])
    return listed + (f", … ({len(words) - most} more)" if len(words) > most else "") if words else "(none)"


def _target(record: dict) -> str:
    """A record's id, target word (quoted) and POS, escaped for the terminal."""
    return shown(f"{record['id']}  {record['target']!r} ({record['pos']})")


def format_analysis(analysis: dict) -> str:
    """The summary (Scorer.analyze) as a compact text section."""
    k, overall = analysis["k"], analysis["all"]
    groups = [
        ("all", overall),
        *analysis["by_pos"].items(),
        *((f"gold {label}", group) for label, group in analysis["by_gold_size"].items()),
    ]
    table = [
        ["", *(name for name, _ in groups)],
        ["targets", *(f"{group['targets']:,}" for _, group in groups)],
        [f"top-{k} substitutes", *(f"{group['substitutes']:,}" for _, group in groups)],
    ]
    for kind, shares in (("class:  ", "class_shares"), ("WordNet:", "relation_shares")):
        for i, name in enumerate(overall.get(shares, ())):
            label = f"{kind if i == 0 else ' ' * len(kind)} {name}"
            table.append([label, *(f"{group[shares][name]:.1f}" for _, group in groups)])
    out = [
        f"What the system proposed: shares (%) of its top-{k} substitutes a target, as precision counts them "
        f"({overall['substitutes']:,} over {overall['targets']:,} targets); gold N: targets with N acceptable "
        "substitutes",
        table_text(table),
    ]
    if analysis["worst_targets"]:
        out += ["", f"Worst targets ({analysis['worst_rule'].replace('@k', f'@{k}')})"]
        for target in analysis["worst_targets"]:
            out.append(
                f"  {_target(target)}  lenient F@{k} A {target['lenient_a_f']:.1f}, {target['acceptable']} acceptable"
            )
            out.append(f"      top: {_shortened(target['top'], 6)}")
            out.append(f"      missed: {_shortened(target['acceptable_missed'], 6)}")
    return "\n".join(out)


def format_differences(differences: list[dict], k: int = 10) -> str:
    """The targets where two systems differ most (Scorer.differences), with both systems' top substitutes."""
    if not differences:
        return f"No target's lenient F@{k} against acceptable differs between the two systems."
    out = [f"Targets where the systems differ most (per-target lenient F@{k} against acceptable, A - B)"]
    for pair in differences:
        out.append(
            f"  {pair['difference']:+z7.1f}  {_target(pair)}  "
            f"A {pair['a_lenient_a_f']:.1f}, B {pair['b_lenient_a_f']:.1f}"
        )
        out.append(f"           A: {_shortened(pair['a_top'], 6)}")
        out.append(f"           B: {_shortened(pair['b_top'], 6)}")
    return "\n".join(out)
