"""The transformer baselines' models, found and loaded offline (the MiniLM shipped on PyPI, a local folder, or a Hub
id from the local cache, or the Hub when it answers), each failure one line naming the model; and the base class of
a system that cannot run where its model is absent. torch and transformers are imported inside the functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from swords_baselines.neural.minilm import PACKAGED_MINILM, packaged_minilm_folder
from swords_baselines.system import System
from swords_lexsub.errors import SwordsError

HUB_PROBE_TIMEOUT = 3.0  # seconds to decide whether the Hugging Face Hub can be reached at all


def _hub_reachable() -> bool:
    """Whether the Hub answers at all, decided in seconds (its client retries for about a minute)."""
    import os
    import urllib.error
    import urllib.request

    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        return False
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    try:
        urllib.request.urlopen(urllib.request.Request(endpoint, method="HEAD"), timeout=HUB_PROBE_TIMEOUT)
    except urllib.error.HTTPError:
        return True  # it answered, if only with an error page
    except (OSError, ValueError):
        return False
    return True


def resolve_model(model: str) -> tuple[str, bool]:
    """(what to load, whether it is all here) for a model name: the packaged MiniLM (sha256 checked), a local folder, a
    Hub id from the local cache or the reachable Hub; else a SwordsError within seconds, saying how to provide it."""
    if model == PACKAGED_MINILM:
        return str(packaged_minilm_folder()), True
    path = Path(model).expanduser()
    if model.startswith((".", "/", "~")) or model.count("/") > 1 or "\\" in model or Path(model).exists():
        if not path.is_dir():
            raise SwordsError(f"no model folder at {model}", hint="--model takes a Hub id or a folder holding one")
        if not (path / "config.json").is_file():
            raise SwordsError(
                f"{model} is not a model folder (no config.json in it)",
                hint="pass the folder that save_pretrained() wrote",
            )
        return str(path), True
    try:
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(model, "config.json")
    except Exception:  # not a valid repo id, or no cache at all
        cached = None
    if isinstance(cached, str):
        return model, True
    if _hub_reachable():
        return model, False
    raise SwordsError(
        f"model {model!r} is not on this machine and the Hugging Face Hub cannot be reached",
        hint=f"download it where there is network (huggingface-cli download {model}) and pass its folder with "
        "--model PATH",
    )


def model_unavailable(model: str) -> str | None:
    """Why `model` cannot be loaded here (a missing package, a model not here), without loading it; None if it can."""
    from swords_lexsub.extras import install_hint, installed

    missing = [name for name in ("torch", "transformers") if not installed(name)]
    if missing:
        return f"needs {' and '.join(missing)}: {install_hint('baselines')}"
    try:
        resolve_model(model)
    except SwordsError as error:
        return str(error)
    return None


class ModelSystem(System):
    """A system that loads a model named by its `model` option: it cannot run where that model is absent."""

    extra = "baselines"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return super().unavailable_reason() or model_unavailable(cls.default("model"))


def load_model(model: str, masked_lm: bool = False):
    """(tokenizer, model) in eval mode on CPU; what is on this machine loaded with local_files_only (no Hub wait)."""
    path, local = resolve_model(model)
    return load_tokenizer(model, path, local), load_network(model, path, local, masked_lm)


def load_tokenizer(model: str, path: str, local: bool):
    """The tokenizer of a resolved model (see :func:`resolve_model`)."""
    from transformers import AutoTokenizer

    with _loading(model):
        return AutoTokenizer.from_pretrained(path, local_files_only=local)


def load_network(model: str, path: str, local: bool, masked_lm: bool = False):
    """The network of a resolved model, in eval mode on CPU."""
    from transformers import AutoModel, AutoModelForMaskedLM

    cls = AutoModelForMaskedLM if masked_lm else AutoModel
    with _loading(model):
        network = cls.from_pretrained(path, local_files_only=local)
    network.eval()
    return network


@contextmanager
def _loading(model: str) -> Iterator[None]:
    """What transformers raises for a folder without weights, a cache missing a file or a bad config, as one line."""
    try:
        yield
    except (OSError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SwordsError(f"cannot load model {model!r}: {first}") from None
