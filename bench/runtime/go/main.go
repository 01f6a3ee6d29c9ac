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
		f := rates([]func(int) bool{sdkOne, peerOne, parseOne}, []float64{1, 1, 0.5}, len(lines), budget)
		r.SDKPerS, r.SDKAllocs, r.SDKBytes = f[0].perS, f[0].allocs, f[0].bytes
		r.PeerPerS, r.PeerAllocs, r.PeerBytes = f[1].perS, f[1].allocs, f[1].bytes
		r.ParsePerS = f[2].perS
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

// figures are one side's payloads per second, and mallocs and bytes allocated per payload.
type figures struct{ perS, allocs, bytes float64 }

// rates runs the sides over the corpus, cyclically, each for its share of the budget: every side
// warmed up first (a quarter of its share), then the sides take turns in ten slices (each going on
// round the corpus where it stopped), so a load that comes and goes on a shared machine falls on
// all of them alike (timed one after the other, the same build measured 0.78x to 2.9x).
func rates(sides []func(int) bool, shares []float64, n int, budget time.Duration) []figures {
	const slices = 10
	share := func(k int, part float64) time.Duration {
		return time.Duration(float64(budget) * shares[k] / part)
	}
	for k, one := range sides {
		loop(one, n, 0, share(k, 4))
	}
	done := make([]int, len(sides))
	elapsed := make([]time.Duration, len(sides))
	mallocs := make([]uint64, len(sides))
	allocated := make([]uint64, len(sides))
	var before, after runtime.MemStats
	// One collection before the slices, as before the single timed run this replaced; a later
	// one falls mostly in the slice of the side whose allocations trigger it.
	runtime.GC()
	for s := 0; s < slices; s++ {
		for k, one := range sides {
			runtime.ReadMemStats(&before)
			start := time.Now()
			done[k] += loop(one, n, done[k], share(k, slices))
			elapsed[k] += time.Since(start)
			runtime.ReadMemStats(&after)
			mallocs[k] += after.Mallocs - before.Mallocs
			allocated[k] += after.TotalAlloc - before.TotalAlloc
		}
	}
	out := make([]figures, len(sides))
	for k := range sides {
		d := float64(done[k])
		out[k] = figures{d / elapsed[k].Seconds(), float64(mallocs[k]) / d, float64(allocated[k]) / d}
	}
	return out
}

// loop runs one side for the budget (at least one payload), round the corpus from payload number
// first: how many it did.
func loop(one func(int) bool, n, first int, budget time.Duration) int {
	start, done := time.Now(), 0
	for {
		one((first + done) % n)
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
