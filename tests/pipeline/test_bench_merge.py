"""`nztax bench --only` re-measures some sections and keeps the others in docs/benchmarks.md."""

from nztax_build.bench import merge_sections

PAGE = "# Benchmarks\n\nMeasured then.\n\n## Full offline build\n\nbuild table\n\n## Ask latency and cold start\n\nold ask table\n\n## Peak memory\n\n925 MB\n"


def test_only_the_named_section_is_replaced():
    merged = merge_sections(PAGE, {"Ask latency and cold start": ["new ask table"]})
    assert "new ask table" in merged and "old ask table" not in merged
    assert "build table" in merged and "925 MB" in merged and merged.startswith("# Benchmarks\n\nMeasured then.")
    # the sections keep their order
    assert merged.index("Full offline build") < merged.index("new ask table") < merged.index("Peak memory")


def test_a_section_not_on_the_page_is_added_at_the_end():
    merged = merge_sections(PAGE, {"Scale": ["scale table"]})
    assert merged.rstrip().endswith("scale table") and "old ask table" in merged
