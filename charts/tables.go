package charts

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// TableKind is one of the tables the table commands print (streams,
// summary, packets, flows): its columns, the few a terminal shows, how
// the analysis's results become its rows, and the fast paths its writers
// take (Writer).
type TableKind[R any] struct {
	// Command is the tcpviz command that writes it, Help says what it
	// lists (--help, the man page, completion) and Description how
	// (the command's --help), as a graph's GraphSpec says them.
	Command, Help, Description string
	Schema                     Schema[R]
	// Terminal, if set, are the columns a text table shows when none are
	// named (a table too wide to read otherwise).
	Terminal []string
	// File is the capture a row is of (its param_ columns).
	File func(*R) string
	// Analyze: the rows need the per-packet analysis.
	Analyze bool
	// One of Conn (rows of a TCP connection, as connections retire),
	// Flow (rows of a flow of any transport) and Segment (a row per TCP
	// segment, in capture order, into row; start is the capture's first
	// segment's time) makes the rows.
	Conn    func(file string, cr *analyze.ConnResult, add func(*R))
	Flow    func(file string, fr *analyze.FlowResult, add func(*R))
	Segment func(row *R, file string, start int64, c *reassembly.Conn, rec *analyze.Record)
	// Hold, if set, stands between Segment's rows and their writing (a
	// verdict known later: PacketHold); flush passes on the rest.
	Hold func(emit func(*R)) (add func(*R), flush func())

	// csvRow, if set, makes how rows are streamed as CSV (else
	// Schema.WriteCSV); cells, if set, writes a row of every column to
	// the formats that take cells (CSV, Parquet) without making its
	// Values; csvRow comes first for CSV. Both write Schema as declared.
	csvRow func(cw *CSVWriter) func(*R) error
	cells  func(c Cells, r *R) error

	// filter, if set, keeps the connections and flows it matches (Only);
	// matched counts them, over every input read.
	filter  reassembly.Filter
	matched *atomic.Int64
}

// Only is t keeping only the connections and flows f matches, of those
// it kept, and counting them (Matched).
func (t TableKind[R]) Only(f reassembly.Filter) TableKind[R] {
	if t.filter != nil {
		f = bothFilter{f, t.filter}
	}
	t.filter = f
	if t.matched == nil {
		t.matched = new(atomic.Int64)
	}
	return t
}

// Matched counts the connections and flows the filters (Only) kept,
// over every input read; nil without one.
func (t TableKind[R]) Matched() *atomic.Int64 { return t.matched }

// bothFilter keeps what both its filters keep.
type bothFilter struct{ a, b reassembly.Filter }

func (f bothFilter) Match(v *reassembly.FlowView) bool { return f.a.Match(v) && f.b.Match(v) }

// StreamsTable is streams: a row per TCP connection.
var StreamsTable = TableKind[StreamRow]{
	Command: "streams",
	Help:    "list TCP connections: endpoints, start, duration, packets and bytes each way, state",
	Schema:  StreamsColumns,
	File:    func(r *StreamRow) string { return r.File },
	Conn: func(file string, cr *analyze.ConnResult, add func(*StreamRow)) {
		add(&StreamRow{File: file, Info: cr.Info})
	},
}

// SummaryTable is summary: a row per connection direction.
var SummaryTable = TableKind[SummaryRow]{
	Command: "summary",
	Help:    "per-connection, per-direction statistics: counts of Wireshark's analysis flags, windows, RTT, throughput",
	Description: "One row per connection direction (c2s then s2c, in stream order). Counts equal tshark's\n" +
		"tcp.analysis.* flags; rtt_* use tcp.analysis.ack_rtt; an empty cell means not measurable.\n" +
		"--columns lists every column with its unit and meaning.",
	Analyze:  true,
	Schema:   SummaryColumns,
	File:     func(r *SummaryRow) string { return r.File },
	Terminal: SummaryReadable,
	csvRow: func(cw *CSVWriter) func(*SummaryRow) error {
		m := newSummaryMemo()
		return func(r *SummaryRow) error { return m.WriteCSV(cw, SummaryColumns, r) }
	},
	Conn: func(file string, cr *analyze.ConnResult, add func(*SummaryRow)) {
		for d := range cr.Stats {
			add(&SummaryRow{File: file, Stats: &cr.Stats[d]})
		}
	},
}

// PacketsTable is packets: a row per TCP segment, with its analysis.
var PacketsTable = TableKind[PacketRow]{
	Command: "packets",
	Help:    "one row per TCP packet with its analysis: Wireshark's tcp.analysis flags, bytes in flight, ack RTT, the path's verdict",
	Description: "The per-packet analysis summary counts, as tshark -T fields -e tcp.analysis.* gives it, streamed\n" +
		"in capture order (memory follows the live connections). The flags equal tshark's frame by frame.\n" +
		"Several inputs are read one after the other (-j does not apply), their rows in input order.\n" +
		"--fields picks columns; --columns lists them with their meaning.",
	Analyze: true,
	Schema:  PacketsColumns,
	File:    func(r *PacketRow) string { return r.File },
	Segment: func(row *PacketRow, file string, start int64, c *reassembly.Conn, rec *analyze.Record) {
		row.File, row.Stream, row.Start = file, c.Stream, start
		row.setRec(rec)
		row.Proved = rec.Info.Proved
	},
	Hold: func(emit func(*PacketRow)) (func(*PacketRow), func()) {
		h := newPacketHold(emit)
		return h.Add, h.Flush
	},
	cells: packetCells,
}

// FlowsTable is flows: a row per flow of any transport.
var FlowsTable = TableKind[FlowRow]{
	Command: "flows",
	Help:    "list flows of every transport: TCP as streams, UDP by 5-tuple (iperf3 UDP: loss, reordering, jitter as iperf3 reports them)",
	Description: "One row per flow, in order of first packet. flow is tcp.stream for TCP and udp.stream for UDP,\n" +
		"as Wireshark numbers them; src is the side that sent the first packet; bytes are transport payload.\n" +
		"Fragmented UDP datagrams are reassembled. Flows recognised as iperf3 UDP tests get the app_* columns,\n" +
		"computed as iperf3's receiver does (from a receiver-side capture they match its report).\n" +
		"--columns lists every column with its unit and meaning.",
	Schema: FlowsColumns,
	File:   func(r *FlowRow) string { return r.File },
	Flow: func(file string, fr *analyze.FlowResult, add func(*FlowRow)) {
		add(&FlowRow{File: file, Flow: fr})
	},
}

// Scan reads a capture and hands its rows to add (the capture named
// file in them), in stream order as connections retire, or in capture
// order for a row per segment: memory follows the live connections, not
// the capture. Only the connections and flows t's filter matches are
// kept (Only; a connection's segments judged on its endpoints, both
// ways: they stream out before all are seen). The error is the damage
// that stopped the read; the rows read before it were given.
func (t TableKind[R]) Scan(r *reassembly.Reader, file string, add func(*R)) (*analyze.RunResult, error) {
	o := analyze.RunOptions{Analyze: t.Analyze, Keep: -1}
	// keep says whether the filter keeps a flow, counting those it keeps.
	var keep func(*reassembly.FlowView) bool
	if t.filter != nil {
		keep = func(v *reassembly.FlowView) bool {
			if !t.filter.Match(v) {
				return false
			}
			t.matched.Add(1)
			return true
		}
	}
	kept := func(v reassembly.FlowView) bool { return keep == nil || keep(&v) }
	switch {
	case t.Segment != nil:
		o.Analyze = true
		if t.Hold != nil {
			var flush func()
			add, flush = t.Hold(add)
			defer flush() // after Run: what was read before a failure too
		}
		var start int64
		started := false // the first segment seen (its time may be 0)
		var row R
		live := map[int]bool{} // kept, by stream, while the connection lives
		o.OnSegment = func(c *reassembly.Conn, seg *reassembly.Segment, rec *analyze.Record) {
			if !started {
				start, started = seg.Time, true
			}
			if keep != nil {
				k, ok := live[c.Stream]
				if !ok {
					k = kept(reassembly.FlowView{A: c.Client, B: c.Server, Sent: [2]bool{true, true}, Proto: "tcp", Stream: c.Stream})
					live[c.Stream] = k
				}
				if !k {
					return
				}
			}
			t.Segment(&row, file, start, c, rec)
			add(&row)
		}
		if keep != nil {
			o.OnConn = func(cr *analyze.ConnResult) { delete(live, cr.Info.Stream) }
		}
	case t.Flow != nil:
		o.OnFlow = func(fr *analyze.FlowResult) {
			if kept(fr.View()) {
				t.Flow(file, fr, add)
			}
		}
	default:
		o.OnConn = func(cr *analyze.ConnResult) {
			if kept(reassembly.FlowView{A: cr.Info.Client, B: cr.Info.Server, Sent: [2]bool{cr.Info.Packets[0] > 0, cr.Info.Packets[1] > 0}, Proto: "tcp", Stream: cr.Info.Stream}) {
				t.Conn(file, cr, add)
			}
		}
	}
	return analyze.Run(r, o)
}

// readable are the columns a text table shows when none are named: the
// Terminal ones, then the capture's parameters (param_); nil when it
// shows every column.
func (t TableKind[R]) readable() []string {
	if t.Terminal == nil {
		return nil
	}
	out := slices.Clone(t.Terminal)
	for _, c := range t.Schema {
		if strings.HasPrefix(c.Name, "param_") {
			out = append(out, c.Name)
		}
	}
	return out
}

// WithColumns is t with the columns more after its own (the table's
// fast paths, which write its own columns, off when there are any).
func (t TableKind[R]) WithColumns(more Schema[R]) TableKind[R] {
	t.Schema = append(t.Schema[:len(t.Schema):len(t.Schema)], more...)
	if len(more) > 0 {
		t.csvRow, t.cells = nil, nil
	}
	return t
}

// Fields is t with the columns names picks (--fields): every column for
// none or "all", but for a text table on a terminal (text) the readable
// ones when none are named (shortened then says so); else those named,
// in their order (Schema.Select), and no fast path.
func (t TableKind[R]) Fields(names []string, text bool) (sel TableKind[R], shortened bool, err error) {
	switch {
	case len(names) == 1 && names[0] == "all":
		return t, false, nil
	case len(names) == 0 && t.Terminal != nil && text:
		names, shortened = t.readable(), true
	}
	if len(names) == 0 {
		return t, false, nil
	}
	sel, err = t.selectColumns(names)
	return sel, shortened, err
}

// selectColumns is t with only the columns names picks, in their order
// (Schema.Select), and no fast path.
func (t TableKind[R]) selectColumns(names []string) (TableKind[R], error) {
	s, err := t.Schema.Select(names)
	if err != nil {
		return t, err
	}
	t.Schema, t.csvRow, t.cells = s, nil, nil
	return t, nil
}

// Writer is how a row of t is written to rw (NewRowWriter's, of t's
// columns): CSV straight from the record, Parquet through its cells
// where the table has such a path, else as Values.
func (t TableKind[R]) Writer(rw RowWriter) func(*R) error {
	var row []Value
	write := func(r *R) error {
		row = t.Schema.AppendRow(row[:0], r)
		return rw.WriteRow(row)
	}
	if c, ok := rw.(cellRows); ok && t.cells != nil {
		cells := c.Cells()
		write = func(r *R) error { return t.cells(cells, r) }
	}
	if c, ok := rw.(csvRowWriter); ok {
		switch {
		case t.csvRow != nil:
			write = t.csvRow(c.CSV())
		case t.cells == nil:
			write = func(r *R) error { return t.Schema.WriteCSV(c.CSV(), r) }
		}
	}
	return write
}

// TableTarget is where a table is written: Output names a file ("" or
// "-": standard output), Dir a folder of Parquet partitions, one per
// input; Terminal says standard output is a terminal.
type TableTarget struct {
	Output, Dir string
	Terminal    bool
}

// Format is the table's format: asked (--format) when given, else
// Output's extension, else Parquet for Dir, else a text table on a
// terminal and CSV otherwise. Parquet is binary: never to a terminal,
// and Dir takes only Parquet. An error is the user's (a usage error).
func (t TableTarget) Format(asked TableFormat) (TableFormat, error) {
	format := asked
	toStdout := t.Output == "" || t.Output == "-"
	if format == "" && !toStdout {
		ext := filepath.Ext(t.Output)
		var ok bool
		if format, ok = tableFormatOf(ext); !ok {
			return "", fmt.Errorf("-o %s: unknown table format %q (want .csv .json .ndjson .txt .parquet, or --format)", EscapeName(t.Output), ext)
		}
	}
	if format == "" && t.Dir != "" {
		format = ParquetFormat
	}
	switch {
	case t.Dir != "" && format != ParquetFormat:
		return "", fmt.Errorf("--out-dir writes Parquet partitions: use --format parquet (or -o FILE for one %s file)", format)
	case format == ParquetFormat && toStdout && t.Dir == "" && t.Terminal:
		return "", errors.New("--format parquet is binary: name -o FILE.parquet or --out-dir DIR, or redirect standard output")
	case format == "" && t.Terminal && toStdout:
		format = TextTable
	case format == "":
		format = CSV
	}
	return format, nil
}

// FigureOrTable is what -o asks of a command (cmd) whose output is one
// table or one figure (sweep, io): a figure for .png .svg .pdf (figure
// set), else the table's Format (asked: --format). Dir is refused: the
// output is one. An error is the user's (a usage error).
func (t TableTarget) FigureOrTable(cmd string, asked TableFormat) (figure GraphFormat, format TableFormat, err error) {
	if t.Dir != "" {
		return "", "", fmt.Errorf("%s: --out-dir: the output is one table or one figure; name it with -o", cmd)
	}
	if fig := FigureOf(t.Output); fig != "" {
		return fig, CSV, nil
	}
	format, err = t.Format(asked)
	if err != nil && asked == "" && t.Output != "" && t.Output != "-" {
		// Only the extension can be wrong: a figure's is one too.
		return "", "", fmt.Errorf("-o %s: unknown format %q (want .png .svg .pdf for the figure, .csv .json .ndjson .txt .parquet for the table, or --format)",
			EscapeName(t.Output), filepath.Ext(t.Output))
	}
	return "", format, err
}

// tableFormatOf is the table format a file name's extension says (.csv
// .json .ndjson .jsonl .txt .parquet, in any case); false for another
// extension, "" for none.
func tableFormatOf(ext string) (TableFormat, bool) {
	switch strings.ToLower(ext) {
	case ".csv":
		return CSV, true
	case ".json":
		return JSON, true
	case ".ndjson", ".jsonl":
		return NDJSON, true
	case ".txt":
		return TextTable, true
	case ".parquet":
		return ParquetFormat, true
	case "":
		return "", true
	}
	return "", false
}
