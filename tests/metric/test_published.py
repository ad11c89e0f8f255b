"""Published results: one shipped file (swords_metric/published-results.json) that the CLI's --published, the
Space and the manual read; the manual's tables are checked against it, and the rows the toolkit reproduces are
checked against the systems that reproduce them."""

from __future__ import annotations

import json

import swords_dataset
from swords_baselines.system import SYSTEMS
from swords_metric import published_papers, published_results, published_systems
from swords_metric.families import family_of
from swords_metric.published import PUBLISHED_METRICS, _columns

from ..baselines.run_helpers import swords
from ..conftest import REPO_ROOT
from .real_systems import COINCO_ORACLE

FIELDS = {
    "system",
    "paper",
    "table",
    "config",
    "split",
    "setting",
    "variant",
    "metrics",
    "verified",
    "where",
    "reproduced_by",
}
OPTIONAL_FIELDS = {"reranked_by", "items_with_duplicates"}


def test_every_row_is_complete_and_cites_a_known_paper():
    payload = json.loads((REPO_ROOT / "swords_metric" / "published-results.json").read_text())
    rows = payload["rows"]
    assert rows and all(FIELDS <= set(row) <= FIELDS | OPTIONAL_FIELDS for row in rows)
    papers = published_papers()
    for row in published_results():
        assert row.paper in papers
        assert {"cite", "authors", "year", "title", "venue", "url", "text"} <= set(papers[row.paper])
        assert row.metrics and set(row.metrics) <= set(PUBLISHED_METRICS), row
        assert row.setting in ("generative", "ranking") and row.variant and row.where
        assert row.reproduced_by is None or SYSTEMS.get(row.reproduced_by) is not None, row.reproduced_by
        lenient = any(key.startswith("lenient_") for key in row.metrics)
        strict = any(key.startswith("strict_") and key != "strict_c_p@1" for key in row.metrics)
        assert row.variant.startswith(
            {
                (True, True): "lenient and strict",
                (True, False): "lenient",
                (False, True): "strict",
                (False, False): "not applicable",
            }[lenient, strict]
        )
    # The figures issue 16 quoted (GPT-3: SWORDS Table 4, now read in the table: the unreranked row; Wada et al.
    # 2022: Tables 1 and 2, from its code README), and Wada's SemEval-2007 GAP that issue 25 quotes.
    gpt3 = next(row for row in published_results() if row.system == "GPT-3")
    assert (
        gpt3.metrics == {"lenient_a_f@10": 34.6, "lenient_c_f@10": 49.0, "strict_a_f@10": 22.7, "strict_c_f@10": 36.3}
        and gpt3.verified
        and gpt3.reranked_by is None
    )
    wada = {
        (row.table, row.config, row.split, row.verified): row.metrics
        for row in published_results()
        if row.paper == "wada2022"
    }
    assert wada == {
        ("1", "swords", "test", True): {
            "lenient_a_f@10": 33.61,
            "lenient_c_f@10": 65.84,
            "strict_a_f@10": 24.52,
            "strict_c_f@10": 39.9,
        },
        ("2", "swords", "test", True): {"gap_rat": 62.9},
        (None, "semeval07", "trial+test", False): {"gap": 64.97},
    }


def published_markdown(family: str = "swords") -> str:
    """The manual's table of one family's published results: every system of every paper, with its citation."""
    configs = {config for config in swords_dataset.CONFIGS if family_of(config) is family_of(family)}
    rows = [row for row in published_systems() if row.config in configs]
    columns = _columns(rows)
    lines = [
        "| system | benchmark | source | setting | " + " | ".join(PUBLISHED_METRICS[k] for k in columns) + " |",
        "| --- " * (4 + len(columns)) + "|",
    ]
    for row in rows:
        cells = [row.label, f"{row.config} {row.split}", row.source, row.setting, *(row.figure(key) for key in columns)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def test_the_manual_shows_the_file():
    """The manual's Published results page holds every row on the SWORDS metrics' benchmarks (TSAR-2022's rows
    have their own columns: published_markdown("tsar2022"))."""
    readme = (REPO_ROOT / "docs" / "scoring" / "published.md").read_text(encoding="utf-8")
    assert published_markdown() in readme
    swords_systems = [row for row in published_systems() if not row.config.startswith(("tsar2022", "prolex"))]
    assert published_markdown().count("\n") == len(swords_systems) + 1
    assert published_markdown("tsar2022") in readme


def test_the_baseline_table_quotes_the_file():
    """The manual's baseline table gives the SWORDS paper's figures in parentheses: they are the file's, for every
    column the table shows, of the rows the system reproduces."""
    readme = (REPO_ROOT / "docs" / "baselines" / "index.md").read_text(encoding="utf-8")
    shown = (
        "lenient_a_f@10",
        "lenient_c_f@10",
        "strict_a_f@10",
        "strict_c_f@10",
        "gap_rat",
        "best_r",
        "best_mode_r",
        "oot_r",
        "oot_mode_r",
        "strict_c_p@1",
    )
    quoted = {
        "thesaurus-oracle": "Thesaurus (oracle)",
        "coinco-oracle": "CoInCo (oracle)",
        "humans-acceptable": "Humans",
        "humans-conceivable": "Humans",
        "humans-all": "Humans",
    }
    for system, label in quoted.items():
        line = next(line for line in readme.splitlines() if line.startswith(f"| {system} ") and "| swords" in line)
        figures = [
            float(cell.split("(")[1].rstrip(") "))
            for cell in line.split("|")
            if "(" in cell and not cell.strip().startswith(system)
        ]
        published = {
            key: value
            for row in published_results()
            if row.system == label and row.reproduced_by == system
            for key, value in row.metrics.items()
            if key in shown
        }
        assert figures and sorted(figures) == sorted(published.values()), (system, figures, published)


def test_published_beside_a_run(tmp_path):
    done = swords("evaluate", "--predictions", str(COINCO_ORACLE), "--bootstrap", "0", "--published")
    assert done.returncode == 0, done.stderr
    text = done.stdout[done.stdout.index("Published results on swords test") :]
    run_line = next(line for line in text.splitlines() if line.startswith("this run"))
    assert "33.88" in run_line and "63.66" in run_line  # this run's lenient F@10 A and C
    assert "published: GPT-3 † (reranked by BERT)" in text and "Lee et al. 2021, Tables 4, 7, 8" in text
    gpt3 = next(line for line in text.splitlines() if line.startswith("published: GPT-3 ") and "†" not in line)
    assert gpt3.split()[-9:] == ["34.6", "49.0", "22.7", "36.3", "2.5", "22.4", "22.8", "45.5", "70.9"]
    assert "unverified" not in text
    assert "published: DeBERTa-V3 (decontextualised embeddings, reranked)" in text and "Wada et al. 2022" in text
    assert text.index("this run") < text.index("published: ")  # this run apart, before the published rows
    assert "Humans" not in text  # the humans' row is of swords_test_subset, not swords test
    done = swords("evaluate", "--predictions", str(COINCO_ORACLE), "--bootstrap", "0", "--published", "--json")
    result = json.loads(done.stdout)
    assert result["published"]["this_run"]["lenient_a_f@10"] == result["lenient_a_f@10"]
    assert {row["status"] for row in result["published"]["published"]} == {"published"}
    table7 = [row for row in result["published"]["published"] if row["table"] == "7"]  # --json: P and R too
    assert len(table7) == 12 and all("lenient_c_r@10" in row["metrics"] for row in table7)
    assert "oot_r" in result["published"]["this_run"] and "gap" not in result["published"]["this_run"]


def test_published_where_no_paper_reports_is_one_line_not_an_error(tmp_path):
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": "semeval07:1", "substitutes": ["mind"]}\n')
    done = swords(
        "evaluate",
        "--dataset",
        "semeval07",
        "--split",
        "trial",
        "--predictions",
        str(predictions),
        "--bootstrap",
        "0",
        "--published",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == (
        "No published results on semeval07 trial in this toolkit's table (swords_metric/published-results.json)."
    )
    line = swords("evaluate", "--compare", str(COINCO_ORACLE), str(COINCO_ORACLE), "--published").stderr.strip()
    assert line.endswith("--published goes with --predictions (a single system), not --compare")
