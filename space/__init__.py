"""The SWORDS Gradio Space: live lexical substitution, benchmark browsing, scoring, judging and a leaderboard.
Installed as ``swords_space`` (``space/`` is also a Hugging Face Space, ``app.py`` its entry point; ``cli`` is
`swords demo`). Each tab is one module of ``tabs`` (handlers, events, layout); ``app`` composes them."""

from __future__ import annotations

from pathlib import Path

SPACE_DIR = Path(__file__).resolve().parent

__all__ = ["SPACE_DIR"]
