package main

import (
	"strings"
	"testing"

	"tcpviz/analyze"
)

// TestGraphParamsFromRegistry: each graph command takes the parameter
// flags its registry entry names, one flag or more each, and no others.
func TestGraphParamsFromRegistry(t *testing.T) {
	want := map[string][]string{"seq": {"style"}, "tput": {"window", "segments", "bins"}, "rtt": {"by", "sampling"}, "window": nil, "cwnd": nil}
	for _, g := range analyze.Graphs("") {
		if g.Help == "" {
			continue // the command's other graphs
		}
		var names []string
		for _, fl := range (&graphParamFlags{command: g.Command}).flags() {
			names = append(names, fl.Names()[0])
		}
		if strings.Join(names, ",") != strings.Join(want[g.Command], ",") {
			t.Errorf("%s: parameter flags %v, want %v", g.Command, names, want[g.Command])
		}
	}
}
