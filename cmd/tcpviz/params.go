package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze/sweep"
	"tcpviz/charts"
	"tcpviz/internal/cmdline"
	"tcpviz/reassembly"
)

// paramFlags are the parameters of each capture (an experiment's
// settings, sweep.Params): read from its file name (--param NAME=REGEX),
// from its pcapng section comments (--param NAME: a NAME=VALUE there) or
// from a manifest (--manifest FILE: a CSV of file, then one column a
// parameter).
type paramFlags struct {
	param *cmdline.List
	*sweep.Params
	// paths are the files of the inputs whose comments can be read (the
	// regular files check was given), by the name their rows give them.
	paths map[string]string
}

func (f *paramFlags) flags() []cli.Flag {
	f.param = &cmdline.List{}
	return []cli.Flag{
		&cli.GenericFlag{Name: "param", Value: f.param, Usage: "NAME=REGEX: a parameter of each capture read from its file name, the first group; NAME: from its pcapng comment's NAME=VALUE (repeatable): a param_NAME column"},
		&cli.StringFlag{Name: "manifest", Usage: "a CSV file: a file column, then one column per parameter (param_<column> columns); its files are the inputs when none is named"},
	}
}

func (f *paramFlags) parse(c *cli.Context) error {
	ps, err := sweep.ParseParams(f.param.Vs)
	if err != nil {
		return usagef("--param %v", err)
	}
	f.Params, ps.Comments = ps, f.comments
	path := c.String("manifest")
	if path == "" {
		return nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return usagef("--manifest %s: %v", charts.EscapeName(path), unwrapPathError(err))
	}
	defer fh.Close()
	if err := ps.ReadManifest(fh, path); err != nil {
		return usagef("--manifest %s: %v", charts.EscapeName(path), err)
	}
	return nil
}

// args are the command's inputs: those named, or the manifest's files.
func (f *paramFlags) args(c *cli.Context) []string {
	if c.NArg() == 0 {
		return f.ManifestRows
	}
	return nil
}

// check says, before the captures are read, which pattern matches no
// input's file name, and which parameter of the comments no input's
// comments give.
func (f *paramFlags) check(ins []input) error {
	f.paths = map[string]string{}
	names := make([]string, len(ins))
	for i, in := range ins {
		if in.regular && in.err == nil {
			f.paths[in.name] = in.path
		}
		names[i] = in.name
	}
	if err := f.Check(names); err != nil {
		return usagef("--param %v", err)
	}
	return nil
}

// comments are the comments of the capture its rows name file: its
// pcapng section header's (other formats have none; nil when it cannot
// be read).
func (f *paramFlags) comments(file string) []string {
	path, ok := f.paths[file]
	if !ok {
		return nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer fh.Close()
	r, err := reassembly.NewReader(fh)
	if err != nil {
		return nil
	}
	defer r.Close()
	return r.Comments()
}
