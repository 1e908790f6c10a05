package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"tcpviz/charts"
	"tcpviz/reassembly"
)

func streamsCommand(e *env) *cli.Command {
	return tableCommand(e, &cli.Command{
		Name:  "streams",
		Usage: "list TCP connections: endpoints, start, duration, packets and bytes each way, state",
	}, charts.StreamsColumns, streamsOf)
}

// streamsOf lists the connections of one capture.
func streamsOf(in input, e *env, sink func([][]string)) fileResult {
	return scanCapture(in, e, nil, func(c *reassembly.Conn) [][]string {
		return [][]string{charts.StreamRow(in.name, c)}
	}, sink)
}

// scanWarnings condenses a scan's per-packet problems into at most two
// lines.
func scanWarnings(in input, sc *reassembly.Scanner) []string {
	var out []string
	st := sc.Stats()
	ws, more := sc.Warnings()
	if n := st.Malformed; n > 0 {
		first := ""
		for _, w := range ws {
			first = w.Error()
			break
		}
		out = append(out, fmt.Sprintf("%s: %s could not be decoded and skipped (first: %s)", in.name, plural(n, "packet"), first))
	}
	if n := st.UnknownLink; n > 0 {
		out = append(out, fmt.Sprintf("%s: packet %d: unsupported link type; %s skipped", in.name, st.FirstUnknown, plural(n, "packet")))
	}
	if more > 0 && len(out) == 0 {
		out = append(out, fmt.Sprintf("%s: %s of other problems", in.name, plural(more, "packet")))
	}
	return out
}

// plural formats a count with a noun: "1 packet", "2 packets".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
