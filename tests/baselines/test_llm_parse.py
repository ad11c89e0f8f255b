"""Parsing the few-shot LLM baseline's completions, on the paper's real GPT-3 completions: the bundled completions
are the upstream file's, each parses to the distinct substitutes counted by hand, and the rules (an item cut by the
token limit, the target, case, quotes, repeats, chat answers' lists)."""

from __future__ import annotations

from swords_baselines.llm import load_recorded
from swords_baselines.llm.parse import parse_completion, split_completion, to_prediction

from .conftest import RECORDED_FILE
from .llm_helpers import GPT3_DAVINCI_SWORDS_V08_DEV

ZONE = "t:4cfdc78faf79a4b795a66ca5fb4be30191ea133b"  # "zone": 64 items, 13 distinct


# Distinct substitutes in each real davinci completion, after dropping the target, the item cut by the
# token limit and repeats. CHECKED BY HAND: each completion was read item by item and the distinct
# substitutes counted (e.g. "zone": area, region, district, quarter, territory, precinct, sector, realm,
# sphere, locality, section, neighborhood, locale = 13 of 64 items; "go" ends with a cut "get", which
# would otherwise be new). None: one of the 6 recorded targets that are not in SWORDS v1.1, whose target
# word is unknown, so nothing is dropped as the target.
HAND_CHECKED = {
    "t:09ebfa5992f5ab9081cb6065f04e9a3718322923": ("go", 41, 18),
    "t:2b3c36b764020f5160c6df32e776563ec83bc350": (None, 22, 11),
    "t:75908b558dc7ff207e5d7026e98ba5bf66941301": ("health", 37, 4),
    "t:f54b9519896c48b8acab271a10236f8cc75c96c8": ("flow", 63, 15),
    "t:2a90921463732a1522a6960217685331b359993a": ("said", 43, 2),
    "t:362589f6dcbed638ce792b0cf7f41f794038dcef": ("government", 43, 14),
    "t:e5d42d07e5dda6382a3e1f967f2ca119c5b6a404": ("working", 43, 15),
    "t:a99484d6fdeefdaf40a389842c970904e1938675": ("payment", 60, 22),
    "t:b5fe3274c71cc01d03995602a44e8bc44da997bc": ("innocent", 14, 8),
    "t:cd6ca63d0f00897f4cf0eeda54cc6dfb3711d012": ("sure", 62, 8),
    "t:2474e76ce72ab58cb3ad315962ef225a238d4208": (None, 17, 9),
    "t:e55ae6cccfbd9868a9f5b19972e5b7f1eed4cd2c": ("permitted", 35, 15),
    "t:71992ec165ae2faf322ad592c0559ffa10d8e1e0": ("think", 47, 44),
    "t:7f1d26dea59df9f9cbf34e416ff89ede8e0f9aea": ("total", 31, 10),
    "t:897fe9be41b3c91c90359585b17b8d4ff0012443": (None, 62, 3),
    "t:2cac286b85ca6e58989b4855d78722d76fc9538c": ("biggest", 44, 22),
    "t:55a604464059a6ade267fd915152d2496c070152": ("trip", 29, 12),
    "t:683b4213199d861ede76ec68d9ab81e122161444": ("called", 50, 3),
    "t:37ae0994ea35c48a795d5540834893830d26c9be": ("return", 17, 17),
    "t:24c595f2656f0071bef445b751603bab9993a914": ("case", 64, 5),
    "t:16d59a440f185eb43dfc0c260c5324e23e2a9857": ("separate", 35, 12),
    "t:8399b9c65e7d8af76e4c0bf6b9b3c00b7141b7a9": ("ease", 28, 9),
    "t:d20b0281ef255e8a9594645c43d545978db60c09": (None, 31, 14),
    "t:25257d54af0f952a2ce3373b35a230d22f88445b": ("only", 25, 14),
    "t:d228977b09734a601732321eb09e3b7f0c65f9c7": ("composite", 21, 20),
    "t:254d93d0f08d6563ab3e0b32721db8ee3cc57132": ("now", 23, 12),
    "t:6ee840c01af5ee681110626a7eedde024e4810d1": ("corporate", 46, 18),
    "t:51f4689eb15ae01455c907bb4c69729e05583f4f": ("get", 27, 15),
    "t:b4e703fa2c779cb61bbf6fe0c98bc6dd6cad7de7": (None, 34, 12),
    "t:a37db6c4dc5560fabcb679c2facbb2ac63cb878b": ("office", 63, 2),
    "t:a724fadd9f4a76b633f64b8dac1886a11ecb0655": ("named", 33, 7),
    "t:a770ee27b182740468dc63692667b7e652237a48": ("Moreover", 40, 8),
    "t:375f18bc6f2b69baa34903157637ae39e76064cf": ("office", 64, 1),
    "t:a0ea86bd8b6dd1dccaba3d7779774de0488afc91": ("bid", 64, 4),
    "t:71c9907dec3a71f27908b8b7f6d15ec36debd8be": (None, 20, 16),
    "t:1f3ab2f656ddd40c7ba260807d2f7a6ce544b56c": ("shares", 52, 4),
    "t:8e510d8a139610e9f866bdc381c768301dcc4ec9": ("existed", 22, 17),
    "t:40a99f0b439ae3973360edb6765571ed7e34ef17": ("destroyed", 64, 3),
    ZONE: ("zone", 64, 13),
    "t:9605ab4d29b7ac7f0036e65149c0f7ea248f965b": ("says", 44, 16),
    "t:85ac3810a82746aa2e2cf133a6b2b0ac9300f3b1": ("representative", 59, 6),
    "t:714c491727ba4d95ab0293cd482f93e58623e26e": ("hire", 23, 9),
    "t:292bb0acd7a58632cc37c5369e34aa6d98accd14": ("committees", 28, 8),
}


def test_the_bundled_completions_are_the_upstream_ones(recorded_file):
    assert set(GPT3_DAVINCI_SWORDS_V08_DEV) == set(recorded_file) and len(recorded_file) == 43
    for target_id, completion in recorded_file.items():
        choice = completion["choices"][0]
        bundled = GPT3_DAVINCI_SWORDS_V08_DEV[target_id]
        assert bundled == {"text": choice["text"], "finish_reason": choice["finish_reason"]}
    assert load_recorded(RECORDED_FILE) == GPT3_DAVINCI_SWORDS_V08_DEV


def test_hand_checked_unique_counts_of_the_real_davinci_completions(dev_by_id):
    assert set(HAND_CHECKED) == set(GPT3_DAVINCI_SWORDS_V08_DEV)
    for target_id, (target, items, unique) in HAND_CHECKED.items():
        assert (dev_by_id[target_id]["target"] if target_id in dev_by_id else None) == target
        output = GPT3_DAVINCI_SWORDS_V08_DEV[target_id]
        assert len([piece for piece in output["text"].split(",") if piece.strip()]) == items, target_id
        parsed = parse_completion(output["text"], target, output["finish_reason"])
        assert len(parsed) == unique, (target_id, target, parsed)
    zone = GPT3_DAVINCI_SWORDS_V08_DEV[ZONE]
    assert parse_completion(zone["text"], "zone", "length") == [
        "area", "region", "district", "quarter", "territory", "precinct", "sector",
        "realm", "sphere", "locality", "section", "neighborhood", "locale",
    ]  # fmt: skip


def test_parsing_rules():
    # Cut by the limit: the last piece is incomplete and dropped; a final separator loses nothing.
    assert parse_completion(" get on, get by, get", "go", "length") == ["get on", "get by"]
    assert parse_completion(" area, region,", "zone", "length") == ["area", "region"]
    assert parse_completion(" area, region", "zone", "stop") == ["area", "region"]
    # The target, case, whitespace, quotes, repeats, empty and non-word items.
    assert parse_completion(' Zone, "Area",  area , \u201cregion\u201d,, 42, ..., area.', "zone") == ["Area", "region"]
    # Chat answers: numbered lists, bullets, markdown, semicolons, a heading line.
    chat = "Here are some substitutes:\n1. **bit**\n2) trace; dash\n- tad\n* bit\n\u2022 piece"
    assert parse_completion(chat, "little") == ["bit", "trace", "dash", "tad", "piece"]
    assert parse_completion("A: alpha, beta", "x") == ["alpha", "beta"]
    assert split_completion("a, b\nc; d", None) == ["a", " b", "c", " d"]
    assert to_prediction(["alpha", "beta"]) == [("alpha", 0.0), ("beta", -1.0)]
