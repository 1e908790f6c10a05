package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze/sweep"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

// paramFlags are the parameters of each capture (an experiment's
// settings): read from its file name (--param NAME=REGEX), from its
// pcapng section comments (--param NAME: a NAME=VALUE there) or from a
// manifest (--manifest FILE: a CSV of file, then one column a parameter).
type paramFlags struct {
	param    *listValue
	Patterns []sweep.Param
	// Manifest holds its rows by file (as written, and by base name);
	// Names are every parameter, patterns first.
	Manifest     map[string]map[string]string
	ManifestPath string
	ManifestRows []string // the files, in the manifest's order
	Names        []string

	// The comments' key=value pairs of each capture, by the name its rows
	// give it (read once, from the regular files check was given).
	mu       sync.Mutex
	paths    map[string]string
	comments map[string]map[string]string
}

func (f *paramFlags) flags() []cli.Flag {
	f.param = &listValue{}
	return []cli.Flag{
		&cli.GenericFlag{Name: "param", Value: f.param, Usage: "NAME=REGEX: a parameter of each capture read from its file name, the first group; NAME: from its pcapng comment's NAME=VALUE (repeatable): a param_NAME column"},
		&cli.StringFlag{Name: "manifest", Usage: "a CSV file: a file column, then one column per parameter (param_<column> columns); its files are the inputs when none is named"},
	}
}

func (f *paramFlags) parse(c *cli.Context) error {
	for _, s := range f.param.vs {
		p, err := sweep.ParseParam(s)
		if err != nil {
			return usagef("--param %v", err)
		}
		f.Patterns = append(f.Patterns, p)
		f.Names = append(f.Names, p.Name)
	}
	if f.ManifestPath = c.String("manifest"); f.ManifestPath != "" {
		return f.readManifest()
	}
	return nil
}

// readManifest reads the manifest's rows.
func (f *paramFlags) readManifest() error {
	fh, err := os.Open(f.ManifestPath)
	if err != nil {
		return usagef("--manifest %s: %v", escapeName(f.ManifestPath), unwrapPathError(err))
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil || len(recs) == 0 || len(recs[0]) < 2 || recs[0][0] != "file" {
		return usagef("--manifest %s: want a CSV whose header is file, then the parameters' names", escapeName(f.ManifestPath))
	}
	f.Manifest = map[string]map[string]string{}
	for _, name := range recs[0][1:] {
		name = sweep.ColumnName([]string{name})
		if slices.Contains(f.Names, name) {
			return usagef("--manifest %s: parameter %q twice", escapeName(f.ManifestPath), name)
		}
		f.Names = append(f.Names, name)
	}
	base := len(f.Names) - (len(recs[0]) - 1)
	for _, rec := range recs[1:] {
		vals := map[string]string{}
		for i, v := range rec[1:] {
			if v != "" {
				vals[f.Names[base+i]] = v
			}
		}
		file := rec[0]
		if !filepath.IsAbs(file) {
			file = filepath.Join(filepath.Dir(f.ManifestPath), file)
		}
		f.Manifest[file], f.Manifest[filepath.Base(rec[0])] = vals, vals
		f.ManifestRows = append(f.ManifestRows, file)
	}
	return nil
}

// Values are the parameters of the capture named file.
func (f *paramFlags) Values(file string) map[string]string {
	out := map[string]string{}
	for _, p := range f.Patterns {
		if p.Commented() {
			if v, ok := f.commentValues(file)[p.Name]; ok {
				out[p.Name] = v
			}
		} else if v, ok := p.Value(filepath.Base(file)); ok {
			out[p.Name] = v
		}
	}
	m := f.Manifest[file]
	if m == nil {
		m = f.Manifest[filepath.Base(file)]
	}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// args are the command's inputs: those named, or the manifest's files.
func (f *paramFlags) args(c *cli.Context) []string {
	if c.NArg() == 0 && f.Manifest != nil {
		return f.ManifestRows
	}
	return nil
}

// check says, before the captures are read, which pattern matches no
// input's file name, and which parameter of the comments no input's
// comments give.
func (f *paramFlags) check(ins []input) error {
	f.paths = map[string]string{}
	for _, in := range ins {
		if in.regular && in.err == nil {
			f.paths[in.name] = in.path
		}
	}
	for _, p := range f.Patterns {
		matched := false
		for _, in := range ins {
			if _, ok := f.Values(in.name)[p.Name]; ok {
				matched = true
			}
		}
		switch {
		case matched:
		case p.Commented():
			return usagef("--param %s: no input's pcapng section comment says %s=VALUE", p.Name, p.Name)
		default:
			return usagef("--param %s=%s matches no input's file name", p.Name, p.Re)
		}
	}
	return nil
}

// commentValues are the key=value pairs of the comments of the capture
// its rows name file: its pcapng section header's (other formats have
// none).
func (f *paramFlags) commentValues(file string) map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if v, ok := f.comments[file]; ok {
		return v
	}
	if f.comments == nil {
		f.comments = map[string]map[string]string{}
	}
	var v map[string]string
	if path, ok := f.paths[file]; ok {
		if fh, err := os.Open(path); err == nil {
			if r, err := reassembly.NewReader(fh); err == nil {
				v = sweep.CommentValues(r.Comments())
				r.Close()
			}
			fh.Close()
		}
	}
	f.comments[file] = v
	return v
}

// paramColumns are the param_<name> columns of a table whose rows name
// their capture by file.
func paramColumns[R any](f *paramFlags, file func(*R) string) charts.Schema[R] {
	var out charts.Schema[R]
	for _, name := range f.Names {
		out = append(out, charts.Column[R]{Name: "param_" + name, Kind: charts.String,
			Doc: fmt.Sprintf("the capture's %s, as %s says it", name, f.sourceOf(name)),
			Cell: func(r *R) charts.Value {
				v, ok := f.Values(file(r))[name]
				return charts.StrV(v).Or(ok)
			}})
	}
	return out
}

// sourceOf says where a parameter is read from.
func (f *paramFlags) sourceOf(name string) string {
	for _, p := range f.Patterns {
		if p.Name == name && p.Commented() {
			return "its pcapng section comment (" + name + "=...)"
		}
		if p.Name == name {
			return "its file name (" + p.Re.String() + ")"
		}
	}
	return "the manifest " + strings.TrimSpace(f.ManifestPath)
}
