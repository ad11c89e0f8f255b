"""NLTK's ``WordNetLemmatizer`` on WordNet 3.0, re-implemented offline, as the SWORDS scorer uses it.

The upstream scorer lemmatizes the target, every reference substitute and every prediction as
``nltk.stem.WordNetLemmatizer().lemmatize(text, pos=wn_pos).lower().strip()``, ``wn_pos`` from the target's UD POS
tag. :func:`lemmatize` reproduces that exactly, with no NLTK: the lemma names per POS and the exception lists ship in
``wordnet-3.0-morphy.txt`` (built by :mod:`swords_dataset.builder.wordnet_morphy`).

The algorithm is NLTK's ``morphy`` as of **nltk 3.5**, the version the published numbers were computed with:

1. A form in the POS's exception list: the candidates are the form and its listed bases; no rule is tried.
2. Otherwise each detachment rule of the POS (nouns ``-ies -> -y``, ...) whose suffix matches is applied once; the
   candidates are the form followed by those results.
3. Candidates that are WordNet lemma names of that POS are kept (in order, without duplicates).
4. nltk 3.5 only: if nothing is kept (and the form was no exception), the rules are applied again to the previous
   round's results until a result is a lemma or no rule applies (``"catss"`` -> ``"cats"`` -> ``"cat"``; later
   nltk releases dropped this step).
5. The first of the shortest kept candidates, or the input unchanged if none.

Nothing is normalised before the lookup (WordNet's index is lower case with ``_`` for spaces), so ``"Dogs"`` or
``"ice creams"`` usually come back as they are, only then lower-cased and stripped, exactly like the scorer.
"""

from __future__ import annotations

import functools
from pathlib import Path

DATA_FILE = "wordnet-3.0-morphy.txt"

#: UD POS -> WordNet POS, as in the SWORDS scorer; every other tag falls back to noun (wordnet_pos).
UD_TO_WORDNET = {"VERB": "v", "NOUN": "n", "ADJ": "a", "ADV": "r"}

#: Detachment rules (suffix, replacement) per WordNet POS, in NLTK's order, which decides which of two equally short
#: lemmas wins.
_SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
# The rules per POS by their suffix's last letter, order kept: the first round is a lookup instead of ~8 endswith.
_RULES_BY_LAST_LETTER: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    pos: {last: tuple(rule for rule in rules if rule[0][-1] == last) for last in {old[-1] for old, _ in rules}}
    for pos, rules in _SUBSTITUTIONS.items()
}
# Adjective satellites share the adjective rules, exceptions and (in nltk 3.5) the adjective lemma index.
_POS_ALIAS = {"s": "a"}


def _prefix_table(section: str) -> dict[str, str]:
    """A section's lines ``key<TAB>words`` as {key: " words "}, padded so that a word is found as " word ": passes in
    C over the text instead of a Python loop over its lines."""
    fields = iter((section.rstrip("\n") + "\n").replace("\t", "\t ").replace("\n", " \t").split("\t"))
    return dict(zip(fields, fields, strict=False))  # the last field, empty, has no pair


class _LemmaNames:
    """One POS's lemma names as the data file holds them: a string of names per three-letter prefix (the longest is
    6 KB, searched in microseconds), and the names with ``_`` (a dict at the first form with ``_``). Reading them so
    instead of hashing 155,000 names saves about 50 ms of a plain `swords evaluate`."""

    __slots__ = ("_multiword", "_plain")

    def __init__(self, plain: str, multiword: str) -> None:
        self._plain = _prefix_table(plain)
        self._multiword: str | dict[str, None] = multiword  # one name a line, until read

    def __contains__(self, form: str) -> bool:
        if "_" in form:
            if isinstance(self._multiword, str):
                self._multiword = dict.fromkeys(self._multiword.split())  # a dict: not tracked by the collector
            return form in self._multiword
        names = self._plain.get(form[:3])
        return names is not None and " " not in form and f" {form} " in names  # no name holds a space

    def __iter__(self):
        for names in self._plain.values():
            yield from names.split()
        yield from self._multiword.split() if isinstance(self._multiword, str) else self._multiword


@functools.cache
def _tables() -> tuple[dict[str, _LemmaNames], dict[str, dict[str, str]]]:
    """Lemma names and exceptions ({form: " bases "}) per WordNet POS, from the data file's sections
    (swords_dataset/builder/wordnet_morphy.py)."""
    text = Path(__file__).with_name(DATA_FILE).read_text(encoding="ascii")
    sections = dict(section.partition("\n")[::2] for section in text.split("\n@")[1:])  # the first names the source
    lemmas = {pos: _LemmaNames(sections[pos], sections[f"{pos}_"]) for pos in _SUBSTITUTIONS}
    return lemmas, {pos: _prefix_table(sections[f"{pos}.exc"]) for pos in _SUBSTITUTIONS}


def wordnet_pos(ud_pos: str) -> str:
    """Map a Universal Dependencies POS tag to the WordNet POS the SWORDS scorer uses (default ``"n"``)."""
    return UD_TO_WORDNET.get(ud_pos, "n")


def _apply_rules(forms: list[str], rules: tuple[tuple[str, str], ...]) -> list[str]:
    """One round of suffix detachment over ``forms``, in NLTK's order, without duplicates (NLTK keeps them; dropping
    them changes neither the candidates nor their order, and keeps the repeated rounds linear)."""
    out: list[str] = []
    seen: set[str] = set()
    for form in forms:
        for old, new in rules:
            if form.endswith(old):
                candidate = form[: -len(old)] + new
                if candidate not in seen:
                    seen.add(candidate)
                    out.append(candidate)
    return out


def _known(forms: list[str] | tuple[str, ...], lemmas: _LemmaNames) -> tuple[str, ...]:
    """The forms that are WordNet lemma names, in order, first occurrence only."""
    return tuple(dict.fromkeys(form for form in forms if form in lemmas))


def wordnet_candidates(word: str, wn_pos: str) -> tuple[str, ...]:
    """All lemmas NLTK 3.5's ``wordnet._morphy(word, wn_pos)`` returns, in its order (``wn_pos``: n, v, a, s, r)."""
    pos = _POS_ALIAS.get(wn_pos, wn_pos)
    rules = _SUBSTITUTIONS.get(pos)
    if rules is None:
        raise KeyError(f"unknown WordNet POS {wn_pos!r}; expected one of n, v, a, s, r")
    names, exceptions = _tables()
    lemmas, exception_bases = names[pos], exceptions[pos].get(word)
    if exception_bases is not None:
        return _known((word, *exception_bases.split()), lemmas)

    # First round inline: most words match one rule or none, and this runs for every distinct prediction.
    forms = [
        word[: -len(old)] + new for old, new in _RULES_BY_LAST_LETTER[pos].get(word[-1:], ()) if word.endswith(old)
    ]
    found = [form for form in forms if form in lemmas]
    if word in lemmas:
        found.insert(0, word)
    if found:
        return tuple(dict.fromkeys(found)) if len(found) > 1 else (found[0],)
    # nltk 3.5: keep detaching suffixes round after round until something is in WordNet.
    if len(word) > _LONG_WORD:
        return _long_word_rounds(word, pos, lemmas)
    forms = list(dict.fromkeys(forms))
    while not found and forms:
        forms = _apply_rules(forms, rules)
        found = _known(forms, lemmas)
    return tuple(found)


# Longer words take _long_word_rounds: a round that copies the word costs its length, and a word with n
# detachable suffixes takes n rounds (nltk 3.5 on "dog" + "s" * 100,000: minutes; quadratic).
_LONG_WORD = 100


@functools.cache
def _longest_lemma(pos: str) -> int:
    return max(map(len, _tables()[0][pos]), default=0)


def _long_word_rounds(word: str, pos: str, lemmas: _LemmaNames) -> tuple[str, ...]:
    """The repeated rounds of wordnet_candidates for a long word, each form held as (cut, tail), i.e. word[:cut] +
    tail, so that a round costs the same whatever the word's length. A pair is canonical (cut goes as far into the
    word as the form agrees with it), so equal forms are equal pairs; only forms no longer than WordNet's longest
    lemma are spelled out and looked up."""
    longest = _longest_lemma(pos)

    def canonical(cut: int, tail: str) -> tuple[int, str]:
        while tail and cut < len(word) and tail[0] == word[cut]:
            cut, tail = cut + 1, tail[1:]
        return cut, tail

    def detach(cut: int, tail: str, old: str, new: str) -> tuple[int, str] | None:
        """The form with suffix `old` replaced by `new`, or None if it does not end with `old`."""
        missing = len(old) - len(tail)  # characters of `old` before the tail, in the word
        if missing <= 0:
            return canonical(cut, tail[: len(tail) - len(old)] + new) if tail.endswith(old) else None
        if old.endswith(tail) and word.endswith(old[:missing], 0, cut):
            return canonical(cut - missing, new)
        return None

    by_last_letter = _RULES_BY_LAST_LETTER[pos]  # the rules in order, those a form's last letter allows
    pairs = list(
        dict.fromkeys(
            canonical(len(word) - len(old), new) for old, new in by_last_letter.get(word[-1:], ()) if word.endswith(old)
        )
    )
    found: tuple[str, ...] = ()
    while not found and pairs:
        detached: dict[tuple[int, str], None] = {}
        for cut, tail in pairs:
            for old, new in by_last_letter.get(tail[-1] if tail else word[cut - 1 : cut], ()):
                if (pair := detach(cut, tail, old, new)) is not None:
                    detached.setdefault(pair)
        pairs = list(detached)
        found = _known([word[:cut] + tail for cut, tail in pairs if cut + len(tail) <= longest], lemmas)
    return found


@functools.lru_cache(maxsize=1 << 18)
def wordnet_lemmatize(word: str, wn_pos: str = "n") -> str:
    """``nltk.stem.WordNetLemmatizer().lemmatize(word, wn_pos)`` of nltk 3.5, case preserved."""
    candidates = wordnet_candidates(word, wn_pos)
    # min() returns the first of several equally short candidates, as in NLTK; no candidate: the word as is.
    return min(candidates, key=len) if candidates else word


@functools.lru_cache(maxsize=1 << 18)  # real systems use tens of thousands of words, the benchmarks ~130,000
def lemmatize(word: str, pos: str) -> str:
    """Lemmatize ``word`` like the SWORDS scorer, given the target's UD POS tag: ``WordNetLemmatizer().lemmatize(word,
    wordnet_pos(pos)).lower().strip()`` (nltk 3.5, WordNet 3.0). Cached; for many long words, lemmatize_bounded."""
    return _lemmatize(word, pos)


def _lemmatize(word: str, pos: str) -> str:
    # Through wordnet_lemmatize's cache: LexSubGen's lemmatizing (lemmatize_lowercased) asks it for the same words.
    lemmatized = wordnet_lemmatize if len(word) <= CACHED_LENGTH else wordnet_lemmatize.__wrapped__
    return lemmatized(word, UD_TO_WORDNET.get(pos, "n")).lower().strip()


# lemmatize_bounded caches only words this long at most: a hostile file's millions of long substitutes would fill it.
CACHED_LENGTH = 64


def lemmatize_bounded(word: str, pos: str) -> str:
    """lemmatize, caching only words of at most CACHED_LENGTH characters."""
    return lemmatize(word, pos) if len(word) <= CACHED_LENGTH else _lemmatize(word, pos)


def lemmatize_lowercased(word: str, wn_pos: str) -> str:
    """``word`` lower-cased, then wordnet_lemmatize under a WordNet POS (LexSubGen's lemmatizing), caching only words
    of at most CACHED_LENGTH characters."""
    lowered = word.lower()
    lemmatized = wordnet_lemmatize if len(lowered) <= CACHED_LENGTH else wordnet_lemmatize.__wrapped__
    return lemmatized(lowered, wn_pos)
