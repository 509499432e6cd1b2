"""What the decision benchmarks share (``card_search``, ``board_search``, ``team_search``): each
judges one kind of decision on the true hands and prints its mean gain a decision."""

from __future__ import annotations

import statistics

Z95 = 1.96


def interval(values: list[float]) -> str:
    """The mean with the half-width of its 95% interval."""
    half = Z95 * statistics.stdev(values) / len(values) ** 0.5
    return f"{statistics.fmean(values):+.3f} ± {half:.3f}"
