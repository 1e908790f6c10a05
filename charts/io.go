package charts

import (
	"fmt"
	"io"

	"math"

	"tcpviz/analyze"
	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// IORow is one row of `tcpviz io`: one flow (or the sum of the others)
// in one interval.
type IORow struct {
	File string
	IO   *analyze.IOResult
	Bin  *analyze.IOBin
	Flow int // index in IO.Flows
}

func (r *IORow) flow() *analyze.IOFlow { return &r.IO.Flows[r.Flow] }

// IOColumns are the columns of `tcpviz io`, in order: one row per
// interval and flow, long form (DuckDB pivots it).
var IOColumns = Schema[IORow]{
	{"file", String, "", "the capture, as named on the command line (- for standard input)", func(r *IORow) Value { return StrV(r.File) }},
	{"interval_start_s", Float, "s", "start of the interval, from the capture's first packet", func(r *IORow) Value { return SecondsV(r.Bin.Start) }},
	{"interval_s", Float, "s", "the interval's width (--interval)", func(r *IORow) Value { return SecondsV(r.IO.Interval) }},
	{"flow", String, "", "the flow: transport, number (tcp.stream, udp.stream), sender of its first packet → the other side; other (N flows) for the sum of those not among the --top", func(r *IORow) Value { return StrV(ioLabel(r.flow())) }},
	{"proto", String, "", "its transport: tcp, udp, icmp, ... (empty for other)", func(r *IORow) Value { return StrV(reassembly.ProtoName(r.flow().Proto)).Or(!r.flow().Other) }},
	{"stream", Int, "", "its number within its transport: tcp.stream, udp.stream (empty for other)", func(r *IORow) Value { return IntV(int64(r.flow().Index)).Or(!r.flow().Other) }},
	{"packets", Int, "packets", "packets of the flow in the interval, both ways", func(r *IORow) Value { return IntV(r.Bin.Packets[r.Flow]) }},
	{"payload_bytes", Int, "B", "transport payload in the interval, both ways, retransmissions included (what passed the capture point)", func(r *IORow) Value { return IntV(r.Bin.Bytes[r.Flow]) }},
	{"throughput_bps", Float, "bit/s", "payload_bytes × 8 / interval_s", func(r *IORow) Value {
		return FloatV(float64(r.Bin.Bytes[r.Flow])*8/(float64(r.IO.Interval)/1e9), -1)
	}},
	{"share", Float, "", "the flow's part of the interval's payload (0 to 1; empty when nothing passed)", func(r *IORow) Value {
		var all int64
		for _, b := range r.Bin.Bytes {
			all += b
		}
		return FloatV(float64(r.Bin.Bytes[r.Flow])/float64(all), 4).Or(all > 0)
	}},
	{"active_flows", Int, "", "flows that carried at least 1% of the interval's payload (all of them, not only the --top): those sharing it", func(r *IORow) Value { return IntV(int64(r.Bin.Active)) }},
	{"jain_index", Float, "", "Jain's fairness index of the active flows' payload in the interval, (Σx)²/(n·Σx²): 1 when they shared equally, 1/n when one took all (empty when none was active)", func(r *IORow) Value {
		return FloatV(r.Bin.Jain, 4).Or(!math.IsNaN(r.Bin.Jain))
	}},
}

// WriteIO writes the I/O tables of captures in format f: of each result
// (nil: none, its capture failed), interval by interval, a row per flow;
// files name the captures.
func WriteIO(w io.Writer, f TableFormat, files []string, results []*analyze.IOResult, fields []string) error {
	rw, err := NewFieldsWriter(w, f, IOColumns.Docs(), fields)
	if err != nil {
		return err
	}
	for i, r := range results {
		if r == nil {
			continue
		}
		for b := range r.Bins {
			for j := range r.Flows {
				if err := rw.WriteRow(IOColumns.Row(&IORow{File: files[i], IO: r, Bin: &r.Bins[b], Flow: j})); err != nil {
					return err
				}
			}
		}
	}
	return rw.Close()
}

// IO graph kinds.
const (
	IOStacked  = "stacked"  // each flow's throughput stacked on the ones before
	IOLines    = "lines"    // one line per flow
	IOFairness = "fairness" // Jain's index over time
)

// IOGraph draws an I/O table: the throughput of each flow per interval
// (stacked: each line the total of it and the flows before it, the top
// line the capture's), or Jain's fairness index over time.
func IOGraph(io *analyze.IOResult, kind string) *analyze.Graph {
	g := &analyze.Graph{Kind: "io", Stream: -1, XCol: -1, YCol: 0, TimeOrigin: io.Origin,
		X: analyze.Axis{Label: "time since the capture's first packet", Unit: "s", Time: true}}
	secs := float64(io.Interval) / 1e9
	// Steps from each bin's start; a last point closes the last bin.
	at := func(b *analyze.IOBin) int64 { return io.Origin + b.Start }
	closing := func(ps []analyze.Point) []analyze.Point {
		if n := len(ps); n > 0 {
			p := ps[n-1]
			p.Time += io.Interval
			ps = append(ps, p)
		}
		return ps
	}
	if kind == IOFairness {
		g.Title = "Fairness: Jain's index of the flows sharing each interval (1% of its payload or more)"
		g.Y = analyze.Axis{Label: "Jain's fairness index"}
		g.Columns = []string{"jain_index", "active_flows"}
		s := analyze.Series{Name: "Jain's fairness index", Kind: analyze.Steps}
		for i := range io.Bins {
			b := &io.Bins[i]
			if !math.IsNaN(b.Jain) {
				s.Points = append(s.Points, analyze.Point{Time: at(b), V: [3]float64{b.Jain, float64(b.Active)}})
			}
		}
		s.Points = closing(s.Points)
		g.Series = []analyze.Series{s}
		return g
	}
	g.Title = "I/O: throughput of every flow"
	if kind == IOStacked {
		g.Title = "I/O: throughput of every flow, stacked"
	}
	g.Y = analyze.Axis{Label: "throughput (payload)", Unit: "bit/s"}
	g.Columns = []string{"throughput_bps", "packets"}
	g.Series = make([]analyze.Series, len(io.Flows))
	for j := range io.Flows {
		g.Series[j] = analyze.Series{Name: ioLabel(&io.Flows[j]), Kind: analyze.Steps}
	}
	for i := range io.Bins {
		b := &io.Bins[i]
		var below float64
		for j := range io.Flows {
			v := float64(b.Bytes[j]) * 8 / secs
			if kind == IOStacked {
				v += below
				below = v
			}
			g.Series[j].Points = append(g.Series[j].Points, analyze.Point{Time: at(b), V: [3]float64{v, float64(b.Packets[j])}})
		}
	}
	for j := range g.Series {
		g.Series[j].Points = closing(g.Series[j].Points)
	}
	return g
}

// ioLabel names flow f in a legend and in the table: "tcp 3
// 10.0.0.1:40000 → 10.0.0.2:80", "other (12 flows)".
func ioLabel(f *analyze.IOFlow) string {
	if f.Other {
		return fmt.Sprintf("other (%s)", words.Plural(int64(f.Flows), "flow"))
	}
	return fmt.Sprintf("%s %d %s → %s", reassembly.ProtoName(f.Proto), f.Index, f.Src, f.Dst)
}
