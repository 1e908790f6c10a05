package charts

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"tcpviz/analyze"
	"tcpviz/internal/words"
)

// Empty is the warning of a table whose capture held packets but none of
// the rows it lists ("no TCP connection in the capture"), "" when it held
// some or none at all.
func (t TableKind[R]) Empty(out *analyze.RunResult) string {
	if out.Streams+out.Flows > 0 || out.Packets == 0 {
		return ""
	}
	if t.Flow != nil {
		return "no IP flow in the capture"
	}
	return "no TCP connection in the capture"
}

// CompareTitle names the inputs compare overlays in its graph's title:
// their labels, "a vs b".
func CompareTitle(cmp []analyze.CompareInput) string {
	labels := make([]string, len(cmp))
	for i, ci := range cmp {
		labels[i] = ci.Label
	}
	return strings.Join(labels, " vs ")
}

// CompareSeries names compare's inputs in its graph's legend, its series
// and its table's label column: the labels given (--label: one per input,
// in order, each its own: one name, one colour, a hash of it, one
// --hide), else the inputs' own names (names: their file names with
// their #N; paths: each one's path as given, "" for joined captures)
// made distinct (compareLabels). A folder is an input per capture in it:
// the labels name those, as the legend does.
func CompareSeries(given, names, paths []string) ([]string, error) {
	if n := len(given); n > 0 && n != len(names) {
		return nil, fmt.Errorf("--label: %s for %s (want one per input, in order)", words.Plural(int64(n), "label"), words.Plural(int64(len(names)), "input"))
	}
	if len(given) == 0 {
		series := slices.Clone(names)
		compareLabels(series, paths)
		return series, nil
	}
	for i, l := range given {
		if slices.Contains(given[:i], l) {
			return nil, fmt.Errorf("--label %q names two inputs: give each its own", l)
		}
	}
	return slices.Clone(given), nil
}

// compareLabels makes the legend names of compare's inputs, labels (the
// file names, with their #N), distinct, so that each has its own legend
// entry, colour and series: inputs whose file names are alike
// (pep/run.pcap, nopep/run.pcap) are named by their paths as given
// (paths, one a label; "" or none for joined captures, named by their
// file names alone); one input named again (G#1 G#1) by its count,
// "G#1 (2)".
func compareLabels(labels, paths []string) {
	count := map[string]int{}
	for _, l := range labels {
		count[l]++
	}
	for i, l := range labels {
		if i >= len(paths) {
			break
		}
		if base := filepath.Base(paths[i]); paths[i] != "" && count[l] > 1 && strings.HasPrefix(l, base) {
			labels[i] = filepath.Clean(paths[i]) + strings.TrimPrefix(l, base)
		}
	}
	seen := map[string]int{}
	for i, l := range labels {
		if seen[l]++; seen[l] > 1 {
			labels[i] = fmt.Sprintf("%s (%d)", l, seen[l])
		}
	}
}

// CompareNothing is the error of a compare whose graph g has nothing to
// draw of its inputs, nil when it has points: nothing in the time window
// asked for (window), or nothing of the graph at all (one none of them
// has: lost datagrams of TCP connections, RTTs of UDP flows).
func CompareNothing(g *analyze.Graph, cmp []analyze.CompareInput, graph string, window analyze.Range) error {
	if pointCount(g) > 0 {
		return nil
	}
	names := make([]string, len(cmp))
	for i, ci := range cmp {
		names[i] = EscapeName(ci.Input)
	}
	if window.HasMin || window.HasMax {
		return fmt.Errorf("compare: nothing to draw of %s in the window asked for", strings.Join(names, ", "))
	}
	return fmt.Errorf("compare --graph %s: nothing to draw of %s (loss is an iperf3 UDP flow's; rtt, window and cwnd a TCP connection's)", graph, strings.Join(names, ", "))
}
