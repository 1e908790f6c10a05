// Package capturetest opens capture files for tests of the packages above
// reassembly (reassembly's own tests cannot import it).
package capturetest

import (
	"os"
	"testing"

	"tcpviz/reassembly"
)

// Opener returns a function that opens the capture at path for one pass
// (as analyze.Load and analyze.Run want it); each file opened is closed
// when the test ends. A missing or unreadable file fails the test.
func Opener(t testing.TB, path string) func() (*reassembly.Reader, error) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	return func() (*reassembly.Reader, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { f.Close() })
		return reassembly.NewReader(f)
	}
}

// Reader opens the capture at path for one pass; a missing or unreadable
// file fails the test.
func Reader(t testing.TB, path string) *reassembly.Reader {
	t.Helper()
	r, err := Opener(t, path)()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}
