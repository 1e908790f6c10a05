package charts

import (
	"io"

	"tcpviz/analyze/join"
	"tcpviz/reassembly"
)

// JoinRow is one row of `tcpviz join`: one direction of one connection
// across one hop (the path between two consecutive captures).
type JoinRow struct {
	Hop  *join.Hop
	Conn *join.ConnHop
	Dir  reassembly.Direction // the hop's first capture's
}

func (r *JoinRow) dir() *join.DirHop { return &r.Conn.Dir[r.Dir] }

// HopName is hop h as the join's table, its warnings and errors name it:
// "up>down", the captures as named.
func HopName(h *join.Hop) string { return h.Up.Name + ">" + h.Down.Name }

type joinCol = Column[JoinRow]

// joinCount is a count of packets matched one by one, null on a split
// connection (its halves have no packet in common).
func joinCount(name, unit, doc string, f func(*join.DirHop) int64) joinCol {
	return joinCol{name, Int, unit, doc, func(r *JoinRow) Value { return IntV(f(r.dir())).Or(!r.Conn.Split) }}
}

// joinDelay is a column of milliseconds (three decimals: the captures'
// microseconds) of the direction's delays, null without a packet seen at
// both ends.
func joinDelay(name, doc string, f func(*join.DirHop) int64) joinCol {
	return joinCol{name, Float, "ms", doc, func(r *JoinRow) Value {
		d := r.dir()
		return FloatV(float64(f(d))/1e6, 3).Or(d.OWD.N > 0 && !r.Conn.Split)
	}}
}

// joinClock is a column of the hop's clock estimate, null without one.
func joinClock(name, unit, doc string, prec int, f func(*join.Clock) float64) joinCol {
	return joinCol{name, Float, unit, doc, func(r *JoinRow) Value {
		return FloatV(f(&r.Hop.Clock), prec).Or(r.Hop.ClockOK)
	}}
}

// JoinColumns are the columns of `tcpviz join`, in order.
var JoinColumns = Schema[JoinRow]{
	{"hop", String, "", "the two captures the row is between, in path order: FIRST>SECOND (the first is nearer the client of the busiest connection)", func(r *JoinRow) Value { return StrV(HopName(r.Hop)) }},
	{"stream", Int, "", "the connection's tcp.stream in the hop's first capture", func(r *JoinRow) Value { return IntV(int64(r.Conn.Up.Stream)) }},
	{"stream_downstream", Int, "", "its tcp.stream in the hop's second capture", func(r *JoinRow) Value { return IntV(int64(r.Conn.Down.Stream)) }},
	{"direction", String, "", "c2s or s2c, as in the hop's first capture", func(r *JoinRow) Value { return StrV(r.Dir.String()) }},
	{"src_addr", String, "", "address of this direction's sender, in the hop's first capture", func(r *JoinRow) Value { return AddrV(r.Conn.Up.Ends(r.Dir)[0].Addr()) }},
	{"src_port", Int, "", "its port", func(r *JoinRow) Value { return IntV(int64(r.Conn.Up.Ends(r.Dir)[0].Port())) }},
	{"dst_addr", String, "", "address of this direction's receiver, in the hop's first capture", func(r *JoinRow) Value { return AddrV(r.Conn.Up.Ends(r.Dir)[1].Addr()) }},
	{"dst_port", Int, "", "its port", func(r *JoinRow) Value { return IntV(int64(r.Conn.Up.Ends(r.Dir)[1].Port())) }},
	{"upstream", String, "", "the capture where this direction enters the hop (its packets are sent past it first)", func(r *JoinRow) Value {
		if r.dir().Forward {
			return StrV(r.Hop.Up.Name)
		}
		return StrV(r.Hop.Down.Name)
	}},
	joinCount("sent_packets", "packets", "packets seen entering the hop that could have reached its other end while that capture ran (capture duplicates left out)", func(d *join.DirHop) int64 { return d.Sent }),
	joinCount("matched_packets", "packets", "packets seen at both ends of the hop", func(d *join.DirHop) int64 { return d.Matched }),
	joinCount("lost_between_packets", "packets", "data segments (payload) seen entering the hop and never leaving it: lost between the captures", func(d *join.DirHop) int64 { return d.LostData }),
	joinCount("lost_between_acks", "packets", "packets without payload (pure ACKs) lost between the captures", func(d *join.DirHop) int64 { return d.LostAcks }),
	joinCount("reordered_between_packets", "packets", "packets that left the hop after one that entered it later (RFC 4737), among this direction's packets", func(d *join.DirHop) int64 { return d.Reordered }),
	joinCount("duplicated_between_packets", "packets", "extra copies of a packet the hop delivered (not capture duplicates)", func(d *join.DirHop) int64 { return d.Duplicated }),
	joinCount("unmatched_downstream_packets", "packets", "packets seen leaving the hop that were never seen entering it (the upstream capture missed them)", func(d *join.DirHop) int64 { return d.Extra }),
	joinDelay("owd_min_ms", "smallest one-way delay across the hop (the clock offset removed; never negative)", func(d *join.DirHop) int64 { return d.OWD.Min }),
	joinDelay("owd_median_ms", "median one-way delay across the hop", func(d *join.DirHop) int64 { return d.OWD.Median }),
	joinDelay("owd_p95_ms", "95th percentile of the one-way delay", func(d *join.DirHop) int64 { return d.OWD.P95 }),
	joinDelay("owd_max_ms", "largest one-way delay", func(d *join.DirHop) int64 { return d.OWD.Max }),
	joinDelay("queue_delay_median_ms", "median queueing delay: the one-way delay above the fixed delay of the frame's size (the minimum, serialisation included)", func(d *join.DirHop) int64 { return d.Queue.Median }),
	joinDelay("queue_delay_p95_ms", "95th percentile of the queueing delay", func(d *join.DirHop) int64 { return d.Queue.P95 }),
	joinClock("clock_offset_ms", "ms", "the hop's second capture's clock minus its first's, at the middle of the packets seen at both (minimum-delay envelopes both ways, assuming equal fixed delays both ways)", 3, func(c *join.Clock) float64 { return c.Offset / 1e6 }),
	joinClock("clock_offset_error_ms", "ms", "how well the fastest packets pin the offset down (half their spread each way, plus the timestamps' resolution); path asymmetry is not in it: see clock_offset_bound_ms", 3, func(c *join.Clock) float64 { return c.Err / 1e6 }),
	joinClock("clock_offset_bound_ms", "ms", "half the round trip between the two capture points: how far a path slower one way than the other can move the true offset", 3, func(c *join.Clock) float64 { return c.Bound / 1e6 }),
	joinClock("clock_drift_ppm", "ppm", "how fast the offset grows (the clocks' relative skew), 0 when the two directions do not show the same", 3, func(c *join.Clock) float64 { return c.Drift * 1e6 }),
	{"split", Bool, "", "a proxy terminates TCP between the captures: the row's stream and stream_downstream are the two halves (joined by the server's port and start time; the counts and delays of packets matched one by one are then null)", func(r *JoinRow) Value { return BoolV(r.Conn.Split) }},
	{"proxy_buffer_max_bytes", Int, "B", "with split: the most bytes the proxy held in this direction (acknowledged to the sender, not yet acknowledged beyond it); null otherwise", func(r *JoinRow) Value { return IntV(r.dir().ProxyBufferMax).Or(r.Conn.Split) }},
}

// WriteJoin writes the rows of a join in format f: hop by hop (a Parquet
// row group each), connection by connection, c2s then s2c.
func WriteJoin(w io.Writer, f TableFormat, res *join.Result, fields []string) error {
	rw, err := NewFieldsWriter(w, f, JoinColumns.Docs(), fields)
	if err != nil {
		return err
	}
	var row []Value
	for _, h := range res.Hops {
		for _, ch := range h.Conns {
			for d := range ch.Dir {
				r := JoinRow{Hop: h, Conn: ch, Dir: reassembly.Direction(d)}
				row = JoinColumns.AppendRow(row[:0], &r)
				if err := rw.WriteRow(row); err != nil {
					return err
				}
			}
		}
		if err := rw.EndGroup(); err != nil {
			return err
		}
	}
	return rw.Close()
}

// JoinWarnings are what a join says of its hops: one a proxy splits
// every connection of, or whose clocks could not be lined up.
func JoinWarnings(res *join.Result) []string {
	var out []string
	for _, h := range res.Hops {
		split := 0
		for _, ch := range h.Conns {
			if ch.Split {
				split++
			}
		}
		switch {
		case split == len(h.Conns):
			out = append(out, EscapeName(HopName(h))+": a proxy splits every connection between the captures: no packet is in both to line the clocks up by (their times are compared as they are)")
		case !h.ClockOK:
			out = append(out, EscapeName(HopName(h))+": no packet seen at both captures in both directions: the clocks are not lined up (delays are the raw differences)")
		}
	}
	return out
}
