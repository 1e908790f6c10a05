package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestCompareLoadKeepsNoRecords: an input of a comparison read as
// CompareLoad says (its graph drawn and its delivered bytes gathered
// while reading) gives the same comparison graph and table as one read
// with its records kept, and keeps no records — except for a time window
// from the first data byte, which needs them.
func TestCompareLoadKeepsNoRecords(t *testing.T) {
	paths := []string{filepath.Join("..", "testdata", "geo_short.pcap"), filepath.Join("..", "testdata", "lossy_sll2.pcap"),
		filepath.Join("..", "testdata", "v6_short.pcapng")}
	for _, name := range []string{"truth/gt_vsat_reno_loss.tx.pcap", "truth/gt_jitter_reorder.rx.pcap", "lab/geo_pep_85k.pcap"} {
		if p := filepath.Join(golden.SharedCaptures(), name); exists(p) {
			paths = append(paths, p)
		}
	}
	window := Range{Min: 2e9, Max: 9e9, HasMin: true, HasMax: true}
	compared := 0
	for _, path := range paths {
		whole, err := Load(capturetest.Opener(t, path), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range compareKinds() {
			if kind == string(CompareLoss) {
				continue
			}
			for _, co := range []CompareOptions{{}, {Align: AlignFirstData}, {Time: window}, {Align: AlignFirstData, Time: window}} {
				lo := CompareLoad(CompareKind(kind), co)
				lo.Stream, lo.Dir = -1, -1
				l, err := Load(capturetest.Opener(t, path), lo)
				if err != nil {
					t.Fatal(err)
				}
				needs := co.Align == AlignFirstData && co.Time.HasMin
				if kept := len(l.Records) > 0; kept != needs {
					t.Errorf("%s %s %+v: records kept %v, want %v", filepath.Base(path), kind, co, kept, needs)
				}
				ins := func(l *Loaded) []CompareInput { return []CompareInput{{Label: "a", L: l}, {Label: "b", L: l}} }
				to := TransferOptions{Align: co.Align, At: []int64{1e9, 3e9}, ToBytes: []int64{10000, OneMB}}
				show := func(l *Loaded) string {
					out := fmt.Sprintf("%+v", *compareGraph(CompareKind(kind), ins(l), co))
					for _, r := range compareRows(ins(l), to) {
						st := *r.Stats
						r.Stats = nil
						out += fmt.Sprintf("\n%+v %+v", r, st)
					}
					return out
				}
				got, want := show(l), show(whole)
				if got != want {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					from := max(i-300, 0)
					t.Fatalf("%s %s %+v: read as CompareLoad says:\n…%.600s\nfrom the records:\n…%.600s", filepath.Base(path), kind, co, got[from:], want[from:])
				}
				compared++
			}
		}
	}
	if compared < 60 {
		t.Fatalf("only %d comparisons", compared)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestAlignSYNAtFirstPacket: time 0 of --align syn is the connection's
// first packet as the graphs count from it (its first record), not
// Conn.FirstTime, which a connection reported in parts (retired in a
// crowd, then back) moves to its second part.
func TestAlignSYNAtFirstPacket(t *testing.T) {
	c := &reassembly.Conn{FirstTime: 40e9}
	recs := []Record{
		{Frame: 1, Time: 1e9, Dir: reassembly.C2S, Seq: 1, Len: 1000, HasAck: true},
		{Frame: 2, Time: 1.1e9, Dir: reassembly.S2C, Seq: 1, Ack: 1001, HasAck: true},
	}
	l := &Loaded{Conn: c, Dir: reassembly.C2S, Records: recs}
	if got := AlignSYN.origin(l, l.transferAcc()); got != 1e9 {
		t.Errorf("time 0 at %d ns, want the first packet's 1e9", got)
	}
	tr := Summarize(l, TransferOptions{At: []int64{0.5e9}})
	if tr.Delivered[0] != 1000 {
		t.Errorf("delivered 0.5 s after the first packet: %d, want 1000", tr.Delivered[0])
	}
}

// TestCompareCwndCarriesSsthreshAndLosses: compare --graph cwnd draws,
// beside each input's window, its ssthresh (dashed) and its loss marks by
// kind, named after the input and tied to it (Of, Role), each as the cwnd
// graph of that input has it.
func TestCompareCwndCarriesSsthreshAndLosses(t *testing.T) {
	l, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", "lossy_sll2.pcap")), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	g := compareGraph(CompareCwnd, []CompareInput{{Label: "a", L: l}, {Label: "b", L: l}}, CompareOptions{})
	own := cwndGraph(l.Records, SeriesOptions{Conn: l.Conn, Dir: l.Dir})
	for _, label := range []string{"a", "b"} {
		main := g.lookup(label)
		if main == nil || main.Of != "" || len(main.Points) != len(own.lookup(SeriesCwnd).Points) {
			t.Fatalf("%s: the window %+v, want the cwnd graph's %d points", label, main, len(own.lookup(SeriesCwnd).Points))
		}
		for role, what := range map[string]string{SeriesSsthresh: "ssthresh", SeriesFastLoss: "fast retransmit"} {
			s := g.lookup(label + " " + what)
			if s == nil || s.Of != label || s.Role != role || len(s.Points) != len(own.lookup(role).Points) {
				t.Fatalf("%s %s: %+v, want %d points of %s tied to %q", label, what, s, len(own.lookup(role).Points), role, label)
			}
			if s.Dashed != (role == SeriesSsthresh) {
				t.Errorf("%s %s dashed %v", label, what, s.Dashed)
			}
			if dt := s.Points[0].Time - own.lookup(role).Points[0].Time; dt != main.Points[0].Time-own.lookup(SeriesCwnd).Points[0].Time {
				t.Errorf("%s %s shifted by %d ns, its window by another", label, what, dt)
			}
		}
	}
	if g.lookup("a timeout") != nil {
		t.Error("a timeout series for a capture without timeouts")
	}
}

// TestCompareNotesProxy: an input whose ACKs come from a proxy beside the
// capture gets a note on the graph, by its label, saying what delivered
// means there; the others none.
func TestCompareNotesProxy(t *testing.T) {
	open := func() *Loaded {
		l, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", "geo_short.pcap")), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	far, near := open(), open()
	near.Stats[near.Dir].Path.NearbyPeer = true
	g := compareGraph(CompareDelivered, []CompareInput{{Label: "far", L: far}, {Label: "near", L: near}}, CompareOptions{})
	if len(g.Notes) != 1 || g.Notes[0] != (Warning{Kind: NoteProxyACKs, Label: "near"}) {
		t.Errorf("notes %+v, want one for near", g.Notes)
	}
	// Not drawn (nothing in the window asked for), nothing said of it.
	co := CompareOptions{Time: Range{Min: 3600e9, HasMin: true}}
	if g := compareGraph(CompareDelivered, []CompareInput{{Label: "far", L: far}, {Label: "near", L: near}}, co); len(g.Series) != 0 || len(g.Notes) != 0 {
		t.Errorf("an hour in: %d series, notes %+v; want none", len(g.Series), g.Notes)
	}
}

// TestCompareCwndSaysEachInputsBasis: compare --graph cwnd says, of each
// input by its label, what its line stands on as that input's own cwnd
// graph does (a receiver-side capture's arrivals), and nothing of an input
// whose graph says nothing; other comparisons carry no such note.
func TestCompareCwndSaysEachInputsBasis(t *testing.T) {
	load := func(side string) *Loaded {
		l, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", "labelled", "sq_50ms_5m."+side+".pcap.gz")), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	tx, rx := load("tx"), load("rx")
	ins := []CompareInput{{Label: "at the sender", L: tx}, {Label: "at the receiver", L: rx}}
	g := compareGraph(CompareCwnd, ins, CompareOptions{})
	if want := []Warning{{Kind: NoteReceiverFlight, Label: "at the receiver"}}; !slices.Equal(g.Notes, want) {
		t.Errorf("cwnd notes %+v, want %+v", g.Notes, want)
	}
	if g := compareGraph(CompareDelivered, ins, CompareOptions{}); len(g.Notes) != 0 {
		t.Errorf("delivered notes %+v, want none", g.Notes)
	}
	// An input with nothing in the window asked for is not drawn: nothing
	// is said of it.
	late := []CompareInput{ins[0], {Label: "at the receiver", L: rx, Input: "late"}}
	co := CompareOptions{Time: Range{Min: 3600e9, HasMin: true}}
	if g := compareGraph(CompareCwnd, late, co); len(g.Series) != 0 || len(g.Notes) != 0 {
		t.Errorf("an hour in: %d series, notes %+v; want none", len(g.Series), g.Notes)
	}
}

// TestCompareTable: Compare gives the graph and the table together, the
// table's rows in input order with the throughput's ratio to the first;
// of owd (join draws its graph) the table alone.
func TestCompareTable(t *testing.T) {
	l, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", "geo_short.pcap")), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	ins := []CompareInput{{Label: "a", L: l}, {Label: "b", Input: "b.pcap", L: l}}
	g, rows := Compare(CompareDelivered, ins, CompareOptions{}, TransferOptions{})
	if g == nil || len(g.Series) != 2 || len(rows) != 2 || rows[0].Input != "a" || rows[1].Input != "b.pcap" || !rows[1].HasRatio || rows[1].ThroughputRatio != 1 {
		t.Fatalf("graph %v, rows %+v", g != nil, rows)
	}
	if g, rows := Compare(CompareOWD, ins, CompareOptions{}, TransferOptions{}); g != nil || len(rows) != 2 {
		t.Errorf("owd: graph %v, %d rows; want none and 2", g != nil, len(rows))
	}
}

// TestSummarizeSlowStartFromTimeZero: the transfer's slow start ends
// where the statistics found it, counted from its time 0 (--align) like
// its other times: from the first data byte, the handshake and the
// greeting before it earlier (the summary counts from the first packet).
func TestSummarizeSlowStartFromTimeZero(t *testing.T) {
	l, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", "geo_short.pcap")), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	syn, data := Summarize(l, TransferOptions{Align: AlignSYN}), Summarize(l, TransferOptions{Align: AlignFirstData})
	st := l.Stats[l.Dir].SlowStart
	if !st.Found || data.Origin-syn.Origin < 500e6 {
		t.Fatalf("slow start %+v, first data %d ns after the first packet: want both", st, data.Origin-syn.Origin)
	}
	if syn.SlowStart.End != st.End+l.Conn.FirstTime-syn.Origin || data.SlowStart.End != syn.SlowStart.End-(data.Origin-syn.Origin) {
		t.Errorf("slow start ended %d ns from the first packet, %d from the first data byte; the statistics say %d", syn.SlowStart.End, data.SlowStart.End, st.End)
	}
}

// TestCompareParams: compare's --graph offers delivered, the comparison
// of every registered graph that has one (in the registry's order), loss
// and owd, and its help says each (it once left out loss); the
// parameters of the overlaid graphs that change a series come first.
func TestCompareParams(t *testing.T) {
	specs := Graphs("compare")
	if len(specs) != 1 || specs[0].Kind != GraphCompare {
		t.Fatalf("compare's entries %+v", specs)
	}
	spec := specs[0]
	ps := spec.Params
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	if got := fmt.Sprint(names); got != "[window sampling graph]" {
		t.Fatalf("parameters %s", got)
	}
	graph := ps[len(ps)-1]
	if got := fmt.Sprint(graph.Choices); got != "[delivered seq tput rtt window cwnd loss owd]" {
		t.Errorf("choices %s", got)
	}
	if graph.Default != string(CompareDelivered) {
		t.Errorf("default %q", graph.Default)
	}
	for i, c := range graph.Choices {
		sep := ", "
		switch i {
		case 0:
			sep = ": "
		case len(graph.Choices) - 1:
			sep = ", or "
		}
		if !strings.Contains(graph.Help, sep+c+" ") && !strings.Contains(graph.Help, sep+c+",") {
			t.Errorf("help does not say %s: %s", c, graph.Help)
		}
	}
	for _, g := range graphs {
		if g.compare == nil {
			continue
		}
		c := compareSpec(g.compare.kind)
		if c.graph != g.Kind || c.title == "" || len(c.series) == 0 {
			t.Errorf("%s: compared as %+v", g.Kind, c)
		}
		for _, s := range c.series {
			if !slices.Contains(g.Series, s) {
				t.Errorf("%s: overlays %s, not one of its series", g.Kind, s)
			}
		}
	}
}

// TestCompareWarnsOnce: a warning every input's graph gives (an
// averaging window shorter than the round trips) is the comparison's
// once.
func TestCompareWarnsOnce(t *testing.T) {
	l, err := Load(capturetest.Opener(t, filepath.Join("..", "testdata", "geo_short.pcap")), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	co := CompareOptions{Params: GraphParams{Window: 1e6}}
	g := compareGraph(CompareThroughput, []CompareInput{{Label: "a", L: l}, {Label: "b", L: l}}, co)
	if len(g.Warnings) != 1 || g.Warnings[0].Kind != WarnShortWindow {
		t.Errorf("warnings %+v, want the short window's once", g.Warnings)
	}
}
