package sweep

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestParams: a capture's parameters come from its file name, its
// comments (read through Comments, once) and a manifest (whose relative
// files are relative to it, found by base name too); Check names the
// parameter no capture has; Unit and Source say what the columns' docs
// and the figure's axis say.
func TestParams(t *testing.T) {
	ps, err := ParseParams([]string{`rtt=sweep_(\d+)ms`, "delay"})
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	comments := func(file string) []string {
		reads++
		if file == "a/sweep_10ms_r1.pcapng" {
			return []string{"Delay=5ms kind=x"}
		}
		return nil
	}
	if err := ps.ReadManifest(strings.NewReader("size,cc\n"), "m.csv"); err == nil || !strings.Contains(err.Error(), "header is file") {
		t.Errorf("manifest without a file column: %v", err)
	}
	if err := ps.ReadManifest(strings.NewReader("file,rtt\nx.pcap,1\n"), "m.csv"); err == nil || err.Error() != `parameter "rtt" twice` {
		t.Errorf("a parameter twice: %v", err)
	}
	ps, _ = ParseParams([]string{`rtt=sweep_(\d+)ms`, "delay"})
	ps.Comments = comments
	reads = 0
	if err := ps.ReadManifest(strings.NewReader("file,CC,size\nsweep_10ms_r1.pcapng,cubic,\n/abs/b.pcap,bbr,1M\n"), filepath.Join("exp", "m.csv")); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ps.Names, ps.ManifestRows); got != "[rtt delay cc size] [exp/sweep_10ms_r1.pcapng /abs/b.pcap]" {
		t.Errorf("names and rows: %s", got)
	}
	for _, c := range []struct{ file, want string }{
		{"a/sweep_10ms_r1.pcapng", "map[cc:cubic delay:5ms rtt:10]"}, // by base name in the manifest
		{"a/sweep_10ms_r1.pcapng", "map[cc:cubic delay:5ms rtt:10]"}, // comments read once
		{"/abs/b.pcap", "map[cc:bbr size:1M]"},
		{"other.pcap", "map[]"},
	} {
		if got := fmt.Sprint(ps.Values(c.file)); got != c.want {
			t.Errorf("Values(%s) = %s, want %s", c.file, got, c.want)
		}
	}
	if reads != 3 {
		t.Errorf("comments read %d times, want once a file (3)", reads)
	}
	if err := ps.Check([]string{"a/sweep_10ms_r1.pcapng"}); err != nil {
		t.Errorf("Check: %v", err)
	}
	if err := ps.Check([]string{"/abs/b.pcap"}); err == nil || err.Error() != `rtt=sweep_(\d+)ms matches no input's file name` {
		t.Errorf("Check of a file the pattern misses: %v", err)
	}
	ps2, _ := ParseParams([]string{"run"})
	if err := ps2.Check([]string{"x.pcap"}); err == nil || err.Error() != "run: no input's pcapng section comment says run=VALUE" {
		t.Errorf("Check of a comment no capture has: %v", err)
	}
	if ps.unit("rtt") != "ms" || ps.unit("delay") != "" || ps.unit("cc") != "" {
		t.Errorf("units: %q %q %q", ps.unit("rtt"), ps.unit("delay"), ps.unit("cc"))
	}
	for name, want := range map[string]string{
		"rtt":   `its file name (sweep_(\d+)ms)`,
		"delay": "its pcapng section comment (delay=...)",
		"cc":    "the manifest " + filepath.Join("exp", "m.csv"),
	} {
		if got := ps.Source(name); got != want {
			t.Errorf("Source(%s) = %q, want %q", name, got, want)
		}
	}
	if _, err := ParseParams([]string{"Bad=x"}); err == nil {
		t.Error("ParseParams accepted an upper-case name")
	}
}

// TestManifestBOMAndRepeats: a manifest saved by a spreadsheet as "CSV
// UTF-8" (a byte-order mark first) is read; one that names a capture twice
// is refused (it was counted twice, n=2, under its last row's values).
func TestManifestBOMAndRepeats(t *testing.T) {
	ps, err := ParseParams(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ps.ReadManifest(strings.NewReader("\ufefffile,cc\na.pcap,cubic\n"), "m.csv"); err != nil {
		t.Fatalf("with a byte-order mark: %v", err)
	}
	if got := ps.Values("a.pcap")["cc"]; got != "cubic" {
		t.Fatalf("cc %q, want cubic", got)
	}
	ps, _ = ParseParams(nil)
	err = ps.ReadManifest(strings.NewReader("file,cc\na.pcap,cubic\nb.pcap,bbr\na.pcap,reno\n"), "m.csv")
	if err == nil || !strings.Contains(err.Error(), "a.pcap twice") {
		t.Fatalf("a capture twice: %v", err)
	}
}

// TestParamTwice: two --param of one name are refused, as a manifest
// column naming a parameter again is: the tables had two param_NAME
// columns, both the last pattern's value.
func TestParamTwice(t *testing.T) {
	for _, specs := range [][]string{{`rtt=sweep_(\d+)ms`, `rtt=_r(\d+)`}, {"delay", `delay=(\d+)ms`}} {
		if _, err := ParseParams(specs); err == nil || !strings.Contains(err.Error(), `parameter "`+strings.SplitN(specs[0], "=", 2)[0]+`" twice`) {
			t.Errorf("%q: %v, want the parameter named twice refused", specs, err)
		}
	}
}

// endless is an input that never ends: b repeated, the bytes read
// counted.
type endless struct {
	b    byte
	read int64
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	e.read += int64(len(p))
	return len(p), nil
}

// TestManifestBounded: a manifest that is not one (/dev/zero, a capture,
// a file of one endless line, or one past 64 MiB) is refused after a
// bounded read, with what is wrong: /dev/zero took 4.5 GB before (found
// by a tester).
func TestManifestBounded(t *testing.T) {
	for _, c := range []struct {
		r       io.Reader
		want    string
		maxRead int64
	}{
		{&endless{b: 0}, "holds NUL bytes (a capture?)", maxManifestLine + 1},
		{&endless{b: 'a'}, "no line end in its first 64 KiB", maxManifestLine + 1},
		{io.MultiReader(strings.NewReader("file,rtt\n"), &endless{b: 'a'}), "more than 64 MiB", maxManifest + 1},
		{io.MultiReader(strings.NewReader("file,rtt\nx.pcap,1\n"), strings.NewReader("y\x00")), "holds NUL bytes (a capture?)", 0},
	} {
		ps, _ := ParseParams(nil)
		err := ps.ReadManifest(c.r, "m.csv")
		if err == nil || !strings.HasPrefix(err.Error(), c.want+": want a CSV whose header is file") {
			t.Errorf("%T: %v, want %q", c.r, err, c.want)
		}
		if e, ok := c.r.(*endless); ok && e.read > c.maxRead {
			t.Errorf("%q: read %d bytes, at most %d", c.want, e.read, c.maxRead)
		}
	}
	ps, _ := ParseParams(nil)
	if err := ps.ReadManifest(strings.NewReader("\ufefffile,rtt\nx.pcap,10ms\n"), "/m/m.csv"); err != nil || ps.Values("/m/x.pcap")["rtt"] != "10ms" {
		t.Errorf("a manifest: %v, %v", err, ps.Values("/m/x.pcap"))
	}
}
