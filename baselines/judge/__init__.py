"""`swords judge`: tasks from a run, an LLM that judges them, and its agreement with SWORDS's annotators. The
protocol's words and constants are swords_metric's; this package asks a model and writes what it answered."""
