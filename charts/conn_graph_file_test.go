package charts

import (
	"strings"
	"testing"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// TestConnGraphFile: a derived graph file name is the capture's, the
// graph's stem (with the RTT's sampling when not the default) and the
// stream, a UDP flow's as udpN.
func TestConnGraphFile(t *testing.T) {
	spec := func(cmd string) analyze.GraphSpec {
		s := analyze.Graphs(cmd)
		if len(s) == 0 {
			t.Fatalf("no graph command %q", cmd)
		}
		return s[0]
	}
	ts := analyze.GraphParams{Sampling: analyze.SampleTimestamps}
	tcp := &analyze.Loaded{Conn: &reassembly.Conn{Stream: 3}}
	udp := &analyze.Loaded{Conn: &reassembly.Conn{Stream: 2}, UDP: true}
	for _, c := range []struct {
		q    analyze.GraphRequest
		l    *analyze.Loaded
		want string
	}{
		{analyze.GraphRequest{Spec: spec("seq")}, tcp, "geo-seq-s3.png"},
		{analyze.GraphRequest{Spec: spec("rtt")}, tcp, "geo-rtt-s3.png"},
		{analyze.GraphRequest{Spec: spec("rtt"), Params: ts}, tcp, "geo-rtt-timestamps-s3.png"},
		{analyze.GraphRequest{Spec: spec("tput")}, udp, "geo-tput-udp2.png"},
	} {
		if got := ConnGraphFile("geo", c.q, c.l); got != c.want {
			t.Errorf("%s: %s, want %s", c.want, got, c.want)
		}
	}
}

// TestConnGraphSaysItsBasis: what a cwnd graph's estimate stands on where
// the handshake was not seen, said under its legend, is said on stderr
// too (the warnings ConnGraph returns); other notes are not (BBR's cap;
// a line drawn at a receiver is said by cwndBasis: TestCwndBasisSaid).
func TestConnGraphSaysItsBasis(t *testing.T) {
	g := &analyze.Graph{Kind: analyze.GraphCwnd, Notes: []analyze.Warning{{Kind: analyze.NoteNoHandshake}, {Kind: analyze.NoteWindowMisread}, {Kind: analyze.NoteBBRCap}},
		Series: []analyze.Series{{Name: analyze.SeriesCwnd, Points: []analyze.Point{{Time: 1, V: [3]float64{1000}}}}}}
	l := &analyze.Loaded{Conn: &reassembly.Conn{Stream: 1}, Graphs: []*analyze.Graph{g}}
	l.Stats[l.Dir].Path.Vantage = analyze.VantageSender
	spec := analyze.Graphs("cwnd")
	if len(spec) == 0 {
		t.Fatal("no cwnd graph")
	}
	_, warnings, err := ConnGraph(l, analyze.GraphRequest{Spec: spec[0]}, analyze.Zoom{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(warnings, "\n")
	if len(warnings) != 2 || !strings.Contains(got, "handshake was not captured") || !strings.Contains(got, "ran past the receive window") {
		t.Errorf("warnings %q: want the two notes on the estimate's basis", warnings)
	}
}

// TestStderrNotesOfComparedInputs: a comparison's notes on what an
// input's line stands on name the input, and the receiver's is said on
// stderr there (a connection's own graph says it in words of its vantage).
func TestStderrNotesOfComparedInputs(t *testing.T) {
	g := &analyze.Graph{Kind: analyze.GraphCompare, Notes: []analyze.Warning{{Kind: analyze.NoteReceiverFlight, Label: "rx, GEO"},
		{Kind: analyze.NoteNoHandshake, Label: "mid"}, {Kind: analyze.NoteBBRCap, Label: "bbr"}}}
	got := StderrNotes(g)
	if len(got) != 2 || !strings.HasPrefix(got[0], "rx, GEO: receiver-side capture: ") || !strings.HasPrefix(got[1], "mid: the handshake was not captured") {
		t.Errorf("stderr notes %q, want the receiver's and the handshake's, each after its input", got)
	}
	if text := WarningText(g.Notes[2]); !strings.HasPrefix(text, "bbr: BBR sender: ") {
		t.Errorf("legend note %q, want it after its input", text)
	}
	if s := styleOf(g, analyze.SeriesCwnd, 0); strings.Contains(s.legend, "arrived") {
		t.Errorf("legend %q: one compared input's receiver-side note renamed the window", s.legend)
	}
}
