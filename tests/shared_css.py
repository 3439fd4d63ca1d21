"""Textual's parsed CSS, shared by every app a test process starts.

Each app parses the same stylesheets again (Textual's own cache lives in one stylesheet
and a re-parse starts a fresh one): a twentieth of a second of every Pilot test. The
rules a source parses into depend only on its text, where it was read from, its flags
and the CSS variables (the theme), which is the key here; Textual never changes a rule
set once parsed, so one list serves every app. Only the tests install it.
"""

from __future__ import annotations

from collections import OrderedDict

from textual.css.stylesheet import Stylesheet

LIMIT = 512
"""Parsed sources kept (a source for each stylesheet, widget class and theme seen)."""

_parsed: OrderedDict[tuple, list] = OrderedDict()
_frozen: dict[int, tuple[dict, tuple]] = {}
"""id of a stylesheet's variables -> a copy of them and their key (checked against the copy)."""


def _variables_key(variables: dict) -> tuple:
    """The variables as a key (sorted once per stylesheet, not once per source)."""
    known = _frozen.get(id(variables))
    if known is not None and known[0] == variables:
        return known[1]
    if len(_frozen) > 64:
        _frozen.clear()
    key = tuple(sorted(variables.items()))
    _frozen[id(variables)] = (dict(variables), key)
    return key


def install() -> None:
    """Make every `Stylesheet` of this process look its sources up here first."""
    if getattr(Stylesheet._parse_rules, "shared", False):
        return
    parse_rules = Stylesheet._parse_rules

    def shared(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(self._variables))
        rules = _parsed.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)  # raises on bad CSS
            _parsed[key] = rules
            if len(_parsed) > LIMIT:
                _parsed.popitem(last=False)
        else:
            _parsed.move_to_end(key)
        return rules

    shared.shared = True
    Stylesheet._parse_rules = shared
