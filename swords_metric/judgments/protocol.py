"""SWORDS's annotation protocol (the paper's Appendix B), the one owner of its words and constants: B.1 its
instructions (INSTRUCTIONS); B.2 at most 10 candidates a task, in random order; B.3 two controls a task (the target
word itself, to be accepted; a random dictionary word, to be rejected or abstained on), a task with a wrong control
answer dropped, and a judge whose control accuracy is under 90% dropped.
"""

from __future__ import annotations

import hashlib

LABELS = ("accept", "reject", "abstain")
ACCEPT, REJECT, ABSTAIN = LABELS
MAX_CANDIDATES = 10  # candidates a task shows besides its two controls (B.2)
CONTROL_ACCURACY = 0.9  # a judge right on fewer of their controls than this is dropped (B.3)
TARGET_CONTROL, RANDOM_CONTROL = "target", "random"  # Candidate.control of the two controls (None: a candidate)
CONTROLS = (TARGET_CONTROL, RANDOM_CONTROL)

INSTRUCTIONS = """\
Read the text and look at the highlighted target word. For each substitute listed, decide whether you would \
actually consider using this substitute as the author of the original sentence, in place of the target word.

- accept: you would actually consider using this substitute as the author of the original sentence. Accept it \
also when it is good but not quite grammatically correct (a wrong tense or number, say). Accept the substitute \
that is identical to the target word.
- reject: you would not use it. Also reject every substitute when the target word is a proper noun or part of a \
fixed expression or phrase.
- abstain: you do not know what the substitute means.
"""

# A short hash of the words: a tasks file and an LLM judge's id say which instructions they were made with.
INSTRUCTIONS_VERSION = hashlib.sha256(INSTRUCTIONS.encode("utf-8")).hexdigest()[:8]


def control_correct(control: str, label: str) -> bool:
    """Whether a control's answer is right (B.3): the target word accepted; the random word not accepted."""
    return label == ACCEPT if control == TARGET_CONTROL else label != ACCEPT
