"""swords_metric.wordnet.lemmatizer's shipped data file: the lemmatizer works offline from it alone (no NLTK, no
nltk_data), and it is WordNet 3.0, regenerated identically from Debian's database (`debian_wordnet`, in
conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from itertools import pairwise
from pathlib import Path

from swords_dataset.builder import wordnet_morphy
from swords_metric.wordnet import lemmatizer as lem

from ..conftest import REPO_ROOT

SHIPPED_DATA = REPO_ROOT / "swords_metric" / "wordnet" / lem.DATA_FILE


def test_works_offline_without_nltk(tmp_path: Path):
    """No NLTK, no nltk_data, no network: only the data file shipped in the package."""
    empty = tmp_path / "nltk_data"
    empty.mkdir()
    script = textwrap.dedent(
        """
        import sys
        from swords_metric.wordnet.lemmatizer import lemmatize
        assert lemmatize("ran", "VERB") == "run", lemmatize("ran", "VERB")
        assert lemmatize("Geese", "NOUN") == "geese"
        assert lemmatize("geese", "NOUN") == "goose"
        loaded = sorted(m for m in sys.modules if m == "nltk" or m.startswith("nltk."))
        assert not loaded, loaded
        print("ok")
        """
    )
    env = dict(os.environ, NLTK_DATA=str(empty), HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_shipped_data_regenerates_identically(debian_wordnet: Path, tmp_path: Path):
    output = tmp_path / lem.DATA_FILE
    wordnet_morphy.main(["--wordnet-dir", str(debian_wordnet), "--output", str(output)])
    assert output.read_bytes() == SHIPPED_DATA.read_bytes()


def test_shipped_data_is_wordnet_30():
    lemmas, exceptions = lem._tables()  # read from SHIPPED_DATA
    # WordNet 3.0's published counts of distinct lemma strings per POS, and its exception-list sizes
    # (noun.exc 2054 lines, of which 4 forms repeat; adj.exc 1490 lines, 1 repeated), as the lemmatizer reads them.
    assert {pos: len(set(names)) for pos, names in lemmas.items()} == {
        "n": 117798, "v": 11529, "a": 21479, "r": 4481,
    }  # fmt: skip
    assert {pos: len(table) for pos, table in exceptions.items()} == {
        "n": 2050, "v": 2401, "a": 1489, "r": 7,
    }  # fmt: skip


def test_every_lemma_name_and_nothing_else_is_found():
    """The names grouped by prefix answer as a set of them would: for every name, a name with a letter more or
    less, and two neighbouring names joined by a space (the separator the file uses)."""
    for pos, names in lem._tables()[0].items():  # read from SHIPPED_DATA
        known = set(names)
        ordered = sorted(known)
        probes = [
            *ordered,
            *(n + "s" for n in ordered),
            *(n[:-1] for n in ordered),
            *map(" ".join, pairwise(ordered)),
        ]
        assert [probe in names for probe in probes] == [probe in known for probe in probes], pos
