// The Go side of bench/runtime_bench.py: the generated SDK's parse + validate + decide beside
// santhosh-tekuri/jsonschema v6 validating the same payloads against the generated schema.
//
// Usage: runner SCHEMA BUDGET_MS CORPUS... (one JSON payload per line); prints one JSON object
// per corpus on standard output.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	sdk "syntheticerrors"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

type result struct {
	File       string  `json:"file"`
	N          int     `json:"n"`
	Bytes      int     `json:"bytes"`
	SDKPerS    float64 `json:"sdk_per_s"`
	PeerPerS   float64 `json:"peer_per_s"`
	ParsePerS  float64 `json:"parse_per_s"`
	SDKValid   int     `json:"sdk_valid"`
	PeerValid  int     `json:"peer_valid"`
	SDKAllocs  float64 `json:"sdk_allocs"`
	PeerAllocs float64 `json:"peer_allocs"`
	SDKBytes   float64 `json:"sdk_alloc_bytes"`
	PeerBytes  float64 `json:"peer_alloc_bytes"`
}

func main() {
	schemaPath, budgetMS := os.Args[1], os.Args[2]
	ms, err := strconv.Atoi(budgetMS)
	check(err)
	budget := time.Duration(ms) * time.Millisecond
	schema := compile(schemaPath)
	for _, path := range os.Args[3:] {
		lines := readLines(path)
		parsed := make([]any, len(lines))
		size := 0
		for i, line := range lines {
			parsed[i], err = jsonschema.UnmarshalJSON(bytes.NewReader(line))
			check(err)
			size += len(line)
		}
		sdkOne := func(i int) bool {
			raw := sdk.RawJSON(lines[i])
			_, err := raw.Validate()
			raw.Decide(1, sdk.DefaultMaxAttempts)
			return err == nil
		}
		peerOne := func(i int) bool { return schema.Validate(parsed[i]) == nil }
		parseOne := func(i int) bool {
			var v any
			return json.Unmarshal(lines[i], &v) == nil
		}
		r := result{File: path, N: len(lines), Bytes: size}
		r.SDKValid, r.PeerValid = count(sdkOne, len(lines)), count(peerOne, len(lines))
		r.SDKPerS, r.SDKAllocs, r.SDKBytes = rate(sdkOne, len(lines), budget)
		r.PeerPerS, r.PeerAllocs, r.PeerBytes = rate(peerOne, len(lines), budget)
		r.ParsePerS, _, _ = rate(parseOne, len(lines), budget/2)
		out, err := json.Marshal(r)
		check(err)
		fmt.Println(string(out))
	}
}

func compile(path string) *jsonschema.Schema {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	check(err)
	c := jsonschema.NewCompiler()
	check(c.AddResource("error.schema.json", doc))
	s, err := c.Compile("error.schema.json")
	check(err)
	return s
}

// count is the number of payloads one side accepts, over at most 2,000 of them (untimed).
func count(one func(int) bool, n int) int {
	k := 0
	for i := 0; i < n && i < 2000; i++ {
		if one(i) {
			k++
		}
	}
	return k
}

// rate runs one side over the corpus, cyclically, for the budget (a warm-up of a quarter of it
// first); payloads per second, and mallocs and bytes allocated per payload.
func rate(one func(int) bool, n int, budget time.Duration) (float64, float64, float64) {
	loop(one, n, budget/4)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	done := loop(one, n, budget)
	elapsed := time.Since(start).Seconds()
	runtime.ReadMemStats(&after)
	return float64(done) / elapsed, float64(after.Mallocs-before.Mallocs) / float64(done),
		float64(after.TotalAlloc-before.TotalAlloc) / float64(done)
}

func loop(one func(int) bool, n int, budget time.Duration) int {
	start, done := time.Now(), 0
	for {
		one(done % n)
		done++
		if time.Since(start) >= budget {
			return done
		}
	}
}

func readLines(path string) [][]byte {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	var lines [][]byte
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	for scanner.Scan() {
		if len(scanner.Bytes()) > 0 {
			lines = append(lines, append([]byte(nil), scanner.Bytes()...))
		}
	}
	check(scanner.Err())
	return lines
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
