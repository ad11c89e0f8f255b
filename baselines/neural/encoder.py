"""The contextual encoder behind the embedding rerankers: a word's embedding in the target's place, exactly or with
the context shared (:mod:`swords_baselines.neural.embedding` says how and what each gives up)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path

from swords_baselines.neural.models import PACKAGED_MINILM, load_network, load_tokenizer, resolve_model
from swords_baselines.neural.shared_context import EncoderConfig, EncoderWeights, PackedRow, SharedContextPass
from swords_baselines.neural.windows import Window, assemble, model_max_length, pad_batch, split_context, split_contexts
from swords_baselines.neural.windows import word_pieces as _word_pieces


class ContextualEncoder:
    """Mean-pooled last-layer embeddings of one word in a context, many words per forward pass."""

    def __init__(self, model: str = PACKAGED_MINILM, max_length: int = 32, batch_size: int = 128) -> None:
        import torch

        self.torch = torch
        self.model = model
        self._path, self._local = resolve_model(model)
        self.tokenizer = load_tokenizer(model, self._path, self._local)
        self._network = None
        # The fast pass reads BERT-style weights from the folder; other models go through transformers.
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
        """Word pieces of every (word, space before) not seen yet, in one call of the tokenizer (cheaper)."""
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
        self._tokenize_all(
            [
                (w, window.space_before)
                for row, pool, window in zip(rows, pools, windows, strict=True)
                for w in [row["target"], *pool]
            ]
        )
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
            # Up to about 2,500 tokens a fast pass (where the matrix products run fastest on a CPU).
            for chunk in _chunks(order, lambda chunk, i: sum(lengths[j] for j in chunk) + lengths[i] > 2500):
                vectors = self.fast_pass.word_vectors([PackedRow(*packs[i]) for i in chunk])
                self._cosines(vectors, chunk, packs, result)
            return result
        offset = self._position_offset()
        with torch.inference_mode():
            # At most packed_batch rows a pass, fewer when long (attention grows with length²); in ascending length,
            # the newest row sets the width.
            for chunk in _chunks(
                order, lambda chunk, i: len(chunk) == self.packed_batch or (len(chunk) + 1) * lengths[i] ** 2 > 2**20
            ):
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
                    0, slot.flatten(), hidden.reshape(-1, hidden.shape[-1])
                )
                counts = torch.zeros(sum(words_per_row) + 1).index_add_(0, slot.flatten(), torch.ones(slot.numel()))
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

    def _position_offset(self) -> int:
        """Where position ids start: 0 for BERT-style encoders, after the padding index for RoBERTa-style ones."""
        config = EncoderConfig.from_dict(self.network.config.to_dict())
        if config.model_type in ("roberta", "xlm-roberta", "camembert", "bert", "electra"):
            return config.position_offset
        from swords_lexsub.errors import SwordsError

        raise SwordsError(
            f"shared context is implemented for BERT/RoBERTa-style encoders, not {config.model_type!r}; "
            "use --no-shared-context"
        )

    def similarities(
        self, rows: Sequence[dict], pools: Sequence[Sequence[str]], shared_context: bool = True
    ) -> list[list[float]]:
        """For each row, the cosine between the target and each word of its pool (see the module docstring)."""
        return self.packed_similarities(rows, pools) if shared_context else self.exact_similarities(rows, pools)

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


def _chunks(order: list[int], full: Callable[[list[int], int], bool]) -> Iterator[list[int]]:
    """`order` in consecutive chunks, a new one started where `full(chunk, i)` says row `i` does not fit."""
    chunk: list[int] = []
    for i in order:
        if chunk and full(chunk, i):
            yield chunk
            chunk = []
        chunk.append(i)
    if chunk:
        yield chunk


def shared_encoder(model: str = PACKAGED_MINILM, max_length: int = 32) -> ContextualEncoder:
    """One encoder per (model, window) and process: systems built one after another share the weights."""
    return _cached_encoder(model, max_length)


@lru_cache(maxsize=2)
def _cached_encoder(model: str, max_length: int) -> ContextualEncoder:
    return ContextualEncoder(model, max_length)
