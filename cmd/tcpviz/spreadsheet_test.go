package main

import (
	"archive/zip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSpreadsheetTimes converts summary CSVs with headless LibreOffice,
// as a user opens them (--infilter=CSV:44,34,76,1,,0,false,true,true: its
// number detection on), and reads the cell types back from the xlsx:
// with --time-format spreadsheet first_time is a date (a number with a
// date format) and the booleans numbers; with the default RFC 3339 times
// first_time stays text (the trailing Z), which is why the option is.
func TestSpreadsheetTimes(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("no soffice (libreoffice-calc-nogui): .ci/run installs it; the spreadsheet import is not checked")
	}
	cells := func(format string) (first, boolean string) {
		t.Helper()
		dir := t.TempDir()
		csv := filepath.Join(dir, "s.csv")
		out, stderr, code := tcpviz(t, nil, "summary", "-f", "csv", "--time-format", format, "--fields", "stream,first_time,sack_permitted", demoCapture)
		if code != 0 {
			t.Fatalf("summary: %s", stderr)
		}
		os.WriteFile(csv, []byte(out), 0o644)
		cmd := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--headless",
			"--infilter=CSV:44,34,76,1,,0,false,true,true", "--convert-to", "xlsx", "--outdir", dir, csv)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		done := make(chan error, 1)
		go func() { done <- cmd.Run() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("soffice: %v", err)
			}
		case <-time.After(120 * time.Second):
			cmd.Process.Kill()
			t.Fatal("soffice took over 2 minutes")
		}
		z, err := zip.OpenReader(filepath.Join(dir, "s.xlsx"))
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		read := func(name string) string {
			for _, f := range z.File {
				if f.Name == name {
					r, _ := f.Open()
					b, _ := io.ReadAll(r)
					r.Close()
					return string(b)
				}
			}
			t.Fatalf("no %s in the xlsx", name)
			return ""
		}
		sheet, styles := read("xl/worksheets/sheet1.xml"), read("xl/styles.xml")
		cell := func(ref string) string {
			m := regexp.MustCompile(`<c r="` + ref + `" s="(\d+)" t="(\w+)">`).FindStringSubmatch(sheet)
			if m == nil {
				t.Fatalf("no cell %s: %.500s", ref, sheet)
			}
			if m[2] != "n" {
				return m[2] // s: text, b: a boolean
			}
			// A number: is its style a date format?
			xfs := regexp.MustCompile(`<xf numFmtId="(\d+)"`).FindAllStringSubmatch(styles[strings.Index(styles, "<cellXfs"):], -1)
			var k int
			for _, c := range m[1] {
				k = 10*k + int(c-'0')
			}
			if k < len(xfs) {
				if f := regexp.MustCompile(`numFmtId="` + xfs[k][1] + `" formatCode="([^"]*)"`).FindStringSubmatch(styles); f != nil && strings.Contains(f[1], "yy") {
					return "date"
				}
			}
			return "number"
		}
		return cell("B2"), cell("C2")
	}
	if first, b := cells("spreadsheet"); first != "date" || b != "number" {
		t.Errorf("--time-format spreadsheet: first_time is %s, sack_permitted %s; want a date and a number", first, b)
	}
	if first, _ := cells("rfc3339"); first != "s" {
		t.Errorf("RFC 3339: first_time is %s, expected text (else the option would not be needed)", first)
	}
}
