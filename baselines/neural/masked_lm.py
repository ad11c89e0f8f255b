"""Masked language model baselines (`bert-k`, `bert-m`): the vocabulary ranked by the MLM's log-probability at the
target's place, as in the SWORDS paper's BERT baselines (Zhou et al. 2019's "keep" and "mask"): ``bert-m`` masks
the target, ``bert-k`` keeps it (averaged over its pieces). Only whole words are kept (no continuation pieces or
special tokens, only letters, hyphens and apostrophes), never the target (its form, its lemma, or a word lemmatized
to it). The context is a window of the model's maximum length centred on the target; the output depends only on the
input rows (sequences grouped by length in a fixed order).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import ClassVar

from swords_baselines.neural.models import ModelSystem, load_model
from swords_baselines.neural.windows import assemble, model_max_length, pad_batch, split_context, word_pieces
from swords_baselines.options import Option
from swords_baselines.system import Prediction

_WORD = re.compile(r"^[A-Za-z][A-Za-z'\-]*$")
# Word-start markers of byte-level BPE (RoBERTa, GPT-2) and sentencepiece vocabularies.
_START_MARKERS = ("Ġ", "▁")


def whole_word_vocabulary(tokenizer) -> dict[int, str]:
    """Vocabulary id -> the word it spells, for pieces that are whole words."""
    special = set(tokenizer.all_special_ids)
    vocab = tokenizer.get_vocab()
    marked = sum(token.startswith(_START_MARKERS) for token in vocab) > len(vocab) // 4
    words = {}
    for token, index in vocab.items():
        if index in special or token.startswith("##"):
            continue
        if marked:
            if not token.startswith(_START_MARKERS):
                continue  # a piece that continues a word
            token = token[1:]
        if _WORD.match(token):
            words[index] = token
    return words


class MaskedLM(ModelSystem):
    keep_target: ClassVar[bool] = False
    options = (
        Option(
            "model",
            "masked LM: a Hub id (needs the network or a cache) or a local directory",
            default="bert-base-uncased",
        ),
        Option("top_k", "substitutes per target", default=50, type=int, minimum=1),
        Option(
            "max_length", "word pieces per input at most (also capped by the model)", default=512, type=int, minimum=8
        ),
        Option("forward_batch", "sequences per forward pass", default=16, type=int, affects_output=False, minimum=1),
    )
    batch_size = 32
    requires = ("torch", "transformers")
    needs_tags = True  # the target and its inflections are filtered out by lemma, under the target's POS
    needs = "a masked LM: bert-base-uncased from the Hugging Face Hub (network, or its local cache), or --model PATH"

    def __init__(
        self,
        model: str = "bert-base-uncased",
        top_k: int = 50,
        max_length: int = 512,
        forward_batch: int = 16,
        **options,
    ) -> None:
        super().__init__(**options)
        import torch

        self.torch = torch
        self.tokenizer, self.network = load_model(model, masked_lm=True)
        if self.tokenizer.mask_token_id is None and not self.keep_target:
            from swords_lexsub.errors import SwordsError

            raise SwordsError(f"{model}: the tokenizer has no mask token")
        self.max_length = model_max_length(
            self.tokenizer, getattr(self.network.config, "max_position_embeddings", None), max_length
        )
        self.top_k, self.forward_batch = top_k, forward_batch
        self.words = whole_word_vocabulary(self.tokenizer)
        vocab_size = self.network.config.vocab_size
        self.allowed = torch.full((vocab_size,), False)
        self.allowed[[index for index in self.words if index < vocab_size]] = True

    def _inputs(self, row: dict) -> tuple[list[int], list[int]]:
        """Input ids and the positions whose predictions are read."""
        window = split_context(self.tokenizer, row)
        if self.keep_target:
            middle = word_pieces(self.tokenizer, row["target"], window.space_before)
        else:
            middle = [self.tokenizer.mask_token_id]
        ids, start = assemble(self.tokenizer, window, middle, self.max_length)
        return ids, list(range(start, min(start + len(middle), len(ids) - 1)))

    def _log_probs(self, inputs: list[tuple[list[int], list[int]]]):
        """(rows, vocabulary) log-probabilities, averaged over each row's positions."""
        torch = self.torch
        result = torch.empty((len(inputs), self.network.config.vocab_size))
        order = sorted(range(len(inputs)), key=lambda i: (len(inputs[i][0]), i))
        head = getattr(self.network, "cls", None) or getattr(self.network, "lm_head", None)
        with torch.inference_mode():
            for start in range(0, len(order), self.forward_batch):
                chunk = order[start : start + self.forward_batch]
                ids, mask = pad_batch([inputs[i][0] for i in chunk], self.tokenizer.pad_token_id or 0)
                rows = [row for row, i in enumerate(chunk) for _ in inputs[i][1]]
                positions = [p for i in chunk for p in inputs[i][1]]
                if head is not None:  # BERT/RoBERTa-style: the vocabulary projection only where it is read
                    hidden = self.network.base_model(input_ids=ids, attention_mask=mask).last_hidden_state
                    logits = head(hidden[rows, positions])
                else:
                    logits = self.network(input_ids=ids, attention_mask=mask).logits[rows, positions]
                log_probs = torch.log_softmax(logits.float(), dim=-1)
                owner = torch.tensor(rows)
                summed = torch.zeros((len(chunk), log_probs.shape[1])).index_add_(0, owner, log_probs)
                counts = torch.bincount(owner, minlength=len(chunk)).clamp(min=1).unsqueeze(1)
                result[chunk] = summed / counts
        return result

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        from swords_metric import lemmatize

        log_probs = self._log_probs([self._inputs(row) for row in rows])
        log_probs[:, ~self.allowed] = float("-inf")
        # Room for the filtered-out target forms; more than a few are never needed.
        values, indices = log_probs.topk(min(self.top_k + 20, int(self.allowed.sum())), dim=1)
        for row, row_values, row_indices in zip(rows, values.tolist(), indices.tolist(), strict=True):
            target_forms = {row["target"].lower(), row["target_lemma"].lower()}
            target_lemma = lemmatize(row["target"], row["pos"])
            prediction: Prediction = []
            for value, index in zip(row_values, row_indices, strict=True):
                word = self.words.get(index)
                if word is None or word.lower() in target_forms or lemmatize(word, row["pos"]) == target_lemma:
                    continue
                prediction.append((word, value))
                if len(prediction) == self.top_k:
                    break
            yield row["id"], prediction


class BertKeep(MaskedLM):
    name = "bert-k"
    description = "masked LM (default bert-base-uncased) reading its prediction at the kept target's position"
    keep_target = True


class BertMask(MaskedLM):
    name = "bert-m"
    description = "masked LM (default bert-base-uncased) predicting the masked-out target"
    keep_target = False
