"""The GGUF header walk on its own, in-process: each malformed header llama.cpp would refuse, named with what is
wrong; and on the real SmolLM2 file, quick and in agreement with llama.cpp's own gguf package (its KV cache with
xllamacpp's estimate). The same faults through the command line are in test_engine_model_refused.py."""

from __future__ import annotations

import struct
import time

import pytest

from swords_baselines.llm.engine import model_path, unavailable_reason
from swords_baselines.llm.gguf_file import MAX_NAME, read_header
from swords_lexsub.errors import SwordsError

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

MODEL = model_path()


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def _entry(key: str, kind: int, payload: bytes) -> bytes:
    return _string(key) + struct.pack("<i", kind) + payload


def _tensor(name: str, shape: tuple[int, ...], kind: int, offset: int) -> bytes:
    return _string(name) + struct.pack(f"<I{len(shape)}q", len(shape), *shape) + struct.pack("<iQ", kind, offset)


F32, Q4_1, UINT32, UINT64, STRING, ARRAY = 0, 3, 4, 10, 8, 9
ALIGNMENT = "general.alignment"
MALFORMED = {  # what the message says: (tensor count, metadata entries, tensor infos)
    "it counts -1 tensors and 0 metadata entries": (-1, [], []),
    "metadata 'a' has unknown value type 4000": (0, [_entry("a", 4000, b"")], []),
    "metadata 'a' is an array of unknown type 9": (0, [_entry("a", ARRAY, struct.pack("<iQ", ARRAY, 1))], []),
    "metadata key 'a' appears twice": (0, [_entry("a", UINT32, b"\0" * 4)] * 2, []),
    "general.alignment is not a uint32": (0, [_entry(ALIGNMENT, UINT64, struct.pack("<Q", 32))], []),
    "general.alignment is 48, not a power of two": (0, [_entry(ALIGNMENT, UINT32, struct.pack("<I", 48))], []),
    "the value of 'a' would take 4,611,686,018,427,387,904 bytes": (
        0,
        [_entry("a", STRING, struct.pack("<Q", 1 << 62))],
        [],
    ),
    f"is {MAX_NAME} bytes or longer": (1, [], [_tensor("x" * MAX_NAME, (32,), F32, 0)]),
    "tensor 't' has 5 dimensions (at most 4)": (1, [], [_tensor("t", (1, 1, 1, 1, 1), F32, 0)]),
    "tensor 't' has unknown ggml type 999": (1, [], [_tensor("t", (32,), 999, 0)]),
    "tensor 't' (Q4_1) has rows of 33 values, not a multiple of its block size 32": (
        1,
        [],
        [_tensor("t", (33,), Q4_1, 0)],
    ),
    "tensor 'u' has offset 7, expected 128": (2, [], [_tensor("t", (32,), F32, 0), _tensor("u", (32,), F32, 7)]),
}


@pytest.mark.parametrize("expected", list(MALFORMED))
def test_a_malformed_header_is_named_with_what_is_wrong(tmp_path, expected):
    tensors, entries, infos = MALFORMED[expected]
    model = tmp_path / "bad.gguf"
    model.write_bytes(
        b"GGUF" + struct.pack("<Iqq", 3, tensors, len(entries)) + b"".join(entries) + b"".join(infos) + b"\0" * 4096
    )
    with pytest.raises(SwordsError) as refusal:
        read_header(model)
    assert str(refusal.value).startswith(f"{model} has a malformed GGUF header: ") and expected in str(refusal.value)


@pytest.mark.slow  # 4 s on two cores
def test_the_header_walk_is_quick_and_agrees_with_the_gguf_package(tmp_path):
    """On the real model: well under a second (gguf's own GGUFReader takes seconds), the file's size exactly
    what the header describes, the same tensors as gguf's reader."""
    import gguf

    read_header(MODEL)  # imports
    started = time.perf_counter()
    header = read_header(MODEL)
    assert time.perf_counter() - started < 0.5
    assert header.data_offset + header.data_size == MODEL.stat().st_size
    assert (header.architecture, header.context_length, header.kv_bytes_per_token()) == ("llama", 8192, 23040)
    reference = gguf.GGUFReader(MODEL)
    assert [(t.name, t.offset) for t in header.tensors] == [
        (t.name, t.data_offset - header.data_offset) for t in reference.tensors
    ]
    assert [t.size for t in header.tensors] == [int(t.n_bytes) for t in reference.tensors]
    # The KV cache the engine's memory check sizes (engine_limits.check_fits) is xllamacpp's own estimate of it.
    from xllamacpp.memory import dump_metadata_json, graph_size

    metadata = dump_metadata_json(reference, str(MODEL))["metadata"]
    assert sum(graph_size(metadata, 1024, 512, 1, "f16")[0]) == header.kv_bytes_per_token() * 1024
