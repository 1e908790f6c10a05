package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tcpviz/charts"
	"tcpviz/internal/golden"
)

// TestUsageHabits: what a user's habits expect of the command line:
// tcpviz help COMMAND is COMMAND --help; a mistyped command gets the
// nearest one suggested; a table -o whose extension names no table format
// is a usage error, not a CSV file under another name.
func TestUsageHabits(t *testing.T) {
	capture := filepath.Join(golden.Testdata(), "geo_short.pcap")
	out, stderr, code := tcpviz(t, nil, "help", "seq")
	if code != 0 || !strings.Contains(out, "tcpviz seq - time/sequence graph") {
		t.Errorf("help seq: exit %d, %q %q", code, out[:min(len(out), 80)], stderr)
	}
	for typo, want := range map[string]string{"sumary": "summary", "stram": "streams", "compre": "compare"} {
		_, stderr, code := tcpviz(t, nil, typo, capture)
		if code != 2 || !strings.Contains(stderr, "did you mean "+want+"?") {
			t.Errorf("%s: exit %d, %q; want a suggestion of %s", typo, code, stderr, want)
		}
	}
	if _, stderr, _ := tcpviz(t, nil, "bogus", capture); strings.Contains(stderr, "did you mean") {
		t.Errorf("bogus: %q suggests a command nothing like it", stderr)
	}
	dir := t.TempDir()
	for _, name := range []string{"x.xlsx", "x.pcap"} {
		_, stderr, code := tcpviz(t, nil, "summary", "-o", filepath.Join(dir, name), capture)
		if code != 2 || !strings.Contains(stderr, "unknown table format") {
			t.Errorf("summary -o %s: exit %d, %q", name, code, stderr)
		}
	}
	if _, stderr, code := tcpviz(t, nil, "summary", "-f", "csv", "-o", filepath.Join(dir, "x.dat"), capture); code != 0 {
		t.Errorf("-f csv -o x.dat: exit %d, %q (--format says what to write)", code, stderr)
	}
}

func TestNaturalOrder(t *testing.T) {
	names := []string{"s_100ms", "s_10ms", "s_50ms", "run10", "run9", "a/b2", "a/b10", "x007", "x7"}
	slices.SortFunc(names, func(a, b string) int {
		if charts.NaturalLess(a, b) {
			return -1
		}
		if charts.NaturalLess(b, a) {
			return 1
		}
		return 0
	})
	want := []string{"a/b2", "a/b10", "run9", "run10", "s_10ms", "s_50ms", "s_100ms", "x007", "x7"}
	if !slices.Equal(names, want) {
		t.Errorf("got %q, want %q", names, want)
	}
}

// TestHelpAlone: tcpviz help (and help help) is tcpviz --help, as help
// COMMAND is COMMAND --help; it said "No help topic for 'help'" and
// exited 1.
func TestHelpAlone(t *testing.T) {
	want, _, _ := tcpviz(t, nil, "--help")
	for _, args := range [][]string{{"help"}, {"help", "help"}} {
		out, stderr, code := tcpviz(t, nil, args...)
		if code != 0 || stderr != "" || out != want {
			t.Errorf("%v: exit %d, stderr %q, stdout %.80q; want tcpviz --help's", args, code, stderr, out)
		}
	}
}
