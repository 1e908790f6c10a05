package main

import (
	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

func summaryCommand(e *env) *cli.Command {
	return tableCommand(e, &cli.Command{
		Name:  "summary",
		Usage: "per-connection, per-direction statistics: counts of Wireshark's analysis flags, windows, RTT, throughput",
		Description: "One row per connection direction (c2s then s2c, in stream order). Counts equal tshark's\n" +
			"tcp.analysis.* flags; rtt_* use tcp.analysis.ack_rtt; an empty cell means not measurable.",
	}, charts.SummaryColumns, summaryOf)
}

// summaryOf analyses one capture. A connection's rows are made, and its
// analysis state dropped, when the tracker retires it.
func summaryOf(in input, e *env, sink func([][]string)) fileResult {
	a := analyze.New()
	return scanCapture(in, e, func(c *reassembly.Conn, s *reassembly.Segment) { a.Add(c, s) },
		func(c *reassembly.Conn) [][]string {
			st := a.Stats(c)
			a.Forget(c)
			return [][]string{charts.SummaryRow(in.name, &st[0]), charts.SummaryRow(in.name, &st[1])}
		}, sink)
}
