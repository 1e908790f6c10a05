package main

import (
	"fmt"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/internal/cmdline"
	"tcpviz/reassembly"
)

// warningsOf prefixes an analysis's warnings with the input's name.
func warningsOf(in input, ws []analyze.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = in.display() + ": " + charts.WarningText(w)
	}
	return out
}

// resultOf is the result of analysing in: its warnings and error, named.
func resultOf(in input, ws []analyze.Warning, err error) fileResult {
	res := fileResult{warnings: warningsOf(in, ws)}
	if err != nil {
		res.err = prefixErr(in, err)
	}
	return res
}

// readOnce reads in in one pass, handing read its reader; an input that
// cannot be opened fails, named.
func (e *env) readOnce(in input, read func(*reassembly.Reader) fileResult) fileResult {
	return e.readFirst(in, 1, func(_ *source, r *reassembly.Reader) fileResult { return read(r) })
}

// readFirst prepares in to be read passes times (newSource) and hands
// read the first pass's reader, and the source for the others; an input
// that cannot be opened fails, named.
func (e *env) readFirst(in input, passes int, read func(*source, *reassembly.Reader) fileResult) fileResult {
	src, err := e.newSource(in, passes)
	if err != nil {
		return fileResult{err: err}
	}
	defer src.close()
	r, err := src.open()
	if err != nil {
		return fileResult{err: prefixErr(in, err)}
	}
	return read(src, r)
}

// graphWarnings says a graph's warnings on stderr, each after the command
// that drew it.
func (e *env) graphWarnings(cmd string, g *analyze.Graph) {
	for _, w := range g.Warnings {
		fmt.Fprintf(e.stderr, "tcpviz: warning: %s: %s\n", cmd, cmdline.OneLine(charts.WarningText(w)))
	}
}
