"""No import circle among the project's modules, imports inside functions included (issue 48): a module imported
lazily still ties the two modules' designs together. Read with grimp, which import-linter (`lint-imports`) uses."""

from __future__ import annotations

import graphlib

import grimp

PACKAGES = ("swords_lexsub", "swords_dataset", "swords_metric", "swords_baselines", "swords_space")


def test_no_module_imports_one_that_imports_it_back():
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)
    imports = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    assert len(imports) > 200 and imports["swords_metric.evaluation"]  # the whole project, lazy imports too
    try:
        graphlib.TopologicalSorter(imports).prepare()
    except graphlib.CycleError as error:
        raise AssertionError(f"an import circle: {' -> '.join(error.args[1])}") from None
