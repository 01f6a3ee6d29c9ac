"""The loader reads a short plain value once per file and remembers it (registry/load.py,
`_Builder._plain`): what it remembers must read exactly as the value would have read again, and a
value whose reading reports a problem must be reported wherever it is written."""

from errgen.registry.load import load_text


def test_a_repeated_oversized_integer_is_reported_at_each_place():
    doc = load_text("a: 99999999999999999999\nb: [99999999999999999999]\nc: 99999999999999999999\n", "r.yaml")
    found = [(d.rule, d.line) for d in doc.diagnostics]
    assert found == [("number-too-large", 1), ("number-too-large", 2), ("number-too-large", 3)]
    assert doc.root["a"] == doc.root["c"] == "99999999999999999999"


def test_repeated_plain_values_read_as_the_first_did():
    text = "a: 500\nb: [500, yes, 0x1f, null, 1.5, 500]\nc: yes\nd: '500'\ne: 0x1f\nf: null\ng: 1.5\nh: \"yes\"\n"
    root = load_text(text, "r.yaml").root
    assert root["a"] == 500 and type(root["a"]) is int
    assert list(root["b"]) == [500, True, 31, None, 1.5, 500]
    assert root["c"] is True and root["d"] == "500" and root["e"] == 31 and root["f"] is None and root["g"] == 1.5
    assert root["h"] == "yes"


def test_a_tagged_value_is_not_taken_for_the_plain_one():
    root = load_text("a: 12\nb: !!str 12\nc: [12, !!str 12]\n", "r.yaml").root
    assert root["a"] == 12 and root["b"] == "12" and list(root["c"]) == [12, "12"]
