package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestLoadFocusedMatchesWhole: Load's second pass, reading the busiest
// connection alone (reassembly.Focus), gives what reading the whole
// capture gives — connection, records, statistics, warnings, error — for
// every capture here and in the shared corpus. (reassembly's
// TestFocusPortReuse shows the comparison failing on a wrong focus.)
func TestLoadFocusedMatchesWhole(t *testing.T) {
	focused := 0
	for _, name := range golden.Captures() {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = reassembly.NewReader(f)
		f.Close()
		if err != nil {
			continue // not a capture
		}
		open := capturetest.Opener(t, name)
		if first, err := Run(capturetest.Reader(t, name), RunOptions{Keep: -1}); err == nil && first.focusable && first.Busiest >= 0 {
			focused++
		}
		got, errGot := Load(open, LoadOptions{Stream: -1, Dir: -1})
		want, errWant := Load(open, LoadOptions{Stream: -1, Dir: -1, whole: true})
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) {
			t.Errorf("%s: error %v, whole %v", filepath.Base(name), errGot, errWant)
		}
		if (got == nil) != (want == nil) {
			t.Errorf("%s: loaded %v, whole %v", filepath.Base(name), got != nil, want != nil)
			continue
		}
		if got == nil {
			continue
		}
		switch {
		case !reflect.DeepEqual(*got.Conn, *want.Conn):
			t.Errorf("%s: connection\n got %+v\nwant %+v", filepath.Base(name), *got.Conn, *want.Conn)
		case got.Dir != want.Dir || !reflect.DeepEqual(got.Stats, want.Stats):
			t.Errorf("%s: direction or statistics differ", filepath.Base(name))
		case !reflect.DeepEqual(got.Records, want.Records):
			t.Errorf("%s: %d records, whole %d (or they differ)", filepath.Base(name), len(got.Records), len(want.Records))
		case !reflect.DeepEqual(got.Warnings, want.Warnings):
			t.Errorf("%s: warnings %q, whole %q", filepath.Base(name), got.Warnings, want.Warnings)
		}
	}
	if focused < 50 {
		t.Errorf("only %d captures read focused", focused)
	}
}
