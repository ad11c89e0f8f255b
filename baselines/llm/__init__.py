"""The prompted-LLM baseline: the SWORDS paper's few-shot prompt (prompt), exact token budgets (tokens),
requests with retries and a cache (client), completion parsing (parse), the system (prompted) and the
paper's recorded GPT-3 completions (recorded)."""

from .prompted import LLM
from .recorded import GPT3Recorded, load_recorded

__all__ = ["LLM", "GPT3Recorded", "load_recorded"]
