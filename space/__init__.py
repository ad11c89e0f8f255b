"""The SWORDS Gradio Space: live lexical substitution, benchmark browsing, scoring and a leaderboard.

Installed as ``swords_space`` (the folder is ``space/``, which is also a Hugging Face Space: ``app.py`` is
its entry point). The handlers (``handlers``) are plain Python and know nothing about Gradio; ``app``
only lays out the UI and wires events to them.
"""

from __future__ import annotations

from pathlib import Path

SPACE_DIR = Path(__file__).resolve().parent

__all__ = ["SPACE_DIR"]
