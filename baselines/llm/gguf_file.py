"""A GGUF model file's header, read and checked before llama.cpp is given the file.

llama.cpp answers every bad file with the same "Failed to init server" (and may first spend seconds and
gigabytes on it), so the local engine walks the header itself: the magic, a version llama.cpp reads, every
count, string and array inside the file, the tensors' types, shapes and offsets as llama.cpp's gguf.cpp
demands them, and a file long enough for the tensor data its header describes. The walk reads only the
header (a few MB of a memory-mapped file; 0.1 s on SmolLM2-135M: gguf_header.py) and keeps the metadata the
engine needs: the architecture, its trained context and the shapes that size the KV cache.

The format's constants (value types, ggml types and their block sizes) come from the `gguf` package,
llama.cpp's own Python library; its GGUFReader reads every array into numpy (3.7 s on SmolLM2) and fails on a
truncated file with a numpy message, hence this bounded walk.
"""

from __future__ import annotations

import mmap
import os
import struct
from pathlib import Path

from swords_baselines.llm.gguf_header import GGUFHeader, HeaderEnds, HeaderWalker, MalformedHeader
from swords_lexsub.errors import SwordsError

SUPPORTED_VERSIONS = (2, 3)  # llama.cpp refuses version 1 and anything newer than 3
# A length or count asking for more than this (1 TB) is junk, not a real header cut short.
PLAUSIBLE_BYTES = 2**40
_OLD_MAGICS = {b"lmgg": "GGML", b"fmgg": "GGMF", b"tjgg": "GGJT"}  # llama.cpp's formats before GGUF


def read_header(path: Path) -> GGUFHeader:
    """The checked header of a GGUF file; a SwordsError naming the file and what is wrong with it."""
    path = Path(path)
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            start = file.read(512)
            if start[:4] != b"GGUF":
                raise SwordsError(_not_gguf(path, start))
            with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as view:
                return _check(path, view, size)
    except OSError as error:
        raise SwordsError(f"cannot read the model file {path}: {error.strerror or error}") from None


def _not_gguf(path: Path, start: bytes) -> str:
    if not start:
        return f"{path} is empty, not a GGUF model file"
    if start.startswith(b"version https://git-lfs"):
        return f"{path} is a Git LFS pointer, not the model itself: fetch the file (git lfs pull)"
    if start[:4] in _OLD_MAGICS:
        return (
            f"{path} is a {_OLD_MAGICS[start[:4]]} model from before GGUF, which llama.cpp no longer reads: "
            "convert it to GGUF"
        )
    try:
        text = start.decode("utf-8")
    except UnicodeDecodeError as error:  # a multi-byte character cut at 512 bytes is still text
        text = start[: error.start].decode("utf-8") if error.start > len(start) - 4 else ""
    if text and all(c.isprintable() or c in "\t\r\n\f" for c in text):
        return f"{path} is a text file, not a GGUF model (a GGUF file starts with the bytes 'GGUF')"
    shown = " ".join(f"{b:02x}" for b in start[:4])
    return f"{path} is not a GGUF model file (it starts with the bytes {shown}, not 'GGUF')"


def _check(path: Path, view: mmap.mmap, size: int) -> GGUFHeader:
    if size < 8:
        raise SwordsError(f"{path} is truncated: its {size} bytes end inside the GGUF header; get the file again")
    (version,) = struct.unpack_from("<I", view, 4)
    if version not in SUPPORTED_VERSIONS:
        raise SwordsError(_version_problem(path, version))
    walker = HeaderWalker(view, size)
    try:
        return walker.header(path, version)
    except MalformedHeader as error:
        raise SwordsError(f"{path} has a malformed GGUF header: {error}") from None
    except HeaderEnds as end:
        if end.wanted > PLAUSIBLE_BYTES:  # no model's header asks for that much: junk, not a cut
            raise SwordsError(
                f"{path} has a malformed GGUF header: {end.what} would take {end.wanted:,} bytes, the file has {size:,}"
            ) from None
        raise SwordsError(
            f"{path} is truncated: its {size:,} bytes end inside the GGUF header (reading "
            f"{end.what}); get the file again"
        ) from None


def _version_problem(path: Path, version: int) -> str:
    if version == 1:
        return f"{path} is GGUF version 1, which llama.cpp no longer reads: convert the model again"
    if version & 0xFFFF == 0 and (version >> 24) in SUPPORTED_VERSIONS:
        return f"{path} is a big-endian GGUF file; llama.cpp here reads little-endian ones"
    if SUPPORTED_VERSIONS[-1] < version <= 255:
        return (
            f"{path} is GGUF version {version}, newer than llama.cpp here reads (up to "
            f"{SUPPORTED_VERSIONS[-1]}): upgrade xllamacpp"
        )
    return f"{path} has a malformed GGUF header: its version field holds {version:,}"
