package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Params are the parameters of each capture of an experiment (its
// settings): read from its file name (NAME=REGEX), from its pcapng
// section comments (NAME: a NAME=VALUE there) or from a manifest (a CSV
// of file, then one column a parameter).
type Params struct {
	patterns []param
	// Names are every parameter, the patterns' first.
	Names []string
	// ManifestRows are the manifest's files, in its order (nil without
	// a manifest).
	ManifestRows []string
	// manifest holds its rows by file (as written, and by base name).
	manifest     map[string]map[string]string
	manifestPath string

	// Comments reads the comments of the capture named file (a pcapng
	// section header's; nil when it has none or cannot be read). The
	// library reads no files: the caller sets it before Values or
	// Check, when a parameter is of the comments.
	Comments func(file string) []string
	mu       sync.Mutex
	cached   map[string]map[string]string
}

// ParseParams reads the parameters of specs (NAME=REGEX, or NAME for
// the captures' comments), in order.
func ParseParams(specs []string) (*Params, error) {
	ps := &Params{}
	for _, s := range specs {
		p, err := parseParam(s)
		if err != nil {
			return nil, err
		}
		if slices.Contains(ps.Names, p.Name) {
			return nil, fmt.Errorf("parameter %q twice", p.Name)
		}
		ps.patterns = append(ps.patterns, p)
		ps.Names = append(ps.Names, p.Name)
	}
	return ps, nil
}

// maxManifest and maxManifestLine bound a manifest and its header line
// (a manifest of 100,000 captures with long paths and ten parameters is
// under 30 MiB).
const (
	maxManifest     = 64 << 20
	maxManifestLine = 64 << 10
)

// ReadManifest reads a manifest from r: a CSV whose header is file, then
// the parameters' names. A relative file in it is relative to the
// manifest's own directory (path names the manifest).
//
// A manifest is at most maxManifest bytes, its header line at most
// maxManifestLine, and it holds no NUL byte: /dev/zero or a capture named
// by mistake is refused in a moment, not read whole into gigabytes.
func (ps *Params) ReadManifest(r io.Reader, path string) error {
	const want = "want a CSV whose header is file, then the parameters' names"
	// Its first line first: NUL bytes or no line end in it end the read.
	head := make([]byte, maxManifestLine+1)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	head = head[:n]
	switch nl := bytes.IndexByte(head, '\n'); {
	case bytes.IndexByte(head, 0) >= 0:
		return fmt.Errorf("holds NUL bytes (a capture?): %s", want)
	case nl < 0 && n > maxManifestLine:
		return fmt.Errorf("no line end in its first %d KiB: %s", maxManifestLine>>10, want)
	}
	rest, err := io.ReadAll(io.LimitReader(r, maxManifest+1-int64(n)))
	if err != nil {
		return err
	}
	data := append(head, rest...)
	switch {
	case len(data) > maxManifest:
		return fmt.Errorf("more than %d MiB: %s", maxManifest>>20, want)
	case bytes.IndexByte(rest, 0) >= 0:
		return fmt.Errorf("holds NUL bytes (a capture?): %s", want)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err == nil && len(recs) > 0 && len(recs[0]) > 0 {
		// A spreadsheet's "CSV UTF-8" starts with a byte-order mark.
		recs[0][0] = strings.TrimPrefix(recs[0][0], "\ufeff")
	}
	if err != nil || len(recs) == 0 || len(recs[0]) < 2 || recs[0][0] != "file" {
		return fmt.Errorf("%s", want)
	}
	ps.manifest, ps.manifestPath, ps.ManifestRows = map[string]map[string]string{}, path, nil
	for _, name := range recs[0][1:] {
		name = columnName([]string{name})
		if slices.Contains(ps.Names, name) {
			return fmt.Errorf("parameter %q twice", name)
		}
		ps.Names = append(ps.Names, name)
	}
	base := len(ps.Names) - (len(recs[0]) - 1)
	for _, rec := range recs[1:] {
		vals := map[string]string{}
		for i, v := range rec[1:] {
			if v != "" {
				vals[ps.Names[base+i]] = v
			}
		}
		file := rec[0]
		if !filepath.IsAbs(file) {
			file = filepath.Join(filepath.Dir(path), file)
		}
		if _, twice := ps.manifest[file]; twice {
			return fmt.Errorf("%s twice (one row a capture)", rec[0])
		}
		ps.manifest[file], ps.manifest[filepath.Base(rec[0])] = vals, vals
		ps.ManifestRows = append(ps.ManifestRows, file)
	}
	return nil
}

// Values are the parameters of the capture named file.
func (ps *Params) Values(file string) map[string]string {
	out := map[string]string{}
	for _, p := range ps.patterns {
		if p.commented() {
			if v, ok := ps.commentsOf(file)[p.Name]; ok {
				out[p.Name] = v
			}
		} else if v, ok := p.value(filepath.Base(file)); ok {
			out[p.Name] = v
		}
	}
	m := ps.manifest[file]
	if m == nil {
		m = ps.manifest[filepath.Base(file)]
	}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Check says which pattern matches none of the files, and which
// parameter of the comments none of their comments give.
func (ps *Params) Check(files []string) error {
	for _, p := range ps.patterns {
		matched := false
		for _, f := range files {
			if _, ok := ps.Values(f)[p.Name]; ok {
				matched = true
			}
		}
		switch {
		case matched:
		case p.commented():
			return fmt.Errorf("%s: no input's pcapng section comment says %s=VALUE", p.Name, p.Name)
		default:
			return fmt.Errorf("%s=%s matches no input's file name", p.Name, p.Re)
		}
	}
	return nil
}

// unit is what the pattern of parameter name writes right after its
// value (ms of sweep_(\d+)ms), "" when nothing does or it has none.
func (ps *Params) unit(name string) string {
	unit := ""
	for _, p := range ps.patterns {
		if p.Name == name {
			unit = p.Unit
		}
	}
	return unit
}

// Source says where parameter name is read from.
func (ps *Params) Source(name string) string {
	for _, p := range ps.patterns {
		if p.Name == name && p.commented() {
			return "its pcapng section comment (" + name + "=...)"
		}
		if p.Name == name {
			return "its file name (" + p.Re.String() + ")"
		}
	}
	return "the manifest " + strings.TrimSpace(ps.manifestPath)
}

// commentsOf are the key=value pairs of the comments of the capture
// named file, read once.
func (ps *Params) commentsOf(file string) map[string]string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if v, ok := ps.cached[file]; ok {
		return v
	}
	if ps.cached == nil {
		ps.cached = map[string]map[string]string{}
	}
	var v map[string]string
	if ps.Comments != nil {
		if cs := ps.Comments(file); cs != nil {
			v = commentValues(cs)
		}
	}
	ps.cached[file] = v
	return v
}
