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
    "a trick's winner counted back from the seat to play": re.compile(r"seat - \(len\("),
    "a trick's seats counted from its leader": re.compile(r"leader\"?\]? \+ i\) % n"),
    "which card takes a trick, worked out card by card": re.compile(r"== TRUMP or suit_of\["),
    "the suit led followed by hand": re.compile(r"if suit_of\[c\] == led\]"),
    "not a 1 while the hand holds another card": re.compile(r"VALUE\[c\] != 1\] or"),
    "the discard of two cards by its box": re.compile(r'discard == "2"'),
    "the passed cards handed to the left": re.compile(r"\[\(s \+ 1\) % n\]\.append\("),
    "the rules that discard out of play, by name": re.compile(r'not in \("none", "pass_left"\)'),
    "the colors retyped": re.compile(r'\("B", "R", "Y", "G"\)'),
    "the board's color lines retyped": re.compile(r'\("trump", "super"\)'),
}


def sources():
    for package in ("games", "accounts", "api", "nyet_site", "common"):
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
        "return (t.seat - (len(cards) - 1 - at)) % t.players",
        "winner = (self.seat - (len(cards) - 1 - at)) % self.players",
        "if team_of[(t.leader + i) % n] == ours:",
        's = (trick["leader"] + i) % n',
        "seats = [(leader + i) % n for i in range(n)]",
        "elif (suit_of[c] == TRUMP or suit_of[c] == led) and power[c] >= best:",
        "following = [c for c in hand if suit_of[c] == led]",
        "cards = [c for c in cards if VALUE[c] != 1] or cards",
        'if terms.discard == "2":',
        "after[(s + 1) % n].append(chosen[0])",
        'for color in ("B", "R", "Y", "G")',
        'if applied and rule not in ("none", "pass_left") else {}',
        'COLOR_LINES = ("trump", "super")  # the board lines whose boxes are colors',
        'if line in ("trump", "super"):',
    ]
    for code in copies:
        assert any(pattern.search(code) for pattern in COPIES.values()), code
