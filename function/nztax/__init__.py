"""nztax: New Zealand personal income tax, answered correctly.

The query-time half of the project (deployable as `function/`): per-year tax rules,
deterministic calculators exposed as tools, hybrid retrieval over the built index,
and the answer engine behind `POST /ask`.
"""

__version__ = "0.1.0"
