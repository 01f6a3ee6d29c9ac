package errgenruntime

import "testing"

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
