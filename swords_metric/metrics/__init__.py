"""The SWORDS paper's metrics as arithmetic: per-target scores and their sums (target_scores.py), from a reference's
gold sets (gold_sets.py) and a prediction as the metrics count it (ranking.py); SemEval-2007's best/oot (semeval.py),
LexSubGen's P@k/R@k (lexsubgen.py), and bootstrap intervals and paired tests (bootstrap.py)."""
