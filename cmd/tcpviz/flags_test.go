package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"tcpviz/internal/cmdline"
	"tcpviz/internal/golden"
	"tcpviz/internal/units"
)

// TestEveryFlagValidatedOnce: every command × every flag that takes a
// value, given a value out of range, a value that is not a number (or not
// one of the choices), or no value at all, is a usage error before any
// input is read: exit 2, exactly one line on stderr naming the flag,
// nothing on stdout, nothing written.
func TestEveryFlagValidatedOnce(t *testing.T) {
	capture, err := filepath.Abs(demoCapture)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{}
	tried := 0
	for _, cmd := range commands(e) {
		for _, f := range cmd.Flags {
			if _, isBool := f.(*cli.BoolFlag); isBool {
				continue
			}
			name := f.Names()[0]
			var bad []string
			var value any
			if g, ok := f.(*cli.GenericFlag); ok {
				value = g.Value
			}
			switch v := value; v.(type) {
			case *units.IntValue:
				bad = []string{"abc", "1e30", "1.5x"}
				if v.(*units.IntValue).Min >= 0 {
					bad = append(bad, "-3")
				}
			case *units.SecondsValue:
				bad = []string{"abc", "1e30", "NaN"}
			case *cmdline.Choice:
				bad = []string{"abc"}
			case *units.NumberValue:
				bad = []string{"abc", "NaN", "1e999", "Inf"}
			case *units.WindowValue:
				bad = []string{"abc", "1e30", "NaN", "0rtt", "-2rtt", "xrtt"}
			case *units.ListValue[int64]: // --at's times, --to-bytes' sizes
				bad = []string{"abc", "1s,,2s", "-1s", "0"}
				if name == "to-bytes" {
					bad = []string{"abc", "-1", "1XB", "0", "1e30"}
				}
			case *cmdline.List:
				bad = []string{" "}
				if v.(*cmdline.List).Split {
					bad = append(bad, ",", "no-such-series")
				}
			case *cmdline.Share:
				bad = []string{"abc", "2/2", "1e30/3", "-1/4"}
			default: // names and titles: only a missing value is wrong
				if _, ok := f.(*cli.StringFlag); !ok {
					t.Fatalf("%s --%s: %T, not declared through the shared flag values", cmd.Name, name, f)
				}
			}
			cases := [][]string{{cmd.Name, capture, "--" + name}} // missing value
			for _, b := range bad {
				cases = append(cases, []string{cmd.Name, "--" + name, b, capture}, []string{cmd.Name, capture, "--" + name + "=" + b})
			}
			for _, args := range cases {
				dir := t.TempDir()
				t.Chdir(dir)
				stdout, stderr, code := tcpviz(t, nil, args...)
				lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
				if code != 2 || stdout != "" || len(lines) != 1 || !strings.Contains(stderr, name) {
					t.Errorf("%q: exit %d, stdout %q, stderr %q: want exit 2 and one line naming %s", args, code, stdout, stderr, name)
				}
				if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "Usage") {
					t.Errorf("%q: stack trace or usage text: %q", args, stderr)
				}
				if ents, _ := os.ReadDir(dir); len(ents) > 0 {
					t.Errorf("%q wrote %v", args, ents)
				}
				tried++
			}
		}
	}
	t.Logf("%d cases", tried)
	if tried < 100 {
		t.Fatalf("only %d cases tried", tried)
	}
}

// TestPictureSizeLimits: the same limits for every command that draws,
// and no run out of memory for a huge picture.
func TestPictureSizeLimits(t *testing.T) {
	for _, cmd := range []string{"seq", "tput", "rtt", "window", "compare", "report"} {
		for _, size := range [][]string{{"--width", "200000", "--height", "200000"}, {"--width", "99"}, {"--height", "8001"}} {
			t.Chdir(t.TempDir())
			args := append([]string{cmd}, size...)
			_, stderr, code := tcpviz(t, nil, append(args, demoCapture)...)
			if code != 2 || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
			}
		}
	}
}

// TestSeqWindowOnlyWhereDrawn: --seq-from and --seq-to pick from the
// graphs with a sequence axis (seq, rtt); the others refuse them (they
// were ignored there) before any input is read.
func TestSeqWindowOnlyWhereDrawn(t *testing.T) {
	capture := abs(t, demoCapture) // the test runs elsewhere
	for _, cmd := range []string{"window", "tput", "cwnd"} {
		t.Chdir(t.TempDir())
		_, stderr, code := tcpviz(t, nil, cmd, "--seq-from", "1000", filepath.Join(t.TempDir(), "absent.pcap"))
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, cmd+": --seq-from and --seq-to pick sequence numbers") {
			t.Errorf("%s --seq-from: exit %d, stderr %q", cmd, code, stderr)
		}
	}
	for _, cmd := range []string{"seq", "rtt"} {
		t.Chdir(t.TempDir())
		if _, stderr, code := tcpviz(t, nil, cmd, "--seq-from", "1000", "--seq-to", "200000", "-o", "x.csv", capture); code != 0 {
			t.Errorf("%s --seq-from: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}

// TestNumbersAsTyped: counts accept 8e6 and suffixes, times accept units.
func TestNumbersAsTyped(t *testing.T) {
	for in, want := range map[string]int64{"8e6": 8e6, "8M": 8e6, "1.5k": 1500, "12": 12, "-4": -4} {
		if got, err := units.Count(in); err != nil || got != want {
			t.Errorf("units.Count(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1.5", "x", "8e30", "1..2"} {
		if _, err := units.Count(in); err == nil {
			t.Errorf("units.Count(%q) accepted", in)
		}
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "x.csv")
	if _, stderr, code := tcpviz(t, nil, "tput", "--window", "600ms", "--from", "1.5s", "--to", "5", "-s", "1e0", "-o", out, demoCapture); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestSelectsNothing: valid flags that select nothing in the input are a
// runtime failure (exit 1), one line naming the file.
func TestSelectsNothing(t *testing.T) {
	demoCapture, err := filepath.Abs(demoCapture) // the test runs elsewhere
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"seq", "-s", "99", demoCapture},
		{"seq", "--from", "100", demoCapture},
		{"seq", "--seq-from", "999999999", "--seq-to", "9999999999", demoCapture},
		{"report", "-s", "99", demoCapture},
		{"compare", "--from", "100", demoCapture, demoCapture},
		{"compare", "--align", "syn", "--from", "100", "-o", "x.csv", demoCapture, demoCapture},
	} {
		t.Chdir(t.TempDir())
		stdout, stderr, code := tcpviz(t, nil, args...)
		if code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "geo_short.pcap") ||
			strings.Contains(stderr, "no such file") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// TestErrorNamesInputOnce: an input that is not a capture is named once
// in its error line, whichever command reads it (graph commands and
// report once named it twice).
func TestErrorNamesInputOnce(t *testing.T) {
	demoCapture, err := filepath.Abs(demoCapture) // the test runs elsewhere
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(demoCapture)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "cut.pcap")
	if err := os.WriteFile(bad, data[:20], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"summary", bad}, {"seq", "-o", "x.png", bad}, {"seq", "-s", "1", "-o", "x.png", bad},
		{"report", "--out-dir", "r", bad}, {"compare", bad, demoCapture}} {
		t.Chdir(t.TempDir())
		_, stderr, code := tcpviz(t, nil, args...)
		if code != 1 || strings.Count(stderr, "cut.pcap") != 1 || !strings.Contains(stderr, "truncated") || strings.Contains(stderr, "no such file") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestNonFiniteValues: every flag that takes a real number or a time
// says NaN is not a number and Inf is not a finite one (not "out of
// range"), and 1e999, a number too large for any, is out of range (not
// "not a time"): one line naming the flag, exit 2.
func TestNonFiniteValues(t *testing.T) {
	want := map[string]string{"NaN": "is not a number", "nan": "is not a number", "Inf": "is not a finite number",
		"-Inf": "is not a finite number", "+Infinity": "is not a finite number", "1e999": "is out of range", "-1e999": "is out of range"}
	tried := map[string]bool{}
	for _, cmd := range commands(&env{}) {
		for _, f := range cmd.Flags {
			g, ok := f.(*cli.GenericFlag)
			if !ok {
				continue
			}
			switch g.Value.(type) {
			case *units.SecondsValue, *units.NumberValue, *units.WindowValue:
			case *units.ListValue[int64]:
				if f.Names()[0] != "at" { // --to-bytes takes sizes, not times
					continue
				}
			default:
				continue
			}
			name := f.Names()[0]
			tried[name] = true
			for value, msg := range want {
				args := []string{cmd.Name, "--" + name + "=" + value, demoCapture}
				stdout, stderr, code := tcpviz(t, nil, args...)
				if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--"+name) || !strings.Contains(stderr, msg) {
					t.Errorf("%q: exit %d, stderr %q: want exit 2 and one line saying %q", args, code, stderr, msg)
				}
			}
		}
	}
	for _, name := range []string{"from", "to", "y-min", "y-max", "window", "at"} {
		if !tried[name] {
			t.Errorf("--%s not tried", name)
		}
	}
}

// TestFieldsEveryTable: --fields is one flag of every command that
// writes a table (io, sweep and join had none), picking the columns as on
// summary; a name that picks none, or --fields beside a figure, is a usage
// error. sweep reads --files-from as the other commands of many captures.
func TestFieldsEveryTable(t *testing.T) {
	td := golden.Testdata()
	mid := filepath.Join(td, "truth-mid", "gt_mid_two_links")
	sweepArgs := []string{"sweep", "-f", "csv", "--param", `rtt=sweep_(\d+)ms`, "--rows", "rtt"}
	for _, c := range []struct {
		args   []string
		header string
	}{
		{[]string{"io", "-f", "csv", "--fields", "stream,packets", filepath.Join(td, "io", "io_cubic2_bbr.pcap.gz")}, "stream,packets"},
		{append(slices.Clone(sweepArgs), "--fields", "*_mean,rtt", filepath.Join(td, "sweep")), "throughput_bps_mean,rtt"},
		{[]string{"join", "-f", "csv", "--fields", "direction,stream", mid + ".tx.pcap.gz", mid + ".rx.pcap.gz"}, "direction,stream"},
	} {
		out, stderr, code := tcpviz(t, nil, c.args...)
		if header, _, _ := strings.Cut(out, "\n"); code != 0 || header != c.header || strings.Count(out, "\n") < 2 {
			t.Errorf("%s --fields: exit %d, %q, header %q; want %q", c.args[0], code, stderr, header, c.header)
		}
		bad := slices.Clone(c.args)
		bad[slices.Index(bad, "--fields")+1] = "nope"
		if _, stderr, code := tcpviz(t, nil, bad...); code != 2 || !strings.Contains(stderr, `--fields "nope": no such column`) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s --fields nope: exit %d, %q; want a usage error", c.args[0], code, stderr)
		}
	}
	// With --cols the metric's columns are named per column value: the
	// bare name is refused before any input is read (it was refused after
	// reading them all; here the one input does not exist).
	if _, stderr, code := tcpviz(t, nil, append(slices.Clone(sweepArgs), "--cols", "proto", "--fields", "rtt,throughput_bps_mean", filepath.Join(t.TempDir(), "none.pcap"))...); code != 2 || !strings.Contains(stderr, "VALUE_throughput_bps_mean") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("sweep --cols proto --fields throughput_bps_mean: exit %d, %q; want a usage error before reading", code, stderr)
	}
	if _, stderr, code := tcpviz(t, nil, "io", "--fields", "stream", "-o", filepath.Join(t.TempDir(), "io.png"), demoCapture); code != 2 || !strings.Contains(stderr, "draws the figure") {
		t.Errorf("io --fields beside a figure: exit %d, %q", code, stderr)
	}
	list := filepath.Join(t.TempDir(), "list")
	runs, _ := filepath.Glob(filepath.Join(td, "sweep", "*.pcap*"))
	os.WriteFile(list, []byte(strings.Join(runs, "\n")+"\n"), 0o644)
	fromList, stderr, code := tcpviz(t, nil, append(slices.Clone(sweepArgs), "--files-from", list)...)
	named, _, _ := tcpviz(t, nil, append(slices.Clone(sweepArgs), runs...)...)
	if code != 0 || fromList != named || len(runs) == 0 {
		t.Errorf("sweep --files-from: exit %d, %q; same as naming them: %v", code, stderr, fromList == named)
	}
}
