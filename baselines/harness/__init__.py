"""SWORDS in EleutherAI's lm-evaluation-harness (`lm-eval`): task groups shipped as YAML files in `tasks/`, for
`lm_eval --include_path "$(swords lm-eval path)" --tasks swords_gen` (or `prolex_tsar2022_gen`), the prompted LLM
baseline's own requests scored by the benchmark's scorer (task.py). Nothing here imports lm-eval until a task is
built, so the `swords` command stays fast.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from swords_lexsub.errors import SwordsError

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
INSTALL = "pip install 'swords-lexsub[lm-eval]'"
# Task name -> (benchmark config, split). The YAML files in tasks/ name the same.
TASKS = {
    "swords_dev_gen": ("swords", "dev"),
    "swords_test_gen": ("swords", "test"),
    "coinco_test_gen": ("coinco", "test"),
    "semeval07_test_gen": ("semeval07", "test"),
    "prolex_test_gen": ("prolex", "test"),
    "tsar2022_en_test_gen": ("tsar2022_en", "test"),
    "tsar2022_es_test_gen": ("tsar2022_es", "test"),
    "tsar2022_pt_test_gen": ("tsar2022_pt", "test"),
}
GROUP = "swords_gen"  # the SWORDS paper's three test sets
FAMILY_GROUP = "prolex_tsar2022_gen"  # ProLex and TSAR-2022 test, each with its own official metrics


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "lm-eval",
        help="the SWORDS tasks for lm-evaluation-harness",
        description=f"Tasks for EleutherAI's lm-evaluation-harness: {', '.join(TASKS)}, the group {GROUP} (the "
        f"SWORDS paper's three test sets) and the group {FAMILY_GROUP} (ProLex and TSAR-2022 en/es/pt test). Run "
        "them with: lm_eval --model local-completions --model_args "
        "model=M,base_url=http://HOST:PORT/v1/completions,tokenizer_backend=none,tokenized_requests=False "
        f'--include_path "$(swords lm-eval path)" --tasks {GROUP}',
    )
    commands = command.add_subparsers(dest="lm_eval_command", required=True, metavar="COMMAND")
    path = commands.add_parser("path", help="print the folder of the task files (for lm_eval --include_path)")
    path.set_defaults(func=path_command)


def path_command(args: argparse.Namespace) -> int:
    from swords_lexsub.extras import installed

    if not installed("lm_eval"):
        raise SwordsError(f"the lm-eval tasks need lm-eval: {INSTALL}")
    print(TASKS_DIR)
    return 0
