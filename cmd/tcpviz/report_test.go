package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	dir := t.TempDir()
	// A capture name with HTML in it must come out escaped.
	capture := filepath.Join(t.TempDir(), "geo<script>.pcap")
	data, err := os.ReadFile(demoCapture)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(capture, data, 0o644)
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, capture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	index := strings.TrimSpace(stdout)
	if filepath.Dir(index) != filepath.Join(dir, "geo<script>-report") {
		t.Errorf("index %q is not in a report folder inside %s", index, dir)
	}
	html, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	for _, want := range []string{"seq.png", "stevens.png", "tput.png", "rtt.png", "window.png", "summary.csv",
		"receiver-window limited", "geo&lt;script&gt;.pcap", "ended at 3.6"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if strings.Contains(page, "geo<script>") {
		t.Errorf("capture name not escaped")
	}
	folder := filepath.Dir(index)
	for _, name := range []string{"seq.png", "window.png"} {
		f, err := os.Open(filepath.Join(folder, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != 1200 {
			t.Errorf("%s: %v %v", name, err, img)
		}
	}
	sum, err := os.ReadFile(filepath.Join(folder, "summary.csv"))
	if err != nil || !strings.HasPrefix(string(sum), "file,stream,direction,src_addr") || strings.Count(string(sum), "\n") != 5 {
		t.Errorf("summary.csv (%v):\n%s", err, sum)
	}
}
