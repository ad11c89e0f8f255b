"""A GGUF model file's header, read and checked before llama.cpp is given the file, and what it holds as the local
engine needs it (the architecture, its trained context, the shapes that size the KV cache).

llama.cpp answers every bad file with the same "Failed to init server" (and may first spend seconds and gigabytes
on it), so the engine walks the header itself: the magic, a version llama.cpp reads, every count, string and array
checked against the bytes left, the tensors' types, shapes and offsets as llama.cpp's gguf.cpp demands them, and a
file long enough for the tensor data described. The walk reads only the header from a memory map (0.1 s on
SmolLM2-135M). The format's constants come from the `gguf` package, llama.cpp's own Python library; its GGUFReader
reads every array into numpy (3.7 s on SmolLM2) and fails on a truncated file with a numpy message.
"""

from __future__ import annotations

import math
import mmap
import os
import struct
from dataclasses import dataclass, field
from importlib.metadata import version as package_version
from pathlib import Path

from swords_lexsub.errors import SwordsError

MAX_DIMS = 4  # GGML_MAX_DIMS
MAX_NAME = 64  # GGML_MAX_NAME: a tensor name is shorter than this
SUPPORTED_VERSIONS = (2, 3)  # llama.cpp refuses version 1 and anything newer than 3
# A length or count asking for more than this (1 TB) is junk, not a real header cut short.
PLAUSIBLE_BYTES = 2**40
_OLD_MAGICS = {b"lmgg": "GGML", b"fmgg": "GGMF", b"tjgg": "GGJT"}  # llama.cpp's formats before GGUF
SMALL_ARRAY = 4096  # numeric arrays kept as values (per-layer head counts); longer ones (the vocabulary) skipped


class HeaderEnds(Exception):
    """The header asks for more bytes than the file has left."""

    def __init__(self, wanted: int, what: str) -> None:
        super().__init__(what)
        self.wanted, self.what = wanted, what


class MalformedHeader(Exception):
    """The header holds something llama.cpp would refuse."""


@dataclass(frozen=True)
class Tensor:
    name: str
    shape: tuple[int, ...]
    type_name: str
    offset: int  # from the start of the data section
    size: int  # bytes


@dataclass(frozen=True)
class GGUFHeader:
    path: Path
    version: int
    file_size: int
    data_offset: int  # where the tensor data begin (the header's end, aligned)
    data_size: int  # bytes of tensor data the header describes (to the end of the tensor that ends last)
    metadata: dict = field(repr=False)  # scalars and strings; numeric arrays up to SMALL_ARRAY long
    tensors: tuple[Tensor, ...] = field(repr=False)

    @property
    def architecture(self) -> str | None:
        value = self.metadata.get("general.architecture")
        return value if isinstance(value, str) else None

    def arch_value(self, key: str):
        """`<arch>.key` of the model's architecture, or None."""
        return self.metadata.get(f"{self.architecture}.{key}") if self.architecture else None

    @property
    def context_length(self) -> int | None:
        """The context the model was trained with (`<arch>.context_length`)."""
        value = self.arch_value("context_length")
        return value if isinstance(value, int) and value > 0 else None

    def kv_bytes_per_token(self, bytes_per_value: int = 2) -> int | None:
        """Bytes of KV cache one token takes (f16 K and V in every layer); None when the header lacks the shapes."""
        layers, heads = self.arch_value("block_count"), self.arch_value("attention.head_count")
        embedding = self.arch_value("embedding_length")
        kv_heads = self.arch_value("attention.head_count_kv")
        kv_heads = heads if kv_heads is None else kv_heads
        if not isinstance(layers, int) or layers <= 0:
            return None
        per_layer = [kv_heads] * layers if isinstance(kv_heads, int) else kv_heads
        head_counts = [heads] * layers if isinstance(heads, int) else heads
        if not (isinstance(per_layer, list) and isinstance(head_counts, list) and len(per_layer) == layers):
            return None
        widest = max((h for h in head_counts if isinstance(h, int) and h > 0), default=0)
        default_width = embedding // widest if isinstance(embedding, int) and widest else None
        key_width = self.arch_value("attention.key_length") or default_width
        value_width = self.arch_value("attention.value_length") or default_width
        if not (isinstance(key_width, int) and isinstance(value_width, int)):
            return None
        return sum(int(h) for h in per_layer) * (key_width + value_width) * bytes_per_value


class HeaderWalker:
    """Reads the header from a memory map, checking every length against the bytes left."""

    def __init__(self, view: mmap.mmap, size: int) -> None:
        import gguf
        import numpy

        self.gguf, self.numpy, self.view, self.size, self.position = gguf, numpy, view, size, 8
        # GGUF's scalar value types as numpy reads them (little-endian), from gguf's own table
        self.scalar = {
            int(kind): numpy.dtype(dtype).newbyteorder("<") for kind, dtype in gguf.GGUFReader.gguf_scalar_to_np.items()
        }

    def take(self, length: int, what: str) -> int:
        if length > self.size - self.position:
            raise HeaderEnds(length, what)
        start = self.position
        self.position += length
        return start

    def unpack(self, form: struct.Struct, what: str):
        return form.unpack_from(self.view, self.take(form.size, what))[0]

    def raw_string(self, what: str) -> bytes:
        length = self.unpack(_U64, f"the length of {what}")
        start = self.take(length, what)
        return self.view[start : start + length]

    def string(self, what: str) -> str:
        return self.raw_string(what).decode("utf-8", errors="replace")

    def header(self, path: Path, version: int) -> GGUFHeader:
        tensor_count = self.unpack(_I64, "the tensor count")
        entry_count = self.unpack(_I64, "the metadata count")
        if tensor_count < 0 or entry_count < 0:
            raise MalformedHeader(f"it counts {tensor_count:,} tensors and {entry_count:,} metadata entries")
        # The least each item takes: a metadata entry 13 bytes (key length, type, a byte), a tensor 24.
        least = entry_count * 13 + tensor_count * 24
        if least > self.size - self.position:
            raise HeaderEnds(least, f"{entry_count:,} metadata entries and {tensor_count:,} tensors")
        metadata = self.metadata(entry_count)
        alignment = metadata.get("general.alignment", self.gguf.GGUF_DEFAULT_ALIGNMENT)
        if alignment <= 0 or alignment & (alignment - 1):
            raise MalformedHeader(f"general.alignment is {alignment}, not a power of two")
        tensors = self.tensors(tensor_count, alignment)
        data_offset = -(-self.position // alignment) * alignment
        data_size = max((t.offset + t.size for t in tensors), default=0)
        if self.size < data_offset + data_size:
            raise SwordsError(
                f"{path} is truncated: its header describes {data_size:,} bytes of tensor data, the file has "
                f"{max(0, self.size - data_offset):,}; get the file again"
            )
        return GGUFHeader(path, version, self.size, data_offset, data_size, metadata, tuple(tensors))

    def metadata(self, count: int) -> dict:
        kinds = self.gguf.GGUFValueType
        metadata: dict = {}
        for index in range(count):
            key = self.string(f"metadata key {index}")
            if key in metadata:
                raise MalformedHeader(f"metadata key {_shown(key)} appears twice")
            kind = declared = self.unpack(_I32, f"the type of {_shown(key)}")
            if kind == kinds.ARRAY:
                kind = self.unpack(_I32, f"the element type of {_shown(key)}")
                length = self.unpack(_U64, f"the length of {_shown(key)}")
                if kind == kinds.ARRAY or (kind != kinds.STRING and kind not in self.scalar):
                    raise MalformedHeader(f"metadata {_shown(key)} is an array of unknown type {kind}")
                value = self.array(key, kind, length)
                if value is not None:
                    metadata[key] = value
            elif kind == kinds.STRING:
                metadata[key] = self.string(f"the value of {_shown(key)}")
            elif kind in self.scalar:
                metadata[key] = self.value(kind, f"the value of {_shown(key)}")
            else:
                raise MalformedHeader(f"metadata {_shown(key)} has unknown value type {kind}")
            if key == "general.alignment" and declared != kinds.UINT32:  # llama.cpp asserts (aborts) on any other
                raise MalformedHeader("general.alignment is not a uint32")
        return metadata

    def value(self, kind: int, what: str):
        dtype = self.scalar[kind]
        return self.numpy.frombuffer(self.view, dtype, 1, self.take(dtype.itemsize, what))[0].item()

    def array(self, key: str, kind: int, length: int) -> list | None:
        what = f"the array {_shown(key)}"
        if kind == self.gguf.GGUFValueType.STRING:
            if length > (self.size - self.position) // 8:
                raise HeaderEnds(length * 8, what)
            for _ in range(length):
                self.take(self.unpack(_U64, what), what)
            return None
        dtype = self.scalar[kind]
        if length > (self.size - self.position) // dtype.itemsize:
            raise HeaderEnds(length * dtype.itemsize, what)
        start = self.take(length * dtype.itemsize, what)
        return self.numpy.frombuffer(self.view, dtype, length, start).tolist() if length <= SMALL_ARRAY else None

    def tensors(self, count: int, alignment: int) -> list[Tensor]:
        sizes, kinds = self.gguf.GGML_QUANT_SIZES, self.gguf.GGMLQuantizationType
        tensors, names, expected = [], set(), 0
        for index in range(count):
            raw = self.raw_string(f"the name of tensor {index}")
            name = raw.decode("utf-8", errors="replace")
            if len(raw) >= MAX_NAME or name in names:
                raise MalformedHeader(
                    f"tensor {index}'s name {_shown(name)} is "
                    + ("used twice" if name in names else f"{MAX_NAME} bytes or longer")
                )
            names.add(name)
            dims = self.unpack(_U32, f"the dimensions of tensor {_shown(name)}")
            if dims > MAX_DIMS:
                raise MalformedHeader(f"tensor {_shown(name)} has {dims:,} dimensions (at most {MAX_DIMS})")
            shape = tuple(self.unpack(_I64, f"the shape of tensor {_shown(name)}") for _ in range(dims))
            elements = math.prod(shape)
            if any(extent < 0 for extent in shape) or elements >= 2**63:
                raise MalformedHeader(f"tensor {_shown(name)} has shape {shape}")
            type_id = self.unpack(_I32, f"the type of tensor {_shown(name)}")
            try:
                kind = kinds(type_id)
                block, type_size = sizes[kind]
            except (ValueError, KeyError):
                raise MalformedHeader(
                    f"tensor {_shown(name)} has unknown ggml type {type_id} (a newer type than "
                    f"gguf {package_version('gguf')} knows? upgrade gguf)"
                ) from None
            if shape and shape[0] % block:
                raise MalformedHeader(
                    f"tensor {_shown(name)} ({kind.name}) has rows of {shape[0]} values, not a "
                    f"multiple of its block size {block}"
                )
            offset = self.unpack(_U64, f"the offset of tensor {_shown(name)}")
            if offset != expected:  # llama.cpp wants the tensors packed in order, each padded to the alignment
                raise MalformedHeader(f"tensor {_shown(name)} has offset {offset:,}, expected {expected:,}")
            size = elements // block * type_size
            tensors.append(Tensor(name, shape, kind.name, offset, size))
            expected = offset + -(-size // alignment) * alignment
        return tensors


def _shown(text: str, limit: int = 60) -> str:
    """A name from the file, quoted and cut short for a one-line message."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


_U32, _I32, _U64, _I64 = (struct.Struct(f"<{code}") for code in "IiQq")


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
