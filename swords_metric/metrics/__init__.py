"""The SWORDS paper's metrics as arithmetic: per-target scores and their sums (target_scores.py), SemEval-2007's
best/oot (semeval.py), LexSubGen's P@k/R@k (lexsubgen.py), and bootstrap intervals and paired tests (bootstrap.py)."""
