package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestCapturesAreCommitted: testdata/pcapng holds exactly what the
// generator writes, byte for byte (regenerate with
// `go run ./scripts/pcapng-times`, then the goldens with
// scripts/tshark-golden.sh testdata/pcapng/*.pcapng).
func TestCapturesAreCommitted(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "pcapng")
	want := Captures()
	have, _ := filepath.Glob(filepath.Join(dir, "*.pcapng"))
	var names []string
	for _, p := range have {
		names = append(names, filepath.Base(p))
		if _, ok := want[filepath.Base(p)]; !ok {
			t.Errorf("%s: in testdata/pcapng, not written by the generator", filepath.Base(p))
		}
	}
	sort.Strings(names)
	total := 0
	for n, data := range want {
		got, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s: the committed capture differs from the generator's", n)
		}
		total += len(data)
	}
	if total > 100<<10 {
		t.Errorf("%d bytes of crafted captures: keep them small", total)
	}
	t.Logf("%d captures, %d bytes: %v", len(want), total, names)
}
