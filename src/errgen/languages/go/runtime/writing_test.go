package errgenruntime

import (
	"net/http"
	"strings"
	"testing"
)

func keyStep(k string) pathStep { return pathStep{key: k, isKey: true} }

func indexStep(i int) pathStep { return pathStep{index: i} }

// put keeps an existing key in its place, appends a new one, makes what is missing, replaces
// what is in the way, and never changes the node it was given.
func TestPutKeepsKeyOrderAndMakesThePath(t *testing.T) {
	given, _ := decodeJSON([]byte(`{"a":1,"b":{"x":1},"c":"text","d":[5]}`), -1)
	cases := []struct {
		path []pathStep
		want string
	}{
		{[]pathStep{keyStep("b"), keyStep("y")}, `{"a":1,"b":{"x":1,"y":"v"},"c":"text","d":[5]}`},
		{[]pathStep{keyStep("a")}, `{"a":"v","b":{"x":1},"c":"text","d":[5]}`},
		{[]pathStep{keyStep("c"), keyStep("k")}, `{"a":1,"b":{"x":1},"c":{"k":"v"},"d":[5]}`},
		{[]pathStep{keyStep("e"), indexStep(2), keyStep("m")}, `{"a":1,"b":{"x":1},"c":"text","d":[5],"e":[{},{},{"m":"v"}]}`},
		{[]pathStep{keyStep("d"), indexStep(anyStep)}, `{"a":1,"b":{"x":1},"c":"text","d":["v"]}`},
		{[]pathStep{keyStep("b"), indexStep(0)}, `{"a":1,"b":["v"],"c":"text","d":[5]}`},
	}
	for _, c := range cases {
		if got := string(encodeJSON(put(given, c.path, "v"), false)); got != c.want {
			t.Errorf("put at %v: %s, want %s", c.path, got, c.want)
		}
	}
	if got := string(encodeJSON(given, false)); got != `{"a":1,"b":{"x":1},"c":"text","d":[5]}` {
		t.Errorf("put changed the node it was given: %s", got)
	}
}

func TestToXMLWritesStringsEscapedAndSkipsBadNames(t *testing.T) {
	document, _ := decodeJSON([]byte(`{"Error":{"Code":"A&B","Message":"<x> \t\u0001\u0000 ]]>","n":1,"ok":false,`+
		`"bad name":"x","a/b":"x","":"x","Item":["1",{"K":"2"}],"Empty":{}},"Second":"ignored"}`), -1)
	want := xmlDeclaration + "<Error><Code>A&amp;B</Code><Message>&lt;x&gt; &#9;&#1;\uFFFD ]]&gt;</Message>" +
		"<Item>1</Item><Item><K>2</K></Item><Empty></Empty></Error>"
	if got := string(toXML(document)); got != want {
		t.Errorf("toXML:\n%s\nwant\n%s", got, want)
	}
	if got := toXML(newObject()); len(got) != 0 {
		t.Errorf("an empty document is the empty body, not %q", got)
	}
}

// One rule for every header value written (issue 38.3): a value with CR, LF, NUL or a character
// outside visible ASCII, an empty one and one past maxHeaderChars are left out of the headers,
// and the body still carries them.
func TestHeaderValuesAreWrittenOnlyWhenSafe(t *testing.T) {
	inHeader := source{in: "header", name: "x-request-id"}
	inBody := source{in: "body", path: []pathStep{keyStep("request_id")}}
	long := strings.Repeat("a", maxHeaderChars)
	cases := []struct {
		value  string
		header bool
	}{
		{"req-1 ok~", true}, {long, true}, {long + "a", false}, {"", false},
		{"a\r\nSet-Cookie: x=1", false}, {"a\nb", false}, {"a\x00b", false}, {"tab\there", false},
		{"caf\u00e9", false}, {"\u2028", false}, {"del\x7f", false}, {strings.Repeat("x", 100_000), false},
	}
	for _, c := range cases {
		header := http.Header{}
		body := applyWrites(newObject(), header, []write{{inBody, c.value}, {inHeader, c.value}})
		got, written := header["X-Request-Id"]
		if written != c.header || written && (len(got) != 1 || got[0] != c.value) {
			t.Errorf("%.20q: header written %v (%q), want %v", c.value, written, got, c.header)
		}
		if kept := body.(*object).vals["request_id"]; kept != c.value {
			t.Errorf("%.20q: the body lost the value: %v", c.value, kept)
		}
	}
}
