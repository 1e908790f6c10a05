// Package golden reads the per-frame reference files that
// scripts/tshark-golden.sh writes with tshark (testdata/tshark/*.tsv.gz),
// for tests that compare tcpviz with Wireshark frame by frame.
package golden

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Dir is the directory holding the golden files.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "tshark")
}

// SharedCaptures is ../shared/captures beside the repository.
func SharedCaptures() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "captures")
}

// Captures lists every capture file the differential tests read: the
// shared corpus (lab, real, truth, malformed, udp) and the repository's
// testdata (regular files, not .md; some may not be captures).
func Captures() []string {
	var names []string
	for _, dir := range []string{"lab", "real", "truth", "malformed", "udp"} {
		m, _ := filepath.Glob(filepath.Join(SharedCaptures(), dir, "*"))
		names = append(names, m...)
	}
	_, file, _, _ := runtime.Caller(0)
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "*"))
	names = append(names, m...)
	var files []string
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && st.Mode().IsRegular() && filepath.Ext(n) != ".md" {
			files = append(files, n)
		}
	}
	return files
}

// File is one golden file: tshark's fields for every TCP frame of a capture.
type File struct {
	Name    string // golden file base name
	Capture string // path of the capture it describes
	Version string // the tshark version line
	cols    map[string]int
	Rows    [][]string
}

// Frame is one row.
type Frame struct {
	f   *File
	row []string
}

// Frames returns the rows as Frames.
func (f *File) Frames() []Frame {
	out := make([]Frame, len(f.Rows))
	for i, r := range f.Rows {
		out[i] = Frame{f, r}
	}
	return out
}

// Has reports whether the file has column name.
func (f *File) Has(name string) bool { _, ok := f.cols[name]; return ok }

// Str returns column name of the frame ("" when absent).
func (fr Frame) Str(name string) string {
	i, ok := fr.f.cols[name]
	if !ok || i >= len(fr.row) {
		return ""
	}
	return fr.row[i]
}

// Int returns column name as an integer (0 when empty).
func (fr Frame) Int(name string) int64 {
	s := fr.Str(name)
	if s == "" {
		return 0
	}
	if strings.HasPrefix(s, "0x") {
		v, _ := strconv.ParseInt(s[2:], 16, 64)
		return v
	}
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}

// Float returns column name as a float and whether it was present.
func (fr Frame) Float(name string) (float64, bool) {
	s := fr.Str(name)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// Flag reports whether a 0/1 column is 1.
func (fr Frame) Flag(name string) bool { return fr.Str(name) == "1" }

// All returns every golden file, with the capture each describes. The
// capture paths point into ../shared/captures; callers skip those absent.
func All() ([]*File, error) {
	names, err := filepath.Glob(filepath.Join(Dir(), "*.tsv.gz"))
	if err != nil {
		return nil, err
	}
	var out []*File
	for _, n := range names {
		f, err := Load(n)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Load reads one golden file.
func Load(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	base := strings.TrimSuffix(filepath.Base(path), ".tsv.gz")
	f := &File{Name: base, cols: map[string]int{}}
	if dir, name, ok := strings.Cut(base, "__"); ok {
		f.Capture = filepath.Join(SharedCaptures(), dir, name)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	header := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			f.Version = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			continue
		}
		cells := strings.Split(line, "\t")
		if !header {
			for i, c := range cells {
				f.cols[c] = i
			}
			header = true
			continue
		}
		f.Rows = append(f.Rows, cells)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
