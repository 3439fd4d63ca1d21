"""Counts in the right number."""

from spvinspect.codec.plural import counted, noun


def test_one_is_singular_and_the_rest_plural() -> None:
    assert counted(1, "function") == "1 function"
    assert counted(0, "function") == "0 functions"
    assert counted(2, "diagnostic") == "2 diagnostics"
    assert counted(4040, "byte", grouped=True) == "4,040 bytes"
    assert counted(-1, "word") == "-1 word"
    assert noun(3, "index", "indices") == "indices" and noun(1, "index", "indices") == "index"
