"""The few-shot LLM baseline through the real `openai` client, against a local OpenAI-compatible server that
answers with the paper's real GPT-3 completions: the requests it sends (the paper's parameters, the key, chat
messages, the model's own token ids), the cache that makes a rerun free and whose keys cover the whole request,
and the concurrency limit. Nothing here reaches beyond 127.0.0.1."""

from __future__ import annotations

import pytest

from swords_baselines.llm.cache import ResponseCache
from swords_baselines.llm.parse import parse_completion, to_prediction
from swords_baselines.llm.prompt import question

from . import llm_helpers
from .llm_helpers import GPT3_DAVINCI_SWORDS_V08_DEV, make_llm, recorded_rows, run_system

# This file's fixtures, shared with the other test_llm_client_*.py: `key`, a fresh fake API key in its own
# environment variable (in place of conftest.py's), and `server`, the local server answering with GPT-3's completions.
key, server = llm_helpers.key, llm_helpers.server


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


@pytest.mark.slow  # 3 s on two cores
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
    assert report["cache hits"] == 12 and report["requests sent"] == 0
    assert report["cost"] == "none in dollars (the model is served on this machine)"  # 127.0.0.1
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


@pytest.mark.slow  # 5 s on two busy cores (load 4-6)
def test_concurrency_limit_is_respected(server, tmp_path, key, dev):
    server.latency = 0.1
    rows = dev[:24]
    with make_llm(server, tmp_path, concurrency=4, cache_dir="off") as system:
        dict(system.predict(rows))
    # Four at once, never more: the server saw them in flight together (a wall-clock bound failed at load 5).
    assert server.max_in_flight == 4


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
    with make_llm(server, tmp_path, force_longer=True) as system:
        assert system.parameters["logit_bias"] == {"198": -100, "201": -100, "628": -100, "50256": -100}
