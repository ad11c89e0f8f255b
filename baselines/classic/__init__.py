"""The SWORDS paper's classic systems: WordNet synonyms (wordnet.py), Roget's thesaurus (thesaurus.py), and the
oracle-like baselines (oracles.py)."""
