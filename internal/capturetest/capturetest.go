// Package capturetest opens capture files for tests of the packages above
// reassembly (reassembly's own tests cannot import it).
package capturetest

import (
	"os"
	"testing"

	"tcpviz/reassembly"
)

// Scanner opens the capture at path and returns a scanner over it; the
// file is closed when the test ends. A missing file fails the test.
func Scanner(t testing.TB, path string) *reassembly.Scanner {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := reassembly.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return reassembly.NewScanner(r)
}
