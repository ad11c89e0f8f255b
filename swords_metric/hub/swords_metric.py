"""`evaluate` module of the SWORDS lexical substitution metrics (Lee et al. 2021): P/R/F@k, GAP, SemEval-2007's
best/oot and LexSubGen's P@k/R@10, exactly as the official scorers compute them. This file is thin: the metric
is the installed `swords_metric` package of swords-lexsub, whose version this file pins. The figures are percentages
(0 to 100), as the SWORDS paper reports them; TSAR-2022 and ProLex give fractions, as their official scorers do.

    import evaluate, swords_dataset
    metric = evaluate.load("ORG/swords_metric")
    test = swords_dataset.load("swords", split="test")
    results = metric.compute(predictions=[["fascinating", "incredible"]] * len(test), references=test)
"""

# Every import below is indented: `evaluate` takes a module's column-0 imports for the pip packages it needs, and
# would ask for `pip install swords_metric`, which is not the distribution's name (swords-lexsub).
SWORDS_LEXSUB_VERSION = "0.0.0"  # written by `swords hub export`
INSTALL = f"pip install swords-lexsub=={SWORDS_LEXSUB_VERSION}"


def _installed_metric_class():
    """SwordsMetric, from the installed swords_metric package of the pinned release.

    This file shares the package's name: where a folder holding it is on sys.path (a Space runs `python app.py`
    beside it), `import swords_metric` would find this file instead of the package, so such folders are skipped."""
    try:
        import importlib
        import os
        import sys

        shadow = sys.modules.get("swords_metric")
        if shadow is not None and not hasattr(shadow, "__path__"):  # this file, imported as `swords_metric`
            del sys.modules["swords_metric"]
        saved = list(sys.path)
        sys.path[:] = [p for p in saved if not os.path.isfile(os.path.join(p or os.curdir, "swords_metric.py"))]
        try:
            metric_module = importlib.import_module("swords_metric.swords_metric")
            installed = importlib.import_module("swords_dataset").__version__
        finally:
            sys.path[:] = saved
    except ImportError as error:
        raise ImportError(f"the SWORDS metric needs its package: {INSTALL} ({error})") from None
    if installed != SWORDS_LEXSUB_VERSION:
        raise ImportError(
            f"this SWORDS metric is swords-lexsub {SWORDS_LEXSUB_VERSION}'s, and {installed} is installed: {INSTALL}"
        )
    return metric_module.SwordsMetric


SwordsMetric = _installed_metric_class()
