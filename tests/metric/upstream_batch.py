"""Run the upstream SWORDS evaluation (`upstream_eval.py` in the shared folder, unmodified) on many result files
of one dataset in one process, for test_upstream_parity.py. Not project code: it imports nothing of ours.

Usage:
  python upstream_batch.py UPSTREAM_EVAL.py DATASET.json[.gz] RESULT.json ...

Each result file goes through upstream's own `main(DATASET, RESULT)`; what it prints is written out as one
JSON line, {"result": RESULT, "output": <printed text>, "rerun": false}. The dataset side of that work is the
same for every result file, and it is most of it (lemmatizing the gold, about 70 s for CoInCo), so inside this
process only it is done once: upstream's pure dataset-side functions (loading the dataset file, building the
`LexSubDataset`, `preprocess_dataset_for_evaluation`) are memoised on their argument. Upstream's evaluation
never changes the dataset or its preprocessed form (it only reads them and builds new lists and results),
which is what makes sharing them sound; as a check, the first result file is evaluated again after all the
others and printed with "rerun": true, for the caller to compare with the first, fresh output.

Run it with nltk 3.5 first on PYTHONPATH and the hash seeds pinned, as `upstream_eval.py` itself is run.
"""

import contextlib
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile


def _memoised(function, key):
    """`function` computed once per `key(*args, **kwargs)`. The arguments are kept with the value, so an id in a
    key cannot be reused by another object."""
    values = {}

    def wrapper(*args, **kwargs):
        k = key(*args, **kwargs)
        if k not in values:
            values[k] = (args, kwargs, function(*args, **kwargs))
        return values[k][2]

    wrapper.__wrapped__ = function
    return wrapper


def _memoise_preprocessing():
    """Wrap upstream's dataset preprocessing, once. Called when `main` loads the dataset file, by which time it has
    imported `swords.eval`, which cannot be imported before `main` runs: its asset paths are fixed, at import,
    from the environment `main` sets up. `evaluate` looks the function up when it runs."""
    import swords.eval

    if not hasattr(swords.eval.preprocess_dataset_for_evaluation, "__wrapped__"):
        swords.eval.preprocess_dataset_for_evaluation = _memoised(
            swords.eval.preprocess_dataset_for_evaluation, lambda dataset, verbose=False: (id(dataset), verbose)
        )


def _load_upstream(path, dataset_path):
    """upstream_eval.py as a module, with upstream's dataset-side functions memoised."""
    spec = importlib.util.spec_from_file_location("upstream_eval", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # The `swords` package itself only defines classes (`main` puts its folder on sys.path too). from_dict has
    # to be wrapped before `main` first looks it up; it also turns the dict's POS names into enums in place, so
    # a second call on the same dict would fail.
    sys.path.insert(0, module.HERE)
    import swords

    from_dict = _memoised(swords.LexSubDataset.from_dict.__func__, lambda cls, d: (cls, id(d)))
    swords.LexSubDataset.from_dict = classmethod(from_dict)

    load = module._load
    load_dataset = _memoised(load, lambda p: p)

    def _load(p):
        if p != dataset_path:
            return load(p)  # each result file is read afresh
        _memoise_preprocessing()
        return load_dataset(p)

    module._load = _load
    return module


def _evaluate(upstream_eval, dataset_path, result_path, rerun):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        upstream_eval.main(dataset_path, result_path)
    line = {"result": result_path, "output": printed.getvalue(), "rerun": rerun}
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def _leftover_scratch():
    """`main` makes a scratch folder per call and removes it, but upstream's asset paths stay those of the first
    call's folder, where each later call writes the scorers again: that folder, if it is one of main's."""
    paths = sys.modules.get("swords.paths")
    if paths is None:
        return None
    scratch = os.path.dirname(os.path.abspath(paths.ASSETS_DIR))
    temp = os.path.abspath(tempfile.gettempdir())
    if os.path.dirname(scratch) == temp and os.path.basename(scratch).startswith("upstream-swords-"):
        return scratch
    return None


def main(upstream_eval_path, dataset_path, result_paths):
    upstream_eval = _load_upstream(upstream_eval_path, dataset_path)
    try:
        for result_path in result_paths:
            _evaluate(upstream_eval, dataset_path, result_path, rerun=False)
        _evaluate(upstream_eval, dataset_path, result_paths[0], rerun=True)
    finally:
        scratch = _leftover_scratch()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
