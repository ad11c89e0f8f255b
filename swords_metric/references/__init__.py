"""A benchmark split as the metric holds it: rows, prepared references, target ids."""
