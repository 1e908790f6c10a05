package main

import (
	"github.com/urfave/cli/v2"

	"tcpviz/charts"
)

func flowsCommand(e *env) *cli.Command {
	return tableCommand(e, &cli.Command{
		Name:  "flows",
		Usage: "list flows of every transport: TCP as streams, UDP by 5-tuple (iperf3 UDP: loss, reordering, jitter as iperf3 reports them)",
		Description: "One row per flow, in order of first packet. flow is tcp.stream for TCP and udp.stream for UDP,\n" +
			"as Wireshark numbers them; src is the side that sent the first packet; bytes are transport payload.\n" +
			"Fragmented UDP datagrams are reassembled. Flows recognised as iperf3 UDP tests get the app_* columns,\n" +
			"computed as iperf3's receiver does (from a receiver-side capture they match its report).\n" +
			"--columns lists every column with its unit and meaning.",
	}, charts.FlowsTable)
}
