package main

import (
	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
)

// fixedName is a graphSpec name that does not depend on flags.
func fixedName(n string) func(*cli.Context) string {
	return func(*cli.Context) string { return n }
}

// tputCommand is `tcpviz tput`.
func tputCommand(e *env) *cli.Command {
	spec := &graphSpec{
		name: fixedName("tput"),
		check: func(c *cli.Context) error {
			if c.IsSet("segments") && c.IsSet("window") {
				return usagef("--window and --segments exclude each other")
			}
			if c.IsSet("segments") && c.Int("segments") < 2 {
				return usagef("--segments: want 2 or more")
			}
			if c.Duration("window") <= 0 {
				return usagef("--window: want a positive duration such as 1s or 200ms")
			}
			return nil
		},
		build: func(c *cli.Context, recs []analyze.Record, o analyze.SeriesOptions) (*analyze.Graph, error) {
			t := analyze.ThroughputOptions{Window: c.Duration("window").Nanoseconds()}
			if c.IsSet("segments") {
				t.Segments = c.Int("segments")
			}
			return analyze.Throughput(recs, o, t), nil
		},
	}
	return graphCommand(e, "tput", "throughput and goodput over time, in bit/s", spec,
		&cli.DurationFlag{Name: "window", Value: 1e9, Usage: "moving-average window (like Wireshark)"},
		&cli.IntFlag{Name: "segments", Usage: "average over the last N segments instead (like tcptrace)"})
}

// rttCommand is `tcpviz rtt`.
func rttCommand(e *env) *cli.Command {
	spec := &graphSpec{
		name: fixedName("rtt"),
		check: func(c *cli.Context) error {
			if b := c.String("by"); b != "time" && b != "seq" {
				return usagef("--by %q: want time or seq", b)
			}
			if _, err := analyze.ParseRTTSampling(c.String("sampling")); err != nil {
				return usagef("--sampling: %s", err)
			}
			return nil
		},
		build: func(c *cli.Context, recs []analyze.Record, o analyze.SeriesOptions) (*analyze.Graph, error) {
			s, _ := analyze.ParseRTTSampling(c.String("sampling"))
			return analyze.RTT(recs, o, analyze.RTTOptions{Sampling: s, BySeq: c.String("by") == "seq"}), nil
		},
	}
	return graphCommand(e, "rtt", "round-trip time samples over time or sequence number, in ms", spec,
		&cli.StringFlag{Name: "by", Value: "time", Usage: "x axis: time (the segment's send time) or seq"},
		&cli.StringFlag{Name: "sampling", Value: "ack",
			Usage: "ack (Wireshark's ack_rtt), karn (only segments never retransmitted) or timestamps (TSval/TSecr echo)"})
}

// windowCommand is `tcpviz window`.
func windowCommand(e *env) *cli.Command {
	spec := &graphSpec{
		name: fixedName("window"),
		build: func(_ *cli.Context, recs []analyze.Record, o analyze.SeriesOptions) (*analyze.Graph, error) {
			return analyze.Window(recs, o), nil
		},
	}
	return graphCommand(e, "window", "bytes in flight against the advertised receive window", spec)
}
