"""`swords run` and a user's files: a run replaces only files a run wrote (by their recorded sha256), writes through
no link, goes only where ordinary files go, names the files it writes, and says so in one line before any work."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from swords_baselines.run.files import output_paths, whole_lines
from swords_lexsub.errors import SwordsError

from ..llm_server import LLMServer
from .run_helpers import llm_args, one_line, swords

WORDNET = ["run", "--system", "wordnet", "--dataset", "swords", "--split", "dev", "--bootstrap", "0", "--no-progress"]


def snapshot(folder) -> dict:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_a_users_file_in_the_way_is_refused_before_any_work_and_kept(tmp_path):
    mine = tmp_path / "existing.jsonl"
    mine.write_text('{"id": "my own notes", "substitutes": []}\n')
    before = snapshot(tmp_path)
    line = one_line(swords(*WORDNET, "--output", str(mine)))
    assert f"{mine} exists and was not written by `swords run`" in line and "--force" in line
    assert snapshot(tmp_path) == before  # not replaced, and nothing written beside it


def test_the_users_sibling_files_are_named_and_kept(tmp_path):
    (tmp_path / "precious.json").write_text('{"my": "upstream-format notes"}')
    (tmp_path / "precious.metrics.json").write_text('{"accuracy": 0.9}')
    before = snapshot(tmp_path)
    line = one_line(swords(*WORDNET, "--output", str(tmp_path / "precious.jsonl")))
    assert str(tmp_path / "precious.metrics.json") in line and str(tmp_path / "precious.json") in line
    assert "--force" in line and snapshot(tmp_path) == before


@pytest.mark.slow  # 3.7 s on two cores (the quick lane, 2026-11-28)
def test_force_is_the_users_say_so(tmp_path):
    mine = tmp_path / "existing.jsonl"
    mine.write_text("not a run\n")
    done = swords(*WORDNET, "--output", str(mine), "--force")
    assert done.returncode == 0, done.stderr
    assert sum(1 for _ in mine.open()) == 370 and output_paths(mine)["metrics"].is_file()


@pytest.mark.slow  # 3 s on two cores
def test_a_runs_own_files_are_reused_and_replaced_but_not_once_the_user_changed_them(tmp_path):
    output = tmp_path / "wordnet.jsonl"
    assert swords(*WORDNET, "--output", str(output)).returncode == 0
    paths = output_paths(output)
    recorded = json.loads(paths["metrics"].read_text())["run"]["files"]
    assert set(recorded) == {"jsonl", "upstream"}
    reused = swords(*WORDNET, "--output", str(output))  # the same settings: its own files, reused
    assert reused.returncode == 0 and "finished run with these settings" in reused.stderr
    replaced = swords(*WORDNET, "--relations", "hypernyms", "--output", str(output), "--force")
    assert replaced.returncode == 0, replaced.stderr
    # The user edits the predictions: no longer the run's; neither reused nor replaced without --force.
    with paths["jsonl"].open("a") as f:
        f.write('{"id": "t:mine", "substitutes": ["added by hand"]}\n')
    edited = paths["jsonl"].read_bytes()
    line = one_line(swords(*WORDNET, "--relations", "hypernyms", "--output", str(output)))
    assert f"{paths['jsonl']} exists and was not written by `swords run` (or was changed since)" in line
    assert paths["jsonl"].read_bytes() == edited


@pytest.mark.slow  # 4.5 s on two cores (the quick lane, 2026-11-28)
def test_a_run_made_before_hashes_were_recorded_is_still_its_own(tmp_path):
    output = tmp_path / "wordnet.jsonl"
    assert swords(*WORDNET, "--output", str(output)).returncode == 0
    metrics_path = output_paths(output)["metrics"]
    metrics = json.loads(metrics_path.read_text())
    del metrics["run"]["files"]  # as the previous release wrote it
    metrics_path.write_text(json.dumps(metrics))
    done = swords(*WORDNET, "--output", str(output), "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["targets_scored"] == 370, done.stderr
    assert set(json.loads(metrics_path.read_text())["run"]["files"]) == {"jsonl", "upstream"}


@pytest.mark.slow  # 3.9 s on two cores (the quick lane, 2026-11-28)
def test_a_run_stopped_between_its_outputs_and_their_record_completes(tmp_path):
    """Killed after moving the predictions into place but before the metrics file records them: the journal
    holds their sha256 (written before they were moved), so they are still the run's, by their content."""
    output = tmp_path / "wordnet.jsonl"
    assert swords(*WORDNET, "--output", str(output)).returncode == 0
    paths = output_paths(output)
    header = json.loads(paths["metrics"].read_text())["run"]
    header.pop("files")
    hashes = {role: hashlib.sha256(paths[role].read_bytes()).hexdigest() for role in ("jsonl", "upstream")}
    journal = json.dumps(header) + "\n" + paths["jsonl"].read_text() + json.dumps({"outputs": hashes}) + "\n"
    paths["journal"].write_text(journal)
    paths["metrics"].unlink()
    done = swords(*WORDNET, "--output", str(output))
    assert done.returncode == 0, done.stderr
    assert not paths["journal"].exists() and json.loads(paths["metrics"].read_text())["targets_scored"] == 370
    # A journal vouches only for the files whose sha256 it holds: the user's own file there is not replaced.
    paths["journal"].write_text(journal)
    paths["metrics"].unlink()
    paths["upstream"].write_text('{"mine": true}')
    line = one_line(swords(*WORDNET, "--output", str(output)))
    assert line.startswith(f"swords: error: {paths['upstream']} exists and was not written by `swords run`"), line
    assert paths["upstream"].read_text() == '{"mine": true}'


@pytest.mark.parametrize("name", ["lock", "jsonl", "upstream", "metrics", "journal"])
@pytest.mark.slow  # 3 s on two cores
def test_a_symlink_at_a_run_files_name_is_refused_and_nothing_is_written_through_it(tmp_path, name):
    """`ln -s counter.txt .y.lock; swords run --system wordnet --output y.jsonl` wrote its process id into
    counter.txt. A link at any of a run's names, dangling or not, is one line; what it points at is untouched."""
    counter = tmp_path / "counter.txt"
    counter.write_text("12\n")
    paths = output_paths(tmp_path / "y.jsonl")
    paths[name].symlink_to("counter.txt")
    line = one_line(swords(*WORDNET, "--output", str(tmp_path / "y.jsonl"), "--force"))
    assert f"{paths[name]} is a symbolic link (to counter.txt); a run never writes through a link" in line, line
    assert counter.read_text() == "12\n" and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["counter.txt", paths[name].name]
    )
    paths[name].unlink()
    paths[name].symlink_to("nowhere.txt")  # dangling: the journal used to be created through it
    assert "is a symbolic link (to nowhere.txt)" in one_line(swords(*WORDNET, "--output", str(tmp_path / "y.jsonl")))
    assert not (tmp_path / "nowhere.txt").exists()


def test_a_hard_link_at_the_lock_or_the_journal_is_not_written_through(tmp_path):
    """The lock and the journal are written in place: a second name of the user's file there would be written
    too (the lock's content, a process id, looks like the user's counter)."""
    counter = tmp_path / "counter.txt"
    counter.write_text("12")
    paths = output_paths(tmp_path / "y.jsonl")
    os.link(counter, paths["lock"])
    line = one_line(swords(*WORDNET, "--output", str(tmp_path / "y.jsonl")))
    assert f"{paths['lock']} has another name (a hard link)" in line and counter.read_text() == "12"
    paths["lock"].unlink()
    # An interrupted run's journal with another name (the user's backup of it, say): not appended to.
    assert swords(*WORDNET, "--output", str(tmp_path / "y.jsonl")).returncode == 0
    header = json.loads(paths["metrics"].read_text())["run"]
    header.pop("files")
    journal = json.dumps(header) + "\n" + "".join(paths["jsonl"].read_text().splitlines(keepends=True)[:10])
    paths["journal"].write_text(journal)
    os.link(paths["journal"], tmp_path / "my-copy.jsonl")
    line = one_line(swords(*WORDNET, "--output", str(tmp_path / "y.jsonl")))
    assert f"{paths['journal']} has another name (a hard link)" in line
    assert (tmp_path / "my-copy.jsonl").read_text() == journal


@pytest.mark.slow  # 3 s on two cores
def test_every_run_says_what_it_wrote_and_an_odd_output_name_is_said_up_front(tmp_path):
    """`swords run --output x.csv` wrote x.csv.jsonl without saying so. A name that does not end in .jsonl or
    .json gets the run's files named first (a name such as runs/llm.swords.test or model-v1.5 is a fine
    stem, so it is not refused); every run ends by naming the files it wrote."""
    done = swords(*WORDNET, "--output", str(tmp_path / "x.csv"))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    named = (
        f"{tmp_path}/x.csv.jsonl (predictions), {tmp_path}/x.csv.json (upstream format), "
        f"{tmp_path}/x.csv.metrics.json (metrics)"
    )
    assert lines[0] == f"--output {tmp_path}/x.csv: a run writes {named}"
    assert lines[-1] == f"wrote {named}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv.json", "x.csv.jsonl", "x.csv.metrics.json"]
    plain = swords(*WORDNET, "--output", str(tmp_path / "y.jsonl"), "--json")
    assert plain.stderr.splitlines() == [
        f"wrote {tmp_path}/y.jsonl (predictions), {tmp_path}/y.json (upstream "
        f"format), {tmp_path}/y.metrics.json (metrics)"
    ]
    json.loads(plain.stdout)  # --json's output stays JSON
    again = swords(*WORDNET, "--output", str(tmp_path / "y.jsonl"))
    assert again.stderr.splitlines()[-1] == f"wrote {tmp_path}/y.metrics.json (metrics; the predictions were there)"


@pytest.mark.slow  # 4 s on two cores
def test_another_system_on_a_finished_output_leads_with_the_system_in_a_short_line(tmp_path, key):
    """Resuming with another system buried "system: 'llm' then, 'wordnet' now" in an 831-character line."""
    output = tmp_path / "out.jsonl"
    with LLMServer() as server:
        assert swords(*llm_args(server.base_url, output, limit=3), env=key).returncode == 0
        line = one_line(swords(*WORDNET, "--output", str(output)))
        assert line == (
            f"swords: error: {output} holds a finished run with other settings (system: 'llm' then, "
            "'wordnet' now); pass --force to replace it, or choose another --output"
        )
        many = one_line(
            swords(
                *llm_args(
                    server.base_url,
                    output,
                    "--temperature",
                    "0.5",
                    "--seed",
                    "3",
                    "--system-prompt",
                    "x" * 300,
                    "--mode",
                    "chat",
                    limit=3,
                ),
                env=key,
            )
        )
    assert "(mode: 'completions' then, 'chat' now; seed: 0 then, 3 now; system_prompt: 'default' then, 'xxxxx" in many
    assert "... now; and temperature); pass --force" in many and len(many) < len(str(output)) + 300, many


@pytest.mark.parametrize(
    "where, message",
    [
        ("/dev/null", "run files cannot go under /dev"),
        ("/proc/x.jsonl", "run files cannot go under /proc"),
        ("/sys/x.jsonl", "run files cannot go under /sys"),
    ],
)
def test_outputs_under_kernel_folders_are_one_line(where, message):
    line = one_line(swords(*WORDNET, "--output", where))
    assert message in line and f"--output {where}" in line
    assert not os.path.exists(where + ".json") or where == "/dev/null"
    assert not os.path.exists("/dev/null.jsonl") and not os.path.exists("/dev/null.metrics.json")


def test_outputs_into_a_non_folder_or_onto_a_pipe_are_one_line(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    line = one_line(swords(*WORDNET, "--output", str(notes / "x.jsonl")))
    assert f"{notes} is a file, not a folder" in line and notes.read_text() == "mine"
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    line = one_line(swords(*WORDNET, "--output", str(pipe)))
    assert "is not a regular file" in line and str(pipe) in line


def test_a_foreign_lock_file_is_not_truncated(tmp_path):
    output = tmp_path / "run.jsonl"
    lock = output_paths(output)["lock"]
    lock.write_text("my dotfile, not a process id\n")
    line = one_line(swords(*WORDNET, "--output", str(output)))
    assert str(lock) in line and lock.read_text() == "my dotfile, not a process id\n"


def test_a_journal_line_cut_short_is_cut_off_the_file_before_anything_is_appended(tmp_path):
    """What both the runner and the judge read of a journal a kill -9 left mid-line (run.files.whole_lines)."""
    journal = tmp_path / "out.jsonl.partial"
    journal.write_bytes(b'{"header": 1}\n{"id": "a"}\n{"id": "b", "subst')
    assert whole_lines(journal) == b'{"header": 1}\n{"id": "a"}\n'
    assert journal.read_bytes() == b'{"header": 1}\n{"id": "a"}\n'  # the next answer starts a line of its own
    assert whole_lines(journal) == journal.read_bytes()  # whole lines: left as they are
    link = tmp_path / "link.jsonl.partial"
    link.symlink_to(journal)
    with journal.open("ab") as handle:
        handle.write(b'{"id": "c"')
    with pytest.raises(SwordsError, match="symbolic link"):  # never cut through a link
        whole_lines(link)
    assert journal.read_bytes().endswith(b'{"id": "c"')
