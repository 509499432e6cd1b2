"""The UTS #39 skeleton of accounts.names against the standard's own examples, and the pinned
Unicode data it reads (no database)."""

import hashlib
import unicodedata

import pytest

from accounts import names
from accounts.names import CONFUSABLES, IGNORABLE, UNICODE_VERSION, data_version, skeleton

# Unicode's confusables.txt 17.0.0 as published (unicode-org/unicodetools,
# unicodetools/data/security/17.0.0/confusables.txt): a changed byte is a changed rule.
CONFUSABLES_SHA256 = "091c7f82fc39ef208faf8f94d29c244de99254675e09de163160c810d13ef22a"


def data_lines(*starts: str) -> list[str]:
    text = CONFUSABLES.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith(starts)]


def test_the_data_files_state_the_version_the_module_names():
    assert UNICODE_VERSION == "17.0.0"
    assert data_version(CONFUSABLES) == UNICODE_VERSION
    assert data_version(IGNORABLE) == UNICODE_VERSION
    assert "# Version: 17.0.0" in CONFUSABLES.read_text(encoding="utf-8").splitlines()[:12]
    assert IGNORABLE.read_text(encoding="utf-8").startswith("# DerivedCoreProperties-17.0.0.txt")


def test_the_confusables_are_unicode_s_file_unchanged():
    assert hashlib.sha256(CONFUSABLES.read_bytes()).hexdigest() == CONFUSABLES_SHA256
    # Its own count of its mappings, and every one of them read but one: U+3164 HANGUL FILLER,
    # default-ignorable, is removed before any mapping (its line maps it to U+1160, also one).
    lines = CONFUSABLES.read_text(encoding="utf-8").splitlines()
    assert "# total: 6565" in lines
    assert sum(1 for line in lines if names.CONFUSABLE_LINE.match(line)) == 6565
    table = names._skeleton_table()
    assert sum(1 for target in table.values() if target is not None) == 6564
    assert table[0x3164] is None and skeleton("a\u3164b") == "ab"


# UTS #39, section 4 (Confusable Detection), its examples of the three kinds of confusables.
STANDARD_EXAMPLES = [
    # Mixed-script: "paypal" and "pаypаl", the second with U+0430 CYRILLIC SMALL LETTER A.
    ("paypal", "p\u0430yp\u0430l", "paypal", ["0430 ;\t0061 ;\tMA"]),
    # Whole-script: "scope" in Latin and "ѕсоре" in Cyrillic.
    (
        "scope",
        "\u0455\u0441\u043e\u0440\u0435",
        "scope",
        ["0455 ;\t0073 ;", "0441 ;\t0063 ;", "043E ;\t006F ;", "0440 ;\t0070 ;", "0435 ;\t0065 ;"],
    ),
    # Single-script: "ǉeto" (U+01C9 LATIN SMALL LETTER LJ, four code points) and "ljeto".
    ("\u01c9eto", "ljeto", "ljeto", ["01C9 ;\t006C 006A ;\tMA"]),
    # Single-script, the standard's earlier example (L2/13-038 quotes it): "so̷s", an o with
    # U+0337 COMBINING SHORT SOLIDUS OVERLAY, and "søs".
    ("so\u0337s", "s\u00f8s", "so\u0338s", ["0337 ;\t0338 ;\tMA", "00F8 ;\t006F 0338 ;\tMA"]),
    # U+210A SCRIPT SMALL G.
    ("\u210a", "g", "g", ["210A ;\t0067 ;\tMA"]),
]


@pytest.mark.parametrize(("one", "other", "both", "lines"), STANDARD_EXAMPLES)
def test_the_standard_s_examples_have_one_skeleton(one, other, both, lines):
    assert one != other
    assert skeleton(one) == skeleton(other) == both
    # The mappings that make it so, as the data file has them.
    assert len(data_lines(*lines)) == len(lines)


def test_the_skeleton_is_nfd_mapped_then_nfd_again():
    # é (U+00E9) decomposes first, then its e is kept and its accent mapped as data says.
    assert skeleton("\u00e9") == unicodedata.normalize("NFD", "\u00e9")
    # U+2251 GEOMETRICALLY EQUAL TO has no decomposition; its prototype "=" U+0307 U+0323 is not
    # in NFD, which puts the dot below (class 220) before the dot above (230).
    assert data_lines("2251 ;\t003D 0307 0323 ;\tMA")
    assert skeleton("\u2251") == "=\u0323\u0307"
    # Characters with no mapping are themselves.
    assert skeleton("Nyet") == "Nyet"


@pytest.mark.parametrize(
    "hidden",
    [
        "\u200b",
        "\u200d",
        "\u00ad",
        "\ufe0f",
        "\u2060",
        "\U000e0041",
    ],  # ZWSP, ZWJ, soft hyphen, VS16, WJ, TAG A
)
def test_default_ignorable_characters_leave_no_trace(hidden):
    assert skeleton(f"pay{hidden}pal") == skeleton("paypal")


def test_the_data_is_read_once():
    names._skeleton_table.cache_clear()
    for word in ("paypal", "scope", "alice"):
        skeleton(word)
    assert names._skeleton_table.cache_info().misses == 1
