"""The manual and the README as documents: the manual builds with `mkdocs build --strict` (a broken link or anchor,
a page outside the navigation, an API name that does not resolve fails it); the README is one screen that reads
the same on PyPI (no relative link or image) and links only to pages and anchors the built manual has; the
package cards link only to absolute addresses too; and `.ci/run` runs the README's test command as written.
The commands and code blocks themselves are run by test_docs_snippets.py."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .conftest import build_site
from .doc_blocks import CARDS, DOCS, README, REPO_ROOT, blocks, documents

CONTRIBUTING = REPO_ROOT / "CONTRIBUTING.md"  # read in the clone and on the forge: it links to the manual too
SITE_URL = "https://swords-lexsub.readthedocs.io/"
MANUAL_URL = SITE_URL + "en/latest/"
MAX_README_LINES = 100
# Markdown links and images, and HTML ones: (target) of [text](target), ![alt](target), href="…", src="…".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|(?:href|src)=[\"']([^\"']+)[\"']")
BARE_URL = re.compile(r"https?://[^\s)>\]`\"'|*]+")
CODE = re.compile(r"`[^`\n]*`")
FENCED = re.compile(r"^\s*```.*?^\s*```", re.S | re.M)


def links(text: str) -> list[str]:
    """Every link and image target of a Markdown text, and its bare URLs (code is not prose: left out)."""
    text = CODE.sub("", FENCED.sub("", text))
    marked = [a or b for a, b in LINK.findall(text)]
    return marked + [url.rstrip(".,;:") for url in BARE_URL.findall(LINK.sub(" ", text))]


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)


def page_ids(html: Path) -> set[str]:
    parser = _Ids()
    parser.feed(html.read_text(encoding="utf-8"))
    return parser.ids


def built_page(site: Path, url: str) -> tuple[Path, str]:
    """The built file a manual URL names, and its anchor ('' if none)."""
    parts = urlsplit(url)
    path = parts.path
    prefix = urlsplit(MANUAL_URL).path if parts.path.startswith(urlsplit(MANUAL_URL).path) else urlsplit(SITE_URL).path
    relative = path[len(prefix) :]
    target = site / relative / "index.html" if not relative or relative.endswith("/") else site / relative
    return target, parts.fragment


@pytest.mark.slow  # 3 s on two cores
def test_the_manual_builds_strict_without_a_warning(built_site):
    site, build = built_site
    output = build.stdout + build.stderr
    assert build.returncode == 0, output[-4000:]
    assert not re.search(r"^(WARNING|ERROR)\b", output, re.M), output[-4000:]
    # The build, as a user runs it, is silent but for the manual: no third-party notice about MkDocs' future
    # (setup.cfg bounds the theme and gen-files below the releases that print one on every build).
    for notice in ("MKDOCS_2_WARNING", "MkDocs 2.0", "ProperDocs", "end of life"):
        assert notice not in output, output[:3000]
    assert (site / "index.html").is_file() and (site / "score-tab.png").is_file()
    # The CLI reference is written from the parsers: every subcommand and every system is there.
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in (
        "swords evaluate",
        "swords run",
        "swords data build",
        "swords hub export",
        "swords llm serve",
        "swords lm-eval path",
        "swords demo",
        "swords run --system wordnet+embedding",
    ):
        assert f"usage: {command}" in cli, command
    assert "--include-problematic" in cli and "--max-tokens" in cli
    # The Python API is rendered from the docstrings of the public names.
    api = page_ids(site / "reference" / "api" / "index.html")
    assert {
        "swords_metric.Scorer",
        "swords_metric.Scorer.from_dataset",
        "swords_dataset.load",
        "swords_dataset.rows",
        "swords_metric.published_results",
    } <= api


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_a_broken_link_or_anchor_fails_the_build(tmp_path):
    """The same configuration, one page given a link to a missing page and one to a missing anchor."""
    pytest.importorskip("mkdocs", reason="the manual needs the docs extra: pip install -e '.[docs]'")
    shutil.copy(REPO_ROOT / "mkdocs.yml", tmp_path)
    shutil.copytree(DOCS, tmp_path / "docs")
    for package in ("swords_dataset", "swords_metric"):
        (tmp_path / package).symlink_to(REPO_ROOT / package, target_is_directory=True)
    page = tmp_path / "docs" / "speed.md"
    page.write_text(page.read_text() + "\n[gone](no-such-page.md) and [nowhere](index.md#no-such-anchor)\n")
    build = build_site(tmp_path, tmp_path / "site")
    output = build.stdout + build.stderr
    assert build.returncode != 0
    assert "no-such-page.md" in output and "no-such-anchor" in output, output[-3000:]


def test_the_readme_is_one_screen():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines (at most {MAX_README_LINES})"


@pytest.mark.parametrize("path", [README, *CARDS, CONTRIBUTING], ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_links_and_images_are_absolute(path):
    """The README is PyPI's page and the cards are the Hub's: a relative link or image would not resolve there."""
    relative = [
        link
        for link in links(path.read_text(encoding="utf-8"))
        if not urlsplit(link).scheme and not link.startswith("mailto:")
    ]
    assert not relative, f"{path.name}: relative links or images: {relative}"


@pytest.mark.parametrize("path", [README, *CARDS, CONTRIBUTING], ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_links_into_the_manual_name_pages_and_anchors_it_has(path, built_site):
    site, build = built_site
    assert build.returncode == 0, (build.stdout + build.stderr)[-3000:]
    into = [link for link in links(path.read_text(encoding="utf-8")) if link.startswith(SITE_URL)]
    if path == README:
        assert len(into) >= 10, into
    for link in into:
        assert link.startswith(MANUAL_URL) or link == SITE_URL, f"{link}: the manual's pages are under {MANUAL_URL}"
        page, anchor = built_page(site, link)
        assert page.is_file(), f"{path.name}: {link} names no page of the manual ({page.relative_to(site)})"
        assert not anchor or anchor in page_ids(page), f"{path.name}: {link}: no anchor #{anchor} on that page"


def test_the_readme_has_no_measurements_or_history():
    text = README.read_text(encoding="utf-8")
    found = re.findall(r"\b\d[\d,.]*\s?(?:s|ms|MB|GB|kB|minutes|targets/s)\b|\bwas \d|\bpreviously\b|\bused to\b", text)
    assert not found, found


def test_ci_runs_the_readme_test_command_as_written():
    """`.ci/run` runs the README's test command verbatim, and the manual's Development page and CONTRIBUTING.md
    show the same."""

    def test_command(path: Path) -> str:
        commands = [
            command
            for block in blocks(path)
            if block.language == "bash"
            for _, command in block.commands()
            if re.search(r"ruff check \. && lint-imports && pytest", command)
        ]
        assert len(commands) == 1, (path, commands)
        return commands[0]

    command = test_command(README)
    assert command == test_command(DOCS / "development.md")
    assert command == test_command(CONTRIBUTING)
    ci_lines = [line.strip() for line in (REPO_ROOT / ".ci" / "run").read_text().splitlines()]
    assert command in ci_lines, f".ci/run does not run the README's test command as written: {command}"


def test_every_document_holds_only_known_blocks():
    """Shell and Python blocks are run; the others show output or data. An unlabelled block would escape both."""
    shown = {"text", "json", "bibtex", "yaml"}
    for path in documents():
        for block in blocks(path):
            assert block.language in {"bash", "python"} | shown, f"{block.where}: a ```{block.language} block"
