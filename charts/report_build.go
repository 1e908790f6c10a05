package charts

import (
	"container/heap"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"tcpviz/analyze"
	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// What a report holds, and how many connections it draws: the page
// draws the main connection and the reportConns busiest; reportMoreConns
// more get their graphs in scripts beside it (conns/conn-N.js, loaded
// when opened). Together they stay within analyze's budget of packets
// drawn beside the main connection (524,288).
const (
	reportConns     = 10
	reportMoreConns = 200
	// reportTableConns is how many connections the page's table shows,
	// the busiest (both directions of each): the page of a capture of a
	// million connections stays a few MB; summary.csv and streams.csv
	// hold them all.
	reportTableConns = 2000
	// reportPointsOver: a main connection of more packets has its graphs
	// thinned like the others' and no points CSV (every point of it would
	// be held in memory; a graph command writes them, holding nothing).
	reportPointsOver = 1 << 20
)

// ReportOptions are what a report is made with besides the capture.
type ReportOptions struct {
	// File is the capture as its summary.csv and streams.csv rows name
	// it; Capture as messages name it.
	File, Capture string
	// Plot are the pictures' options (Capture set: their titles').
	Plot PlotOptions
	// TableConns and PointsOver, when set, replace the page table's
	// count of connections (2000) and the size of a main connection whose
	// points are all written (1<<20 packets); for tests.
	TableConns, PointsOver int
}

// Put writes a file of a report: name is relative to its folder
// (conns/conn-11.js), write fills it.
type Put func(name string, write func(io.Writer) error) error

// ReportBuilder makes a report folder's files from one analysing pass
// over a capture: summary.csv and streams.csv as the connections come
// (every one of them), the graphs of the main connection (pictures and
// points) and of the busiest (for the page), and index.html.
type ReportBuilder struct {
	o        ReportOptions
	reqs     []analyze.GraphRequest
	kept     busiestRows
	conns    int
	scw, tcw *CSVWriter
	werr     error
}

// NewReportBuilder starts a report.
func NewReportBuilder(o ReportOptions) *ReportBuilder {
	if o.TableConns == 0 {
		o.TableConns = reportTableConns
	}
	if o.PointsOver == 0 {
		o.PointsOver = reportPointsOver
	}
	return &ReportBuilder{o: o, reqs: ReportGraphs(), kept: busiestRows{max: o.TableConns}}
}

// Load is how the capture is read (analyze.Load, with Busiest: the
// connections of the report): connection stream in direction dir (-1:
// the busiest, among those sel keeps, in its main direction) and the
// busiest others, every report graph drawn while it is read, every
// connection's rows written to summary and streams (EndTables flushes
// them).
func (b *ReportBuilder) Load(summary, streams io.Writer, stream, dir int, sel reassembly.Filter) analyze.LoadOptions {
	b.scw, b.tcw = NewCSVWriter(summary), NewCSVWriter(streams)
	b.werr = b.scw.WriteHeader(SummaryColumns.Docs())
	if b.werr == nil {
		b.werr = b.tcw.WriteHeader(StreamsColumns.Docs())
	}
	return analyze.LoadOptions{Stream: stream, Dir: dir, Graphs: b.reqs, Select: sel,
		AnyTransport: true, // the main flow of either transport: a UDP test's, not its control connection
		Busiest:      reportConns + reportMoreConns,
		AlsoThin:     b.o.Plot.thinCols(PNG), ThinOver: b.o.PointsOver, Pack: true, OnConn: b.addConn}
}

// addConn writes a connection's rows and keeps them if among the busiest.
func (b *ReportBuilder) addConn(cr *analyze.ConnResult) {
	b.conns++
	var rows [2][]Value
	for d := range cr.Stats {
		rows[d] = SummaryColumns.Row(&SummaryRow{File: b.o.File, Stats: &cr.Stats[d]})
		if b.werr == nil {
			b.werr = b.scw.WriteRow(rows[d])
		}
	}
	if b.werr == nil {
		b.werr = b.tcw.WriteRow(StreamsColumns.Row(&StreamRow{File: b.o.File, Info: cr.Info}))
	}
	b.kept.add(cr.Info.Stream, cr.Info.Bytes[0]+cr.Info.Bytes[1], rows)
}

// EndTables flushes summary and streams: the first error writing them.
func (b *ReportBuilder) EndTables() error {
	for _, cw := range []*CSVWriter{b.scw, b.tcw} {
		if b.werr == nil {
			b.werr = cw.Flush()
		}
	}
	return b.werr
}

// Graphs writes the pictures and points of the main connection, l,
// and gives the report the graphs of l and every connection of l.Others
// (Load's with Busiest), each freed once drawn. Warnings say what was
// left out.
func (b *ReportBuilder) Graphs(l *analyze.Loaded, put Put) (*Report, []string, error) {
	ls := append([]*analyze.Loaded{l}, l.Others...)
	l.Others = nil
	rep := &Report{Capture: b.o.Capture}
	reqs := b.reqs
	var warnings []string
	for i, l := range ls {
		rc := ReportConn{Stream: l.Conn.Stream, Diagnosis: l.Stats[l.Dir].Diagnosis, Facts: reportFacts(l),
			Label: fmt.Sprintf("%s → %s (stream %d, %s)", l.Stats[l.Dir].Src, l.Stats[l.Dir].Dst, l.Conn.Stream, l.Dir)}
		if l.UDP {
			rc.Stream, rc.Nav = -1, fmt.Sprintf("UDP flow %d", l.Conn.Stream) // no summary row is its
			rc.Label = fmt.Sprintf("%s → %s (UDP flow %d)", l.Stats[l.Dir].Src, l.Stats[l.Dir].Dst, l.Conn.Stream)
		}
		// The graphs of a connection are rendered for the page (and the
		// main one's written as pictures and points) side by side, each
		// piece of work on a core, graph after graph: the main one's
		// points, packed while read (LoadOptions.Pack), are unpacked for
		// a graph's first piece and freed after its last, so that few
		// graphs are unpacked at once.
		parts := []string{"page"}
		switch {
		case i == 0 && l.Thinned:
			parts = []string{"png", "page"}
			warnings = append(warnings, fmt.Sprintf("%s: stream %d has %s, more than the report writes every point of (%d): its graphs are thinned as in the pictures and their points are not written; `tcpviz seq -s %d -o FILE.csv` and the other graph commands write them",
				b.o.Capture, l.Conn.Stream, words.Plural(l.Conn.Dir[0].Packets+l.Conn.Dir[1].Packets, "packet"), b.o.PointsOver, l.Conn.Stream))
		case i == 0:
			parts = []string{"png", "csv", "page"}
		}
		graphs := make([]*ReportGraph, len(reqs))
		errs := make([]error, len(parts)*len(reqs))
		csvs := make([]string, len(reqs))
		left := make([]atomic.Int32, len(reqs))
		unpacked := make([]sync.Once, len(reqs))
		for k := range left {
			left[k].Store(int32(len(parts)))
		}
		for _, g := range l.Graphs {
			if g != nil { // what the graphs say of their data, before they are drawn
				annotate(l, g)
			}
		}
		po := b.o.Plot
		inParallel(len(parts)*len(reqs), func(j int) {
			k, part := j/len(parts), parts[j%len(parts)]
			rg, g := reqs[k], l.Graphs[k]
			defer func() {
				if left[k].Add(-1) == 0 {
					l.Graphs[k] = nil // freed once drawn, not with the last one
				}
			}()
			if g == nil {
				return // (a UDP flow has no RTT, flight or window)
			}
			unpacked[k].Do(g.Unpack) // counted and drawn from its Points
			if pointCount(g) == 0 {
				return
			}
			stem := graphStem(rg)
			switch part {
			case "png":
				errs[j] = put(stem+".png", func(w io.Writer) error { return WriteGraph(w, g, PNG, po) })
			case "csv":
				errs[j] = put(stem+".csv", func(w io.Writer) error { return WriteGraph(w, g, PointsCSV, po) })
				csvs[k] = stem + ".csv"
			case "page":
				image := ""
				if i == 0 {
					image = stem + ".png" // written by the png part
				}
				rgr := newReportGraph(g, Caption(rg), image, po.Width, po.Height)
				graphs[k] = &rgr
			}
		})
		for _, err := range errs {
			if err != nil {
				return nil, warnings, err
			}
		}
		for k, rgr := range graphs {
			if rgr == nil {
				continue
			}
			if csvs[k] != "" {
				rep.Tables = append(rep.Tables, csvs[k])
			}
			rc.Graphs = append(rc.Graphs, *rgr)
		}
		if i <= reportConns {
			rep.Conns = append(rep.Conns, rc)
		} else {
			rep.More = append(rep.More, rc)
		}
		ls[i] = nil // its graphs are no longer needed
	}
	return rep, warnings, nil
}

// Finish writes the scripts of the connections beyond the busiest
// (conns/conn-N.js) and the page, index.html, last.
func (b *ReportBuilder) Finish(rep *Report, put Put) error {
	// The connections beyond the busiest, each in a script beside the
	// page, loaded when opened.
	for k := range rep.More {
		rep.More[k].Script = fmt.Sprintf("conns/conn-%d.js", len(rep.Conns)+k)
	}
	for k := range rep.More {
		if err := put(rep.More[k].Script, func(w io.Writer) error { return writeReportScript(w, rep, k) }); err != nil {
			return err
		}
	}
	rep.Tables = append(rep.Tables, "summary.csv", "streams.csv")
	rep.Summary = NewTable(SummaryColumns)
	rep.Summary.Rows = b.kept.rows()
	rep.Connections = b.conns
	return put("index.html", func(w io.Writer) error { return writeReport(w, rep) })
}

// ReportGraphs are the graphs a report shows, in order: every registered
// graph with its defaults, and the RTT also from TCP timestamps.
func ReportGraphs() []analyze.GraphRequest {
	var out []analyze.GraphRequest
	for _, g := range analyze.Graphs("") {
		out = append(out, analyze.GraphRequest{Spec: g})
		if g.Kind == analyze.GraphRTT {
			out = append(out, analyze.GraphRequest{Spec: g, Params: analyze.GraphParams{Sampling: analyze.SampleTimestamps}})
		}
	}
	return out
}

// busiestRows keeps the summary rows of the max connections that carried
// the most payload (a heap on their bytes, the least first).
type busiestRows struct {
	max   int
	conns []keptConn
}

type keptConn struct {
	stream int
	bytes  int64
	rows   [2][]Value
}

func (b *busiestRows) Len() int           { return len(b.conns) }
func (b *busiestRows) Less(i, j int) bool { return b.conns[i].bytes < b.conns[j].bytes }
func (b *busiestRows) Swap(i, j int)      { b.conns[i], b.conns[j] = b.conns[j], b.conns[i] }
func (b *busiestRows) Push(x any)         { b.conns = append(b.conns, x.(keptConn)) }
func (b *busiestRows) Pop() any {
	c := b.conns[len(b.conns)-1]
	b.conns = b.conns[:len(b.conns)-1]
	return c
}

// add offers a connection's rows.
func (b *busiestRows) add(stream int, bytes int64, rows [2][]Value) {
	if len(b.conns) < b.max {
		heap.Push(b, keptConn{stream, bytes, rows})
	} else if len(b.conns) > 0 && bytes > b.conns[0].bytes {
		b.conns[0] = keptConn{stream, bytes, rows}
		heap.Fix(b, 0)
	}
}

// rows are the rows kept, in stream order.
func (b *busiestRows) rows() [][]Value {
	slices.SortFunc(b.conns, func(x, y keptConn) int { return x.stream - y.stream })
	var out [][]Value
	for _, c := range b.conns {
		out = append(out, c.rows[0], c.rows[1])
	}
	return out
}

// inParallel calls f(0) to f(n-1), as many at once as there are cores,
// and returns when all have returned.
func inParallel(n int, f func(int)) {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}
