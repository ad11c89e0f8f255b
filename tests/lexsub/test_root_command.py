"""The `swords` root command: subcommands come from the installed packages' entry points, and a command imports
only the package that owns it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..conftest import REPO_ROOT, run_swords

COMMANDS = ("data", "demo", "docs", "evaluate", "hub", "judge", "llm", "lm-eval", "run")


def imported_by(*args: str) -> set[str]:
    """Our top-level packages a `swords` command has imported once it has run (here, printed its help)."""
    script = "\n".join(
        [
            "import sys",
            "from swords_lexsub.cli import main",
            "try:",
            "    main(sys.argv[1:])",
            "except SystemExit:",
            "    pass",
            "names = {name.split('.')[0] for name in sys.modules if name.startswith('swords_')}",
            "print(' '.join(names), file=sys.stderr)",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(done.stderr.strip().splitlines()[-1].split())


@pytest.mark.slow  # 5 s on two busy cores (load 4-6)
def test_a_command_imports_only_its_own_package():
    assert imported_by("evaluate", "--help") == {"swords_lexsub", "swords_dataset", "swords_metric"}
    assert imported_by("hub", "export", "--help") == {"swords_lexsub"}
    assert "swords_space" not in imported_by("run", "--help")
    assert imported_by("--help") >= {"swords_dataset", "swords_metric", "swords_baselines", "swords_space"}


def test_every_command_is_listed_and_a_mistyped_one_gets_a_suggestion():
    listed = run_swords("--help")
    assert listed.returncode == 0 and "{" + ",".join(COMMANDS) + "}" in listed.stdout
    mistyped = run_swords("evaluat", "--predictions", "x.jsonl")
    assert mistyped.returncode == 2
    assert mistyped.stderr.strip().splitlines()[-1] == (
        "swords: error: argument command: invalid choice: 'evaluat' (choose from "
        + ", ".join(f"'{name}'" for name in COMMANDS)
        + ") (did you mean 'evaluate'?) (see swords --help)"
    )


def test_a_mistyped_choice_in_another_case_gets_its_suggestion():
    done = run_swords("evaluate", "--dataset", "SWORDS", "--predictions", "x.jsonl")
    assert done.returncode == 2
    assert done.stderr.strip().endswith("(did you mean 'swords'?) (see swords evaluate --help)")
    system = run_swords("run", "--system", "WordNet+Embedding", "--dataset", "swords")
    assert system.returncode == 2 and "did you mean 'wordnet+embedding'?" in system.stderr, system.stderr


def test_a_command_whose_package_cannot_be_imported_is_named_among_the_others():
    # swords_space made unimportable (None in sys.modules makes `import swords_space` raise ImportError).
    script = "import sys\nsys.modules['swords_space'] = None\nfrom swords_lexsub.cli import main\nmain(['demo'])"
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith(
            "swords: error: argument command: invalid choice: 'demo' (choose from "
            + ", ".join(f"'{name}'" for name in COMMANDS if name != "demo")
            + ")"
        )
    )


def _plugin(folder) -> dict:
    """Another installed package adding `swords hello` (its module and its metadata on PYTHONPATH): the env to run."""
    (folder / "hello_plugin.py").write_text(
        "def register(subparsers):\n"
        "    command = subparsers.add_parser('hello', help='say hello')\n"
        "    command.set_defaults(func=lambda args: print('hello from a plugin') or 0)\n"
    )
    metadata = folder / "hello_plugin-1.0.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: hello-plugin\nVersion: 1.0\n")
    (metadata / "entry_points.txt").write_text("[swords.commands]\nhello = hello_plugin:register\n")
    return {"PYTHONPATH": str(folder)}


def test_a_plugin_adds_its_command_and_a_built_in_command_reads_only_the_toolkits_metadata(tmp_path):
    env = _plugin(tmp_path)
    done = run_swords("hello", env=env)
    assert done.returncode == 0 and done.stdout == "hello from a plugin\n", done.stderr
    assert "hello" in run_swords("--help", env=env).stdout
    # Which packages' entry points each command read (an audit hook sees every file opened).
    script = "\n".join(
        [
            "import sys",
            "read = []",
            "sys.addaudithook(lambda event, args: event == 'open' and str(args[0]).endswith('entry_points.txt')"
            " and read.append(str(args[0])))",
            "from swords_lexsub.cli import main",
            "try:",
            "    main(sys.argv[1:])",
            "except SystemExit:",
            "    pass",
            "print(len(read), file=sys.stderr)",
        ]
    )

    def read_by(*args: str) -> int:
        run = subprocess.run(
            [sys.executable, "-c", script, *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
            env={**os.environ, **env},
        )  # fmt: skip
        assert run.returncode == 0, run.stderr[-2000:]
        return int(run.stderr.strip().splitlines()[-1])

    assert read_by("evaluate", "--help") == 1  # the toolkit's own
    assert read_by("hello", "--help") > 2  # every installed package's, the plugin's among them


def test_the_toolkits_own_entry_points_are_those_importlib_metadata_reads():
    """A built-in command reads the toolkit's entry_points.txt itself; importlib.metadata, its reference, agrees on
    every group and object, and is not imported by a built-in command (its import alone is a tenth of a plain
    `swords evaluate`)."""
    from importlib.metadata import distribution

    from swords_lexsub.plugins import BUILD_STEPS, DISTRIBUTION, HUB_REPOS, own_entry_points
    from swords_lexsub.plugins import COMMANDS as GROUP

    declared = distribution(DISTRIBUTION).entry_points
    for group in (GROUP, BUILD_STEPS, HUB_REPOS, "console_scripts", "no.such.group"):
        ours = own_entry_points(group)
        assert [(e.name, e.value) for e in ours] == [(e.name, e.value) for e in declared.select(group=group)]
        assert [e.load() for e in ours] == [e.load() for e in declared.select(group=group)]
    assert len(own_entry_points(GROUP)) == len(COMMANDS) - 1  # all but `docs`, the root package's own
    script = "import sys; from swords_lexsub.cli import main\n"
    script += "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
    script += "print('importlib.metadata' in sys.modules, file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", script, "evaluate", "--help"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stderr.strip().splitlines()[-1] == "False", done.stderr[-2000:]
