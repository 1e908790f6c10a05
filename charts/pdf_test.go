package charts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPDFText: the text of a PDF figure is what was drawn, every glyph
// (pdftotext reads it back: the title with –, µ, ≥ and →, the axis labels,
// the legend), the text lies inside the page, and the same figure is the
// same file.
func TestPDFText(t *testing.T) {
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed: .ci/run installs it")
	}
	l := loadCapture(t, "../testdata/geo_short.pcap")
	g := drawGolden(t, l, 0)
	title := "– 5 µs ≥ 3 → done"
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		if err := Render(buf, g, PDF, PlotOptions{Width: 800, Height: 480, Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same figure made two different files")
	}
	path := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(path, a.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-layout", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{title, "time since the connection's first packet (s)", "data segment", "receive window (ACK + window)", "sequence number (MB)"} {
		if !strings.Contains(text, want) {
			t.Errorf("pdftotext lacks %q:\n%s", want, text)
		}
	}
	// A generated title's own dashes and arrow.
	var c bytes.Buffer
	if err := Render(&c, g, PDF, PlotOptions{Width: 800, Height: 480, Capture: "geo_short.pcap"}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, c.Bytes(), 0o644)
	out, _ = exec.Command(tool, path, "-").Output()
	if want := "Time/sequence (tcptrace) — 10.88.1.1:57442 → 10.88.2.2:5201"; !strings.Contains(string(out), want) {
		t.Errorf("pdftotext lacks %q:\n%s", want, out)
	}
	// Every word inside the page (pdftotext's boxes are the font's
	// ascent and descent: a rotated label may reach a point past the
	// edge with its glyphs inside).
	out, _ = exec.Command(tool, "-bbox", path, "-").Output()
	for _, m := range regexp.MustCompile(`[xy]M(in|ax)="(-?[0-9.]+)"`).FindAllStringSubmatch(string(out), -1) {
		if v, _ := strconv.ParseFloat(m[2], 64); v < -2 || v > 802 {
			t.Errorf("text outside the page: %s", m[0])
		}
	}
}
