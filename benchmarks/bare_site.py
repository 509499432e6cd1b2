"""The production settings with one more view, ``/bench/bare/`` (``benchmarks/bare_urls.py``): a
page that does nothing, behind the same middleware, that ``benchmarks/pages.py`` compares the
site's pages with."""

from nyet_site.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bare_urls"
