"""Each rule of the game is stated once, in the engine: the copies that once lived in the
selectors, the bots and the records must not come back. A scan of the source for the shapes
those copies had (the engine itself and the tests are not scanned)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COPIES = {
    "a table of the cards each discard rule takes": re.compile(r'"except_1":\s*1'),
    "a trick's winner counted from the leader": re.compile(r"leader \+ winning_index\("),
    "a seat's team worked out from the teams": re.compile(r"for s in teams\[1\]"),
    "the rating's ordinal worked out by hand": re.compile(r"mu\"?\)? - 3 \*"),
}


def sources():
    for package in ("games", "accounts", "nyet_site"):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative.parts[:2] != ("games", "engine") and "migrations" not in relative.parts:
                yield relative, path.read_text()


@pytest.mark.parametrize("what", COPIES)
def test_no_copy_of_a_rule_outside_the_engine(what):
    found = [str(path) for path, text in sources() if COPIES[what].search(text)]
    assert found == [], f"{what} in {found}: use the engine's"


def test_the_scan_finds_the_copies_it_looks_for():
    """The patterns match the code they were written against (else the test above proves
    nothing)."""
    copies = [
        'DISCARDS = {"1": 1, "2": 2, "except_1": 1}',
        "winner = (leader + winning_index(trick, trump, super_)) % n",
        "for s in teams[1]:",
        'conservative=F("mu") - 3 * F("sigma")',
        "return self.mu - 3 * self.sigma",
    ]
    for code in copies:
        assert any(pattern.search(code) for pattern in COPIES.values()), code
