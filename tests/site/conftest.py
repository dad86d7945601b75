"""Site test fixtures (helpers in site_fixtures.py; this directory cannot be a package named `site`)."""

from __future__ import annotations

import pytest
from site_fixtures import BuiltSite, build_fixture_site


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """The fixture site: FAQ answered by the real engine, pages rendered, mkdocs built."""
    return build_fixture_site(tmp_path_factory.mktemp("site_home"))
