"""nltk's WordNet API on Debian's WordNet 3.0, run beside the metric's own WordNet (its graph, its relations):
a folder nltk's WordNetCorpusReader accepts, and a script run in a subprocess with a reader on it (so that
nltk 3.5, from $SWORDS_NLTK35_PATH, and the installed nltk never mix)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .test_lemmatize_nltk_parity import LEXNAME_CATEGORY, LEXNAMES

NLTK35_ENV = "SWORDS_NLTK35_PATH"
FILES = tuple(f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")) + tuple(
    f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv")
)

# The reader, for a script that reads json from sys.argv[2] and writes json to sys.argv[3].
PRELUDE = """
import json, sys, warnings
warnings.simplefilter("ignore")
root, in_path, out_path = sys.argv[1:4]
import nltk, nltk.data
nltk.data.path.insert(0, root)  # recent nltk only opens corpora under its data path
from nltk.corpus.reader.wordnet import WordNetCorpusReader

class Reader(WordNetCorpusReader):
    def map_wn(self, version="wordnet"):  # recent nltk maps to nltk_data's own WordNet here; not needed
        return None

wn = Reader(root, None)
with open(in_path) as f:
    given = json.load(f)
"""


def wordnet_root(debian_wordnet: Path, folder: Path) -> Path:
    """Debian's files (copied: recent nltk refuses symlinks out of its data path) plus the `lexnames` file
    Debian lacks."""
    for name in FILES:
        shutil.copyfile(debian_wordnet / name, folder / name)
    (folder / "lexnames").write_text(
        "".join(f"{i:02d}\t{name}\t{LEXNAME_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES))
    )
    return folder


def run_nltk(root: Path, script: str, given: object, folder: Path) -> dict:
    """Run PRELUDE + script with `given` as its input; nltk 3.5 when $SWORDS_NLTK35_PATH names it, else the
    installed nltk. The script sets `result` (a dict); its "version" is nltk's."""
    in_path, out_path = folder / "in.json", folder / "out.json"
    in_path.write_text(json.dumps(given))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if os.environ.get(NLTK35_ENV):
        env["PYTHONPATH"] = os.environ[NLTK35_ENV]
    code = PRELUDE + script + "\nresult['version'] = nltk.__version__\njson.dump(result, open(out_path, 'w'))\n"
    subprocess.run(
        [sys.executable, "-c", code, str(root), str(in_path), str(out_path)],
        check=True,
        env=env,
        cwd=folder,
        timeout=900,
    )
    return json.loads(out_path.read_text())
