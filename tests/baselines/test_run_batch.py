"""`swords run --system llm --batch-export / --batch-import` (baselines/run/batch.py, the format llm/batch.py): the
export sends nothing; a stand-in for OpenAI's Batch API answers the exported file by each request's content, as the
test server on 127.0.0.1 answers online, and the import gives the very outputs of the online run; a partial output
leaves the run resumable, a foreign one is refused, a kill -9 during an import loses nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swords_baselines.llm.batch import MAX_OUTPUT_BYTES
from swords_baselines.run.files import output_paths

from ..llm_server import LLMServer
from .run_helpers import killed_once_journalled, one_line, swords

LIMIT = 20


@pytest.fixture(scope="module")
def server():
    """The test server on 127.0.0.1 every run of the module names (--base-url is one of a run's settings)."""
    with LLMServer(varied=True, models_owned_by="vllm") as running:
        yield running


def args(
    output: Path, *extra: str, base_url: str | None = None, limit: int = LIMIT, dataset: str = "swords_test_subset"
) -> list[str]:
    """SWORDS test subset's first `limit` targets, a model whose tokenizer ships offline (davinci-002), at `base_url`
    (None: OpenAI's API, whose Batch API a batch file is for)."""
    return [
        "run", "--system", "llm", "--dataset", dataset, "--split", "test", "--output", str(output),
        *(["--base-url", base_url] if base_url else []), "--model", "davinci-002", "--api-key-env",
        "SWORDS_FAULT_KEY", "--cache-dir", "off", "--limit", str(limit), "--bootstrap", "0", "--no-progress", *extra,
    ]  # fmt: skip


def stand_in(requests: Path, answers: Path, status: dict[int, int] | None = None) -> list[dict]:
    """OpenAI's Batch API played here: each exported request answered by the test server's rule (words chosen by
    a hash of the request's question, as LLMServer(varied=True) answers online), lines written in reverse order
    (an output's order is not the input's), `status` giving some lines (by request number) another HTTP status."""
    rule = LLMServer(varied=True)  # its answering rule, called in-process: never started, nothing listens
    rule.httpd.server_close()
    lines = []
    for number, line in enumerate(requests.read_text(encoding="utf-8").splitlines(), 1):
        request = json.loads(line)
        assert request["method"] == "POST" and request["url"] == "/v1/completions"
        code, _, payload = rule.respond(request["url"], request["body"], "")
        code = (status or {}).get(number, code)
        body = json.loads(payload) if code == 200 else {"error": {"message": "The server had an error"}}
        response = {"status_code": code, "request_id": f"req_{number}", "body": body}
        lines.append({"id": f"batch_req_{number}", "custom_id": request["custom_id"], "response": response,
                      "error": None})  # fmt: skip
    lines.reverse()
    answers.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return lines


def outputs(output: Path) -> tuple[bytes, bytes, dict]:
    """The predictions, the upstream file, and the metrics without the report of what was used."""
    paths = output_paths(output)
    metrics = json.loads(paths["metrics"].read_text())
    report = metrics["run"].pop("report")
    metrics["run"].pop("files")
    return paths["jsonl"].read_bytes(), paths["upstream"].read_bytes(), metrics, report


@pytest.fixture(scope="module")
def online(server, tmp_path_factory) -> tuple[bytes, bytes, dict, dict, list[dict]]:
    """The same targets answered online by the test server on 127.0.0.1 (20 requests), and the requests' bodies."""
    output = tmp_path_factory.mktemp("online") / "llm.jsonl"
    sent = len(server.requests)
    done = swords(*args(output, base_url=server.base_url), env={"SWORDS_FAULT_KEY": "sk-x"})
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == sent + LIMIT
    return (*outputs(output), [request["body"] for request in server.requests[sent:]])


@pytest.mark.slow  # 11 s on two cores (an export, an import, and the online run it is compared with)
def test_export_sends_nothing_and_its_import_gives_the_online_run(server, tmp_path, online):
    requests, answers, output = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", tmp_path / "run.jsonl"
    sent, asked = len(server.requests), len(server.gets)  # it counts every request, a GET too
    done = swords(*args(output, "--batch-export", str(requests), base_url=server.base_url))
    assert done.returncode == 0, done.stderr
    assert (len(server.requests), len(server.gets)) == (sent, asked)  # nothing sent, no /tokenize, no key needed
    assert f"wrote {requests}: {LIMIT} requests" in done.stderr and "nothing was sent" in done.stderr
    exported = [json.loads(line) for line in requests.read_text().splitlines()]
    assert len({line["custom_id"] for line in exported}) == LIMIT
    body = exported[0]["body"]  # the request the run would send, as the online one did
    assert body["model"] == "davinci-002" and body["prompt"].endswith("\nA:") and body["max_tokens"] == 128
    assert (body["temperature"], body["presence_penalty"], body["stop"]) == (0.0, 0.5, ["\n", "\r", "\n\n"])
    assert not output_paths(output)["jsonl"].exists()
    key = lambda body: json.dumps(body, sort_keys=True)  # noqa: E731
    assert sorted(key(line["body"]) for line in exported) == sorted(map(key, online[4]))  # exactly what was sent

    stand_in(requests, answers)
    done = swords(*args(output, "--batch-import", str(answers), base_url=server.base_url))
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == sent
    predictions, upstream, metrics, report = outputs(output)
    assert (predictions, upstream, metrics) == online[:3]
    assert report["answers imported"] == LIMIT and report["requests sent"] == 0
    assert (report["prompt tokens"], report["completion tokens"]) == (
        online[3]["prompt tokens"],
        online[3]["completion tokens"],
    )
    assert report["cost"] == online[3]["cost"] == "none in dollars (the model is served on this machine)"
    again = swords(*args(output, "--batch-export", str(requests), base_url=server.base_url))  # nothing left to ask
    assert again.returncode == 0 and "a finished run with these settings; no batch file to make or read" in again.stderr


@pytest.mark.slow  # 7 s on two cores
def test_a_partial_output_names_what_it_lacks_and_a_second_import_completes_the_run(server, tmp_path, online):
    requests, answers, output = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", tmp_path / "run.jsonl"
    url = server.base_url
    assert swords(*args(output, "--batch-export", str(requests), base_url=url)).returncode == 0
    full = stand_in(requests, answers, status={10: 500})
    kept = full[:-6]  # the last six lines written (requests 6 to 1) lost; request 10 answered HTTP 500
    lines = [json.dumps(line) for line in kept]
    lines.insert(2, "{not json")
    lines[5] = json.dumps({**kept[4], "response": None, "error": {"code": "batch_expired", "message": "expired"}})
    answers.write_text("\n".join(lines) + "\n")
    line = one_line(swords(*args(output, "--batch-import", str(answers), base_url=url)))
    assert line.startswith(f"swords: error: {answers}: 12 of {LIMIT} targets answered, 8 left unanswered (")
    assert "line 3: not JSON; line 6 (" in line and "error batch_expired: expired; line 12 (" in line
    assert "HTTP 500: The server had an error" in line
    assert "6 not in the file (first: " in line and "rerun without --batch-import" in line
    journal = output_paths(output)["journal"].read_text().splitlines()
    assert len(journal) == 1 + 12 and not output_paths(output)["jsonl"].exists()

    stand_in(requests, answers)  # the whole output: what the journal holds is kept, the rest taken
    done = swords(*args(output, "--batch-import", str(answers), base_url=url))
    assert done.returncode == 0, done.stderr
    predictions, upstream, metrics, report = outputs(output)
    assert (predictions, upstream, metrics) == online[:3] and report["answers imported"] == 8


@pytest.mark.slow  # 9 s on two cores
def test_the_rest_of_a_partial_import_is_asked_online(server, tmp_path, online):
    requests, answers, output = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", tmp_path / "run.jsonl"
    url = server.base_url
    assert swords(*args(output, "--batch-export", str(requests), base_url=url)).returncode == 0
    full = stand_in(requests, answers)
    answers.write_text("".join(json.dumps(line) + "\n" for line in full[5:]))  # requests 20 to 16 lost
    line = one_line(swords(*args(output, "--batch-import", str(answers), base_url=url)))
    assert "15 of 20 targets answered, 5 left unanswered (5 not in the file" in line
    sent = len(server.requests)
    done = swords(*args(output, base_url=url), env={"SWORDS_FAULT_KEY": "sk-x"})
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == sent + 5  # only what the import lacked
    assert outputs(output)[:3] == online[:3]


@pytest.mark.slow  # 11 s on two cores
def test_an_output_of_another_export_is_refused_and_nothing_is_imported(tmp_path):
    requests, answers, output = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", tmp_path / "run.jsonl"
    other = tmp_path / "other.jsonl"
    assert swords(*args(other, "--batch-export", str(requests), "--presence-penalty", "0")).returncode == 0
    stand_in(requests, answers)
    line = one_line(swords(*args(output, "--batch-import", str(answers))))
    assert line.startswith(f"swords: error: {answers}:1: custom_id ")
    assert line.endswith("is not a request of this run (an output of another export: other settings or other "
                         "targets); nothing was imported")  # fmt: skip
    journal = output_paths(output)["journal"]
    assert not journal.exists() or len(journal.read_text().splitlines()) <= 1
    # The same export's output, one answer twice: refused too.
    assert swords(*args(output, "--batch-export", str(requests))).returncode == 0
    lines = stand_in(requests, answers)
    answers.write_text("".join(json.dumps(line) + "\n" for line in [*lines, lines[0]]))
    line = one_line(swords(*args(output, "--batch-import", str(answers))))
    assert f"{answers}:{LIMIT + 1}: custom_id " in line and "is answered twice (also at line 1)" in line
    # The output as it came: imported, and priced as OpenAI's Batch API bills it (davinci-002: $2 a million
    # tokens, prompt or completion, at list price; half of it in a batch).
    answers.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = swords(*args(output, "--batch-import", str(answers)))
    assert done.returncode == 0, done.stderr
    report = json.loads(output_paths(output)["metrics"].read_text())["run"]["report"]
    tokens = report["prompt tokens"] + report["completion tokens"]
    assert tokens > 20 * 1000 and report["estimated cost at batch price (USD)"] == round(tokens * 2 / 1e6 / 2, 4)


@pytest.mark.slow  # 6 s on two cores (seven commands refused, each its own process)
def test_batch_files_are_refused_where_they_cannot_be(tmp_path):
    output, requests = tmp_path / "run.jsonl", tmp_path / "requests.jsonl"
    mine = tmp_path / "mine.jsonl"
    mine.write_text("my notes\n")
    cases = [
        (["run", "--system", "wordnet", "--output", str(output), "--batch-export", str(requests)],
         "--batch-export: wordnet sends no requests (it answers here); only --system llm has batch files"),
        (args(output, "--batch-export", str(mine)), f"--batch-export {mine}: the file exists and no export wrote it"),
        (args(output, "--batch-export", str(output)), f"--batch-export {output} is the run's jsonl file"),
        (args(output, "--batch-import", str(tmp_path / "no.jsonl")), f"--batch-import {tmp_path}/no.jsonl: no such"),
        ([*args(output, "--batch-export", str(requests)), "--model", "my-model"],
         "llm: a batch file is made without asking any server, and no tokenizer is known for model 'my-model'"),
        (args(output, "--batch-export", str(requests), "--batch-import", str(mine)), "not allowed with argument"),
    ]  # fmt: skip
    for command, expected in cases:
        assert expected in one_line(swords(*command)), command
    assert mine.read_text() == "my notes\n" and not requests.exists()
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as f:
        f.truncate(MAX_OUTPUT_BYTES + 1)  # sparse: refused by its size, never read
    line = one_line(swords(*args(output, "--batch-import", str(huge))))
    assert f"{MAX_OUTPUT_BYTES + 1:,} bytes, past the {MAX_OUTPUT_BYTES:,} an output file may hold" in line


@pytest.mark.slow  # 21 s on two cores (SWORDS test's targets exported, imported, killed, imported again)
def test_kill_9_during_an_import_loses_nothing(tmp_path):
    requests, answers, output = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", tmp_path / "run.jsonl"

    def whole(output: Path, *extra: str) -> list[str]:
        return args(output, *extra, limit=0, dataset="swords")

    assert swords(*whole(output, "--batch-export", str(requests))).returncode == 0
    stand_in(requests, answers)
    targets = len(requests.read_text().splitlines())
    reference = tmp_path / "reference.jsonl"
    assert swords(*whole(reference, "--batch-import", str(answers))).returncode == 0
    journal = output_paths(output)["journal"]
    held = killed_once_journalled(whole(output, "--batch-import", str(answers)), journal)
    assert 3 <= len(held) < 1 + targets and not output_paths(output)["jsonl"].exists()  # killed mid-import
    done = swords(*whole(output, "--batch-import", str(answers)))
    assert done.returncode == 0, done.stderr
    assert output.read_bytes() == reference.read_bytes()
    report = json.loads(output_paths(output)["metrics"].read_text())["run"]["report"]
    assert report["answers imported"] == targets - (len(held) - 1)  # the journal's answers kept, not asked again


@pytest.mark.slow  # 12 s on two cores (two exports, two imports)
def test_each_shard_exports_its_part_and_their_imports_give_the_online_run(server, tmp_path, online):
    """Shards and batch files combine: `--shard K/N --batch-export` writes that part's requests only; each part's
    output is imported without --shard, the first leaving the other part unanswered, the second finishing the run."""
    output, url = tmp_path / "run.jsonl", server.base_url
    exported = []
    for k in (1, 2):
        requests = tmp_path / f"requests-{k}.jsonl"
        done = swords(*args(output, "--shard", f"{k}/2", "--batch-export", str(requests), base_url=url))
        assert done.returncode == 0, done.stderr
        exported.append([json.loads(line) for line in requests.read_text().splitlines()])
    assert exported[0] and exported[1] and len(exported[0]) + len(exported[1]) == LIMIT
    assert not {line["custom_id"] for line in exported[0]} & {line["custom_id"] for line in exported[1]}
    sent = len(server.requests)
    for k in (1, 2):
        answers = tmp_path / f"answers-{k}.jsonl"
        stand_in(tmp_path / f"requests-{k}.jsonl", answers)
        done = swords(*args(output, "--batch-import", str(answers), base_url=url))
        if k == 1:
            assert f"{len(exported[0])} of {LIMIT} targets answered" in one_line(done)
        else:
            assert done.returncode == 0, done.stderr
    assert len(server.requests) == sent
    assert outputs(output)[:3] == online[:3]
    refused = one_line(swords(*args(output, "--shard", "1/2", "--batch-import", str(answers), base_url=url)))
    assert "--shard 1/2 with --batch-import: import a shard's batch output without --shard" in refused
