"""The editor's stand-ins for string bytes that are not UTF-8: shown as braille (or a
private-use block the text does not use), mapped back exactly."""

from __future__ import annotations

from spvinspect.editing.shown_text import ShownText


def test_bytes_that_are_not_utf8_are_braille_in_the_editor_and_come_back():
    lines = ['%1 = OpString "ex\udcffmple\udc80"', "OpName %2 \"caf\u00e9\""]
    shown = ShownText.for_lines(lines)
    text = shown.to_editor("\n".join(lines))
    assert '"ex\u28ffmple\u2880"' in text and "caf\u00e9" in text
    text.encode("utf-8")  # nothing a terminal or Textual cannot take
    assert shown.from_editor(text.split("\n")) == lines
    assert "0xff" in shown.note


def test_a_text_that_uses_braille_gets_private_use_stand_ins():
    lines = ['OpName %1 "\u28ff"', 'OpString "\udcff"']
    shown = ShownText.for_lines(lines)
    assert shown.first != 0x2880
    text = shown.to_editor("\n".join(lines))
    assert "\u28ff" in text and shown.from_editor(text.split("\n")) == lines


def test_a_text_with_nothing_to_map_is_left_alone():
    shown = ShownText.for_lines(["OpCapability Shader", 'OpName %1 "\u28ff"'])
    assert shown.note is None and shown.to_editor("a\u28ff") == "a\u28ff"
    assert shown.from_editor(["a\u28ff"]) == ["a\u28ff"]
