"""Baseline lexical substitution systems, installed as ``swords_baselines``."""
