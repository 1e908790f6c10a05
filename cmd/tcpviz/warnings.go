package main

import (
	"tcpviz/analyze"
	"tcpviz/charts"
)

// warningsOf prefixes an analysis's warnings with the input's name.
func warningsOf(in input, ws []analyze.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = in.display() + ": " + charts.WarningText(w)
	}
	return out
}
