package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/charts"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// tcpviz runs the command line in-process and returns stdout, stderr and
// the exit status.
func tcpviz(t *testing.T, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"tcpviz"}, args...), bytes.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// tcpvizWith runs tcpviz as tcpviz does, a report's limits changed to ro.
func tcpvizWith(t *testing.T, ro charts.ReportOptions, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := newEnv(bytes.NewReader(nil), &out, &errb)
	e.report = ro
	code := runEnv(e, append([]string{"tcpviz"}, args...))
	return out.String(), errb.String(), code
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

const demoCapture = "../../testdata/geo_short.pcap"

func TestStreamsCSV(t *testing.T) {
	stdout, stderr, code := tcpviz(t, nil, "streams", demoCapture)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := "file,stream,client_addr,client_port,server_addr,server_port,first_time,duration_s,c2s_packets,s2c_packets,c2s_bytes,s2c_bytes,state"
	if !strings.HasPrefix(lines[0], want) {
		t.Errorf("header %q does not start with PRODUCT.md's columns %q", lines[0], want)
	}
	checkGolden(t, "streams_geo_short.csv", stdout)
}

func TestStreamsFromStdinAndJSON(t *testing.T) {
	data, err := os.ReadFile(demoCapture)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := tcpviz(t, data, "streams", "--format", "json", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, `"file": "-"`) || !strings.Contains(stdout, `"stream": 1`) || !strings.Contains(stdout, `"server_port": 5201`) {
		t.Errorf("unexpected JSON:\n%s", stdout)
	}
}

func TestExitCodesAndErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "notes.txt")
	os.WriteFile(junk, []byte("not a capture at all\n"), 0o644)
	capture, _ := os.ReadFile(demoCapture)
	os.WriteFile(filepath.Join(dir, "a.pcap"), capture, 0o644)
	cut := filepath.Join(t.TempDir(), "cut.pcap")
	os.WriteFile(cut, capture[:len(capture)/2], 0o644)

	tests := []struct {
		name       string
		args       []string
		code       int
		stderr     []string // substrings, each expected
		stdoutRows int      // CSV data rows, -1: don't check
	}{
		{"no input", []string{"streams"}, 2, []string{"no input"}, -1},
		{"unknown flag", []string{"streams", "--bogus", demoCapture}, 2, []string{"bogus"}, -1},
		{"unknown command", []string{"bogus"}, 2, []string{"bogus"}, -1},
		{"bad format", []string{"streams", "--format", "xml", demoCapture}, 2, []string{"--format \"xml\": want csv, json, ndjson, table or parquet"}, -1},
		{"missing file", []string{"streams", filepath.Join(dir, "nope.pcap")}, 1, []string{"nope.pcap", "no such file"}, -1},
		{"not a capture", []string{"streams", junk}, 1, []string{junk + ": not a capture file"}, 0},
		{"directory skips non-captures", []string{"streams", dir}, 0, nil, 2},
		{"cut capture keeps what was read", []string{"streams", cut}, 1, []string{cut + ": packet ", "truncated record"}, 2},
		{"one bad input among good ones", []string{"streams", demoCapture, junk}, 1, []string{"notes.txt"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := tcpviz(t, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q lacks %q", stderr, s)
				}
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
				t.Errorf("stack trace on stderr: %s", stderr)
			}
			if tt.stdoutRows >= 0 {
				rows := strings.Count(stdout, "\n") - 1
				if rows != tt.stdoutRows {
					t.Errorf("%d rows on stdout, want %d:\n%s", rows, tt.stdoutRows, stdout)
				}
			}
		})
	}
}

func TestHelpDocumentsExitCodes(t *testing.T) {
	stdout, _, code := tcpviz(t, nil, "--help")
	if code != 0 || !strings.Contains(stdout, "EXIT STATUS") || !strings.Contains(stdout, "2  usage error") {
		t.Errorf("exit %d; help lacks exit codes:\n%s", code, stdout)
	}
}

// TestMalformedCorpus runs `tcpviz streams` on every broken file of the
// shared corpus: exit status 0 or 1, a few lines on stderr naming the
// file, never a stack trace.
func TestMalformedCorpus(t *testing.T) {
	names, _ := filepath.Glob("../../../shared/captures/malformed/*")
	if len(names) == 0 {
		t.Skip("../shared/captures/malformed not present")
	}
	for _, n := range names {
		t.Run(filepath.Base(n), func(t *testing.T) {
			_, stderr, code := tcpviz(t, nil, "streams", n)
			if code != 0 && code != 1 {
				t.Errorf("exit %d", code)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
				t.Fatalf("stack trace:\n%s", stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) > 3 {
				t.Errorf("%d lines on stderr:\n%s", len(lines), stderr)
			}
			for _, l := range lines {
				if l != "" && !strings.Contains(l, n) {
					t.Errorf("stderr line does not name the file: %q", l)
				}
			}
			if code == 1 && stderr == "" {
				t.Errorf("failed without a message")
			}
		})
	}
}

func TestFlagsAfterArguments(t *testing.T) {
	out := filepath.Join(t.TempDir(), "seq.csv")
	stdout, stderr, code := tcpviz(t, nil, "seq", demoCapture, "-o", out, "--absolute-seq", "--from=2")
	if code != 0 || strings.TrimSpace(stdout) != out {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, _, code = tcpviz(t, nil, "streams", demoCapture, "--format", "json")
	if code != 0 || !strings.HasPrefix(stdout, "[") {
		t.Errorf("flags after the capture were not read: exit %d\n%s", code, stdout)
	}
	// After "--" everything is an input.
	_, stderr, code = tcpviz(t, nil, "streams", "--", "--format")
	if code != 1 || !strings.Contains(stderr, "--format: no such file") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestDashNamedInputs: an argument that starts with a dash but names an
// existing file is an input, before or after the flags, with a compare
// stream suffix too; one that names nothing is an unknown flag, named as
// typed (one dash stays one); a flag of the command stays a flag.
func TestDashNamedInputs(t *testing.T) {
	data := demoBytes(t)
	t.Chdir(t.TempDir())
	for _, name := range []string{"-dash.pcap", "--two.pcap", "-o"} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"streams", "-dash.pcap"},
		{"streams", "--format", "csv", "-dash.pcap", "--two.pcap"},
		{"streams", "-dash.pcap", "--format=csv"},
		{"summary", "--", "-dash.pcap"},
		{"compare", "-o", "c.csv", "-dash.pcap#1", "--two.pcap#1"},
	} {
		stdout, stderr, code := tcpviz(t, nil, args...)
		if code != 0 || !strings.Contains(stdout, "-dash.pcap") {
			t.Errorf("%q: exit %d, stderr %q, stdout %.200q", args, code, stderr, stdout)
		}
	}
	for args, want := range map[*[]string]string{
		{"streams", "-nosuch.pcap", "-dash.pcap"}: "tcpviz: unknown flag -nosuch.pcap\n",
		{"streams", "-dash.pcap", "--nosuch=1"}:   "tcpviz: unknown flag --nosuch\n",
		{"seq", "-dash.pcap", "-o"}:               "tcpviz: -o: missing value\n",
	} {
		stdout, stderr, code := tcpviz(t, nil, *args...)
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", *args, code, stdout, stderr, want)
		}
	}
}

// TestTerminalTableEscapesNames: a capture (or --label) name with a
// terminal escape or a tab reaches the terminal table escaped, as in
// messages, for every table command; CSV and JSON keep it exact.
func TestTerminalTableEscapesNames(t *testing.T) {
	data := demoBytes(t)
	t.Chdir(t.TempDir())
	name := "evil\x1b]0;owned\x07\x1b[2J\t.pcap"
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	escaped := `evil\x1b]0;owned\a\x1b[2J\t.pcap`
	for _, args := range [][]string{
		{"streams", "--format", "table", name},
		{"summary", "--format", "table", name},
		{"flows", "--format", "table", name},
		{"summary", "-o", "t.txt", name},
		{"compare", "--format", "table", "-o", "c.png", "--label", "a\x1bb", "--label", "b", name, name},
	} {
		stdout, stderr, code := tcpviz(t, nil, args...)
		if args[1] == "-o" {
			b, _ := os.ReadFile("t.txt")
			stdout = string(b)
		}
		if code != 0 {
			t.Errorf("%q: exit %d, %q", args, code, stderr)
		}
		if strings.ContainsAny(stdout, "\x1b\x07\t") {
			t.Errorf("%q: raw control characters in the table: %q", args, stdout)
		}
		if !strings.Contains(stdout, escaped) && !strings.Contains(stdout, `a\x1bb`) {
			t.Errorf("%q: the table lacks %s: %q", args, escaped, stdout)
		}
	}
	stdout, _, _ := tcpviz(t, nil, "streams", "--format", "csv", name)
	if !strings.Contains(stdout, "\n"+name+",0,") {
		t.Errorf("CSV does not keep the name exact: %q", stdout)
	}
	stdout, _, _ = tcpviz(t, nil, "streams", "--format", "json", name)
	if !strings.Contains(stdout, `"evil\u001b]0;owned\u0007\u001b[2J\t.pcap"`) {
		t.Errorf("JSON does not keep the name exact: %q", stdout)
	}
}

// TestHelpBesideInputs: --help or -h with inputs beside it, before or
// after, prints the command's help and exits 0 (urfave/cli took the input
// for a help topic: "No help topic for 'x.pcap'", exit 1); as a flag's
// value it is only a value.
func TestHelpBesideInputs(t *testing.T) {
	for _, args := range [][]string{{"streams", demoCapture, "--help"}, {"seq", "-h", demoCapture, "-o", "x.png"}, {"report", "--help", "a", "b"}} {
		stdout, stderr, code := tcpviz(t, nil, args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "tcpviz "+args[0]+" - ") {
			t.Errorf("%q: exit %d, stderr %q, stdout %.100q", args, code, stderr, stdout)
		}
	}
	stdout, stderr, code := tcpviz(t, nil, "seq", "--title", "--help", "-o", "-", demoCapture)
	if code != 0 || !strings.HasPrefix(stdout, "frame,") {
		t.Errorf("--title --help: exit %d, stderr %q, stdout %.100q", code, stderr, stdout)
	}
}
