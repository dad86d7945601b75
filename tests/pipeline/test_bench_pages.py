"""The Lighthouse table cell: the median of the runs, and their range when they differ."""

from nztax_build.bench_pages import _median_cell


def test_median_of_runs_with_their_range():
    runs = [{"performance": 95}, {"performance": 88}, {"performance": 91}]
    assert _median_cell(runs, "performance") == "91 (88–95)"


def test_equal_runs_show_one_figure():
    assert _median_cell([{"accessibility": 100}] * 3, "accessibility") == "100"
