package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// TestCLIGoldens runs every case of testdata/cli: <case>.args holds the
// arguments, one a line, run from testdata/ (inputs are relative paths
// there; $OUT is a temporary output folder, written back as $OUT in what
// the command prints), or from the folder <case>.dir names (relative to
// testdata/) if there is one; <case>.stdout, .stderr and .code are what
// it must print and return. Pictures and files written are not compared,
// only what the command says. go test ./cmd/tcpviz -run TestCLIGoldens -update
// rewrites them, so a change of output shows in review as a golden diff.
func TestCLIGoldens(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "cli")
	cases, err := filepath.Glob(filepath.Join(dir, "*.args"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases in %s (%v)", dir, err)
	}
	t.Chdir(golden.Testdata())
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".args")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(c)
			if err != nil {
				t.Fatal(err)
			}
			if dir, err := os.ReadFile(strings.TrimSuffix(c, ".args") + ".dir"); err == nil {
				t.Chdir(filepath.Join(golden.Testdata(), strings.TrimSpace(string(dir))))
			}
			out := t.TempDir()
			var args []string
			for _, a := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
				args = append(args, strings.ReplaceAll(a, "$OUT", out))
			}
			stdout, stderr, code := tcpviz(t, nil, args...)
			unout := func(s string) string { return strings.ReplaceAll(s, out, "$OUT") }
			for _, f := range []struct{ ext, got string }{
				{".stdout", unout(stdout)}, {".stderr", unout(stderr)}, {".code", strconv.Itoa(code) + "\n"},
			} {
				path := filepath.Join(dir, name+f.ext)
				if *update {
					if err := os.WriteFile(path, []byte(f.got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (go test ./cmd/tcpviz -run TestCLIGoldens -update writes it)", err)
				}
				if f.got != string(want) {
					t.Errorf("tcpviz %s: %s differs from %s:\n%s", strings.Join(args, " "), f.ext[1:], filepath.Base(path), firstDiff(string(want), f.got))
				}
			}
		})
	}
}

// firstDiff shows the first line where got differs from want, with the
// line count of each.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n want " + strconv.Quote(a) + "\n  got " + strconv.Quote(b) +
				"\n(" + strconv.Itoa(len(w)) + " lines wanted, " + strconv.Itoa(len(g)) + " got)"
		}
	}
	return "(equal lines)"
}
