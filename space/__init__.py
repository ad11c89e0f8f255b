"""The SWORDS Gradio Space: live lexical substitution, benchmark browsing, scoring and a leaderboard.

Installed as ``swords_space`` (the folder is ``space/``, which is also a Hugging Face Space: ``app.py`` is
its entry point, over the demo's options in ``options``; ``cli`` is `swords demo`). Each tab is one module of
``tabs`` (its plain-Python handlers, its events and its layout; the Score tab's parts in ``score_*``, the
Substitute tab's LLM settings in ``substitute_llm``); ``app`` composes them. Shared: ``benchmarks`` (the bundled
benchmarks), ``scoring`` (the metric: shared scorers and the classes the UI colours by), ``stored`` (the results
folder), ``render`` (HTML), ``events`` and ``inputs`` (the UI's messages and input checks), ``free_text`` (free
text to a row), ``offered_systems`` (which systems it offers) and ``systems`` (running them).
"""

from __future__ import annotations

from pathlib import Path

SPACE_DIR = Path(__file__).resolve().parent

__all__ = ["SPACE_DIR"]
