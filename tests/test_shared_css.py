"""The parsed CSS the tests' apps share (`shared_css`): one parse per source and theme."""

from __future__ import annotations

import pytest
from textual.color import Color
from textual.css.errors import UnresolvedVariableError
from textual.css.stylesheet import Stylesheet

import shared_css

CSS = "Static { color: $accent; }"


def test_a_source_is_parsed_once_per_theme_and_bad_css_still_fails() -> None:
    shared_css.install()  # done by conftest; installing twice wraps once
    first, again = Stylesheet(variables={"accent": "#ff0000"}), Stylesheet(variables={"accent": "#ff0000"})
    other = Stylesheet(variables={"accent": "#00ff00"})
    rules = [sheet._parse_rules(CSS, ("t.tcss", "")) for sheet in (first, again, other)]
    assert rules[0] is rules[1] and rules[2] is not rules[0]
    assert [r[0].styles.color for r in rules] == [Color.parse("#ff0000"), Color.parse("#ff0000"), Color.parse("#00ff00")]
    for _ in range(2):
        sheet = Stylesheet(variables={"accent": "#ff0000"})
        sheet.add_source("Static { color: $nowhere; }", read_from=("bad.tcss", ""))
        with pytest.raises(UnresolvedVariableError):
            sheet.parse()
