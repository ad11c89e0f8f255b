"""An encoder's nearest words to a target out of context: its vocabulary's whole words (MiniLM: 14,281 of 30,522
that WordNet lists) by input-embedding cosine with the target's, kept to those WordNet lists under its POS. WordNet
leaves some targets few words ("already", "clearly"); these ("previously", "yet"; "obviously", "plainly") add more.
"""

from __future__ import annotations

from functools import lru_cache

from swords_baselines.neural.encoder import ContextualEncoder
from swords_metric import load_wordnet_graph

WORDNET_POS = "nvar"


class VocabularyNeighbours:
    """Nearest whole words of an encoder's vocabulary by input-embedding cosine, per WordNet part of speech."""

    def __init__(self, encoder: ContextualEncoder) -> None:
        torch = encoder.torch
        self.torch, self.encoder = torch, encoder
        weights = encoder.fast_pass.weights.word if encoder.fast_pass is not None else None
        if weights is None:
            weights = encoder.network.get_input_embeddings().weight.detach()
        self.matrix = torch.nn.functional.normalize(weights.float(), dim=-1)
        graph = load_wordnet_graph()
        entries: dict[str, int] = {}
        # Whole words only: letters, two or more (no "##" continuation pieces, no punctuation); a cased
        # vocabulary's first spelling of a word stands for it.
        for token, index in sorted(encoder.tokenizer.get_vocab().items(), key=lambda item: item[1]):
            if len(token) > 1 and token.isascii() and token.isalpha():
                entries.setdefault(token.lower(), index)
        self.words: dict[str, list[str]] = {}
        self.rows: dict[str, object] = {}
        for wn_pos in WORDNET_POS:
            lemmas = set(graph.lemmas(wn_pos))
            kept = [word for word in entries if word in lemmas]
            self.words[wn_pos] = kept
            self.rows[wn_pos] = self.matrix[torch.tensor([entries[word] for word in kept], dtype=torch.long)]

    def nearest(self, word: str, wn_pos: str, k: int) -> list[str]:
        """The `k` words under `wn_pos` nearest `word` (the word itself among them, if listed), nearest first."""
        pieces = self.encoder.pieces(word, False)
        if k <= 0 or not pieces or not self.words.get(wn_pos):
            return []
        vector = self.matrix[self.torch.tensor(pieces, dtype=self.torch.long)].mean(0)
        cosines = self.rows[wn_pos] @ vector
        top = cosines.topk(min(k, len(self.words[wn_pos]))).indices.tolist()
        return [self.words[wn_pos][index] for index in top]


@lru_cache(maxsize=2)
def vocabulary_neighbours(encoder: ContextualEncoder) -> VocabularyNeighbours:
    """One table per encoder and process (building it takes about a second)."""
    return VocabularyNeighbours(encoder)
