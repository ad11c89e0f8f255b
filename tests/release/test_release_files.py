"""The release's own files: CITATION.cff (read with a YAML loader, as GitHub and Zenodo read it) names this
version and cites the benchmarks as the dataset card's BibTeX does."""

from __future__ import annotations

import configparser
import re

import pytest
import yaml

from swords_dataset import __version__
from swords_dataset.card import CITATIONS

from ..conftest import REPO_ROOT


@pytest.fixture(scope="module")
def citation() -> dict:
    return yaml.safe_load((REPO_ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def bibtex_fields(entry: str) -> dict[str, str]:
    """title, author, year, pages… of a BibTeX entry, LaTeX markup undone (braces, accents, quotes)."""
    fields = dict(re.findall(r'^\s*(\w+) = "(.*)",?$', entry, flags=re.M))
    for markup, text in (
        ("{\\'o}", "ó"),
        ("{\\'e}", "é"),
        ("{\\v{S}}", "Š"),
        ("``", '"'),
        ("''", '"'),
        ("{", ""),
        ("}", ""),
    ):
        fields = {name: value.replace(markup, text) for name, value in fields.items()}
    return fields


def test_citation_names_this_release(citation):
    setup = configparser.ConfigParser()
    setup.read(REPO_ROOT / "setup.cfg")
    assert citation["cff-version"] == "1.2.0"
    assert citation["type"] == "software"
    assert citation["version"] == __version__
    assert citation["license"] == setup["metadata"]["license"]
    assert citation["title"].startswith("swords-lexsub") and citation["authors"]


@pytest.mark.parametrize("benchmark", sorted(CITATIONS))
def test_citation_references_each_benchmark_as_the_dataset_card_does(citation, benchmark):
    bibtex = bibtex_fields(CITATIONS[benchmark])
    (reference,) = [ref for ref in citation["references"] if ref["title"] == bibtex["title"]]
    assert reference["type"] == "conference-paper"
    assert str(reference["year"]) == bibtex["year"]
    if "pages" in bibtex:
        assert f"{reference['start']}--{reference['end']}" == bibtex["pages"]
    else:  # no pages given where the card has none
        assert "start" not in reference and "end" not in reference
    assert reference["collection-title"] == bibtex["booktitle"]
    authors = [f"{person['family-names']}, {person['given-names']}" for person in reference["authors"]]
    assert " and ".join(authors) == bibtex["author"]


def test_citation_references_the_semeval_task_journal_paper(citation, sources_dir):
    """McCarthy & Navigli 2009, the SemEval-2007 task's full description, as the paper's first page gives it (the
    papers' text is beside the raw sources, in ../shared/papers)."""
    paper = sources_dir.parent / "papers" / "semeval2007-mccarthy-navigli2009.txt"
    if not paper.is_file():
        pytest.skip(f"{paper} not found")
    first_page = paper.read_text(encoding="utf-8")[:1000].replace("\xa0", " ")
    (article,) = [ref for ref in citation["references"] if ref["type"] == "article"]
    assert article["title"] in first_page and article["journal"] in first_page
    assert f"Volume {article['volume']}, Issue {article['issue']}, pp {article['start']}–{article['end']}" in first_page
    assert f"({article['year']}) {article['volume']}: {article['start']}. doi:{article['doi']}" in first_page
