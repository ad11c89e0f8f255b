"""The prompted LLM's one configuration: the command line, `--list`, `--preset paper` and the Space's form are
derived from LLMConfig; building the system does no I/O, `start()` (or a with block) does; options given from
Python are checked as the parser checks them; a session's key is handed over by a public method."""

from __future__ import annotations

import argparse
import dataclasses
import re

import pytest

from swords_baselines.cli import list_systems, system_parser
from swords_baselines.llm import LLM, LLMConfig, UnknownTokenizer
from swords_lexsub.errors import SwordsError

from ..llm_server import LLMServer


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def test_every_setting_is_an_option_of_the_command_line_and_of_the_list():
    fields = dataclasses.fields(LLMConfig)
    assert [option.name for option in LLM.options] == [item.name for item in fields]
    help_text = " ".join(system_parser("llm").format_help().split("options:", 1)[1].split())  # unwrapped
    listing = list_systems().split("\nllm  [generative]")[1].split("\ngpt3-recorded")[0]
    for item in fields:
        assert flag(item.name) in help_text and flag(item.name) in listing, item.name
        shown = "none" if item.default is None else str(item.default)
        if item.type not in ("bool", "bool | None"):  # argparse's --x/--no-x pairs show no default
            found = re.search(re.escape(flag(item.name)) + r" [A-Z_{][^ ]* .*?\(default: ([^)]*)\)", help_text)
            assert found and found.group(1) == shown, item.name
        if item.metadata["choices"]:
            assert "{" + ",".join(item.metadata["choices"]) + "}" in help_text, item.name
    # The parser and the config agree on the defaults: an empty command line is the default config.
    parsed = vars(system_parser("llm").parse_args([]))
    assert LLMConfig(**parsed) == LLMConfig()


def test_options_given_from_python_are_checked_as_the_parser_checks_them():
    with pytest.raises(SwordsError, match=r"llm: --mode 'cht' \(did you mean 'chat'\?\); choose completions, chat"):
        LLM(mode="cht")
    with pytest.raises(SwordsError, match=r"llm: --presence-penalty 3 is out of range \(at least -2, at most 2\)"):
        LLM(presence_penalty=3)
    with pytest.raises(SwordsError, match="llm: unknown option 'temprature'"):
        LLM(temprature=0.5)
    with pytest.raises(SwordsError, match="--budget 100 leaves no room for a prompt beside --max-tokens 128"):
        LLM(budget=100)
    with pytest.raises(SwordsError, match=r"--stop '\\\\x': .*a backslash starts an escape"):
        LLM(stop="\\x")
    with pytest.raises(SwordsError, match="--preset paper sets temperature to 0.0; drop --temperature"):
        LLM(preset="paper", temperature=0.7)
    assert LLMConfig.of(preset="paper") == dataclasses.replace(LLMConfig(), preset="paper", force_longer=True)


def test_building_the_system_does_no_io_and_start_does(tmp_path, monkeypatch):
    import swords_dataset

    with LLMServer() as server:
        reads = []
        real_rows = swords_dataset.rows
        monkeypatch.setattr(swords_dataset, "rows", lambda *a, **k: reads.append(a) or real_rows(*a, **k))
        system = LLM(model="my-model", base_url=server.base_url, cache_dir="off")
        # A model file that does not exist, an engine that is not started: nothing is looked at yet.
        local = LLM(local=True, model=str(tmp_path / "missing.gguf"), cache_dir="off")
        assert server.requests == [] and reads == [] and system.engine is None and local.engine is None
        with pytest.raises(SwordsError, match="start\\(\\) the system"):
            list(system.answers(real_rows("swords", "dev")[:1]))
        # start() asks the server for its tokenizer; this one has none, which is a typed error.
        with pytest.raises(UnknownTokenizer, match="no known tokenizer for model 'my-model'"):
            with system:
                pass
        assert {request["path"] for request in server.requests} == {"/tokenize"}  # as llama.cpp, then vLLM
        with pytest.raises(SwordsError, match="no GGUF model file at .*missing.gguf"):
            local.start()
        with LLM(model="my-model", base_url=server.base_url, cache_dir="off", tokenizer="cl100k_base") as started:
            assert reads == [("swords", "dev")] and started.builder is not None
            bias = started.parameters.pop("logit_bias")
            assert started.parameters == started.settings.sampling("my-model") and bias["100257"] == -100


def test_a_session_key_is_used_in_memory_and_only_before_the_start(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with LLMServer() as server:
        system = LLM(model="davinci", base_url=server.base_url, api_key_env="SWORDS_NOBODY_SETS_THIS", cache_dir="off")
        system.use_api_key("sk-session-" + "k" * 24)
        with system:
            answers = list(
                system.answers(
                    [{"id": "t:x", "context": "A bright idea.", "target": "bright", "offset": 2, "substitutes": []}]
                )
            )
            with pytest.raises(SwordsError, match="set before the system starts"):
                system.use_api_key("sk-other")
        assert answers[0].failure is None and answers[0].prediction
        assert server.authorization == {"Bearer sk-session-" + "k" * 24}
    # OpenAI's own API without any key is refused by check(), before anything starts.
    with pytest.raises(SwordsError, match="SWORDS_NOBODY_SETS_THIS is not set"):
        LLM(api_key_env="SWORDS_NOBODY_SETS_THIS").check()
    keyed = LLM(api_key_env="SWORDS_NOBODY_SETS_THIS")
    keyed.use_api_key("sk-session-" + "k" * 24)
    keyed.check()


def test_the_spaces_form_is_the_configs():
    pytest.importorskip("gradio")
    from swords_space.errors import SpaceError
    from swords_space.tabs import substitute_llm as form

    assert form.MODE["choices"] == LLMConfig.describe("mode")["choices"] == ("completions", "chat")
    assert (form.BASE_URL["label"], form.MODEL["label"]) == ("Base URL", "Model")
    with pytest.raises(SpaceError, match=re.escape("The mode is completions or chat.")):
        form.llm_settings("https://api.example.com/v1", "m", "edit", "sk-" + "k" * 24)


def test_preset_paper_pins_the_papers_settings():
    with pytest.raises(SwordsError, match="--preset paper sets temperature to 0.0; drop --temperature"):
        LLM(preset="paper", temperature=0.7, base_url="http://127.0.0.1:9/v1", model="davinci")
    with pytest.raises(SwordsError, match="--preset paper sets the stops"):
        LLM(preset="paper", stop="\\n", base_url="http://127.0.0.1:9/v1", model="davinci")
    with LLM(preset="paper", base_url="http://127.0.0.1:9/v1", model="davinci", cache_dir="off") as system:  # r50k
        pass
    assert system.parameters["stop"] == ["\n", "\r", "\n\n"]
    assert system.parameters["logit_bias"] == {"198": -100, "201": -100, "628": -100, "50256": -100}
    assert (system.parameters["temperature"], system.parameters["presence_penalty"]) == (0.0, 0.5)
    assert (system.parameters["max_tokens"], system.builder.limit) == (128, 2048 - 128)


def test_a_local_engine_waits_longer_for_a_request_than_a_server_unless_told():
    """--local's requests share this machine's CPU (the paper's budget passed 60 s a request at a load of 6 to 9, and
    the run stopped): 600 s by default there, 60 s for a server, --timeout for both; the run and the judge alike."""
    from swords_baselines.judge.cli import add_judge_options
    from swords_baselines.judge.llm import JudgeSettings

    for make in (LLMConfig.of, JudgeSettings):
        assert make().seconds_a_request == 60.0
        assert make(local=True).seconds_a_request == 600.0
        assert make(local=True, timeout=5.0).seconds_a_request == make(timeout=5.0).seconds_a_request == 5.0
    judge = argparse.ArgumentParser()
    add_judge_options(judge)
    for parser in (system_parser("llm"), judge):
        help_text = " ".join(parser.format_help().split())
        assert "(none: 60; with --local, 600)" in help_text, help_text
