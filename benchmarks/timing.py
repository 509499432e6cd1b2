"""What the benchmarks print about a list of times."""

from __future__ import annotations

import statistics


def fmt(seconds: list[float]) -> str:
    """Median, 95th percentile, min and max, in milliseconds."""
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (
        f"median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms "
        f"(min {ms[0]:.0f}, max {ms[-1]:.0f})"
    )
