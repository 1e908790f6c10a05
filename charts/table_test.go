package charts

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"net/netip"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"tcpviz/analyze"
	"tcpviz/internal/capturetest"
	"tcpviz/internal/gencap"
	"tcpviz/reassembly"
)

// TestAppendTime: the digit-by-digit time is the time package's layout,
// over the whole range of int64 nanoseconds.
func TestAppendTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 100000 {
		ns := int64(rng.Uint64())
		switch i {
		case 0, 1, 2:
			ns = []int64{math.MinInt64, math.MaxInt64, 0}[i]
		}
		want := time.Unix(0, ns).UTC().Format("2006-01-02T15:04:05.000000000Z07:00")
		if got := FormatTime(ns); got != want {
			t.Fatalf("FormatTime(%d) = %s, want %s", ns, got, want)
		}
	}
}

// TestCSVWriterTimes: times written by a CSVWriter (which reuses the text
// of the last second) are FormatTime's, in any order, around the epoch
// and the ends of int64 too.
func TestCSVWriterTimes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var got, want bytes.Buffer
	cw := NewCSVWriter(&got)
	base := int64(1700000000e9)
	for i := range 20000 {
		var ns int64
		switch i % 4 {
		case 0:
			ns = base + rng.Int64N(3e9) // mostly the same seconds
		case 1:
			ns = rng.Int64N(4e9) - 2e9 // around the epoch
		case 2:
			ns = int64(rng.Uint64())
		default:
			ns = []int64{math.MinInt64, math.MaxInt64, -1, 0, -1e9, 1e9 - 1}[rng.IntN(6)]
		}
		cw.WriteRow([]Value{TimeV(ns)})
		want.WriteString(FormatTime(ns) + "\n")
	}
	cw.Flush()
	if got.String() != want.String() {
		t.Errorf("times differ from FormatTime's")
	}
}

// TestCSVWriterAsEncodingCSV: cells are written as encoding/csv writes
// their strings (quoting, line ends), whatever they hold.
func TestCSVWriterAsEncodingCSV(t *testing.T) {
	strs := []string{"", "a", "a,b", `a"b`, "a\nb", "a\rb", " lead", "\tlead", `\.`, "\u00a0nbsp", "é", `""`, "trail "}
	rows := [][]Value{}
	for _, s := range strs {
		rows = append(rows, []Value{StrV(s), IntV(-42), FloatV(1.5, 3), SecondsV(-1500000001), BoolV(true),
			TimeV(1700000000123456789), StrV(s).Or(false), AddrV(netip.MustParseAddr("fe80::1")),
			AddrV(netip.MustParseAddr("10.0.0.1")), AddrV(netip.Addr{}), AddrV(netip.MustParseAddr("fe80::1%eth,0"))})
	}
	var got, want bytes.Buffer
	cw := NewCSVWriter(&got)
	ref := csv.NewWriter(&want)
	for _, row := range rows {
		if err := cw.WriteRow(row); err != nil {
			t.Fatal(err)
		}
		var cells []string
		for _, v := range row {
			cells = append(cells, v.String())
		}
		ref.Write(cells)
	}
	cw.Flush()
	ref.Flush()
	if got.String() != want.String() {
		t.Errorf("CSVWriter wrote\n%s\nencoding/csv\n%s", got.String(), want.String())
	}
}

// TestSummaryMemo: the columns a RowMemo copies read nothing the memo's
// key leaves out (change the file, stream, endpoints, first time or
// duration of a row: they stay), and the memo writes the rows of real
// captures and of a flood as written without it.
func TestSummaryMemo(t *testing.T) {
	var rows []analyze.DirStats
	for _, name := range []string{"geo_short.pcap", "lossy_sll2.pcap", "v6_short.pcapng"} {
		path := filepath.Join("..", "testdata", name)
		_, err := analyze.Run(capturetest.Reader(t, path), analyze.RunOptions{Analyze: true, Keep: -1, OnConn: func(cr *analyze.ConnResult) {
			rows = append(rows, cr.Stats[:]...)
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err := analyze.Run(mustReader(t, gencap.SynFlood(300, 100000)), analyze.RunOptions{Analyze: true, Keep: -1,
		OnConn: func(cr *analyze.ConnResult) { rows = append(rows, cr.Stats[:]...) }})
	if err != nil {
		t.Fatal(err)
	}
	// Rows again, and the same rows with other identities.
	n := len(rows)
	for i := range n {
		st := rows[i]
		st.Stream, st.FirstTime, st.Duration = st.Stream+1000, st.FirstTime+12345, st.Duration*3+7
		st.Src, st.Dst = netip.MustParseAddrPort("[2001:db8::1]:1"), netip.MustParseAddrPort("192.0.2.9:65535")
		for c := summaryTail; c < len(SummaryColumns); c++ {
			col := SummaryColumns[c]
			a, b := col.Cell(&SummaryRow{File: "a", Stats: &rows[i]}), col.Cell(&SummaryRow{File: "b.pcap", Stats: &st})
			if a.String() != b.String() {
				t.Fatalf("column %s reads what the memo's key leaves out: %q, then %q", col.Name, a, b)
			}
		}
		rows = append(rows, st, rows[i])
	}
	var plain, memo bytes.Buffer
	pw, mw, m := NewCSVWriter(&plain), NewCSVWriter(&memo), newSummaryMemo()
	for i := range rows {
		r := &SummaryRow{File: "x.pcap", Stats: &rows[i]}
		SummaryColumns.WriteCSV(pw, r)
		m.WriteCSV(mw, SummaryColumns, r)
	}
	pw.Flush()
	mw.Flush()
	if plain.String() != memo.String() {
		t.Errorf("with the memo, %d bytes differ from the %d written without", len(memo.String()), plain.Len())
	}
	if plain.Len() == 0 || len(rows) < 600 {
		t.Fatalf("%d rows, %d bytes", len(rows), plain.Len())
	}
}

func mustReader(t *testing.T, r io.Reader) *reassembly.Reader {
	rd, err := reassembly.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// TestTextTableEscapes: the terminal table escapes control characters and
// invalid UTF-8 in its text cells (ESC, tab, line breaks, C1 controls)
// as messages do, so no terminal escape passes and the columns hold; CSV
// and JSON keep the text exact.
func TestTextTableEscapes(t *testing.T) {
	name := "a\x1b[31m\tb\r\nc\u009b\xff.pcap"
	tab := &Table{Columns: []Doc{{Name: "file", Kind: String}, {Name: "n", Kind: Int}},
		Rows: [][]Value{{StrV(name), IntV(1)}, {StrV("plain é.pcap"), IntV(22)}}}
	var text, csv, js bytes.Buffer
	if err := tab.Write(&text, TextTable); err != nil {
		t.Fatal(err)
	}
	want := "                              file   n\n" +
		`  a\x1b[31m\tb\r\nc\u009b\xff.pcap` + "   1\n" +
		"                      plain é.pcap  22\n"
	if text.String() != want {
		t.Errorf("text table:\n%q\nwant\n%q", text.String(), want)
	}
	for _, c := range text.String() {
		if c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 && c < 0xa0 || c == utf8.RuneError {
			t.Errorf("raw %U in the text table", c)
		}
	}
	tab.Write(&csv, CSV)
	if want := "file,n\n\"" + name + "\",1\nplain é.pcap,22\n"; csv.String() != want {
		t.Errorf("CSV %q, want %q", csv.String(), want)
	}
	tab.Write(&js, JSON)
	var rows []map[string]any
	if err := json.Unmarshal(js.Bytes(), &rows); err != nil || len(rows) != 2 || rows[0]["file"] != strings.ToValidUTF8(name, "\uFFFD") {
		t.Errorf("JSON %s (%v)", js.String(), err)
	}
}

// TestJSONKeepsHTMLCharacters: JSON strings keep < > & as they are (as
// tshark -T ek and Zeek write them), not json.Marshal's \u003e.
func TestJSONKeepsHTMLCharacters(t *testing.T) {
	var b strings.Builder
	cols := []Doc{{Name: "hop", Kind: String}, {Name: "q", Kind: String}}
	rw := NewRowWriter(&b, NDJSON, cols)
	if err := rw.WriteRow([]Value{StrV("a.pcap>b.pcap"), StrV("x&\"<\n")}); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	want := `{"hop": "a.pcap>b.pcap", "q": "x&\"<\n"}` + "\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestLimitSharesCell: the limit_shares cell keeps two decimals and
// leaves out shares under 0.005.
func TestLimitSharesCell(t *testing.T) {
	ls := []analyze.LimitShare{{Kind: analyze.FindReceiveWindow, Share: 0.6241}, {Kind: analyze.FindBottleneck, Share: 0.3719},
		{Kind: analyze.FindApplication, Share: 0.004}, {Kind: analyze.FindReceiverStall, Share: 0}}
	if got, want := limitShares(ls), "receive_window=0.62;bottleneck=0.37"; got != want {
		t.Errorf("limit_shares %q, want %q", got, want)
	}
	if got := limitShares(nil); got != "" {
		t.Errorf("no shares: %q, want empty", got)
	}
}

// TestEpisodeCountsAtTheSender: the sender's episode counts are given
// where the capture is at the sender or its place unknown, and empty
// where the path analysis places it at the receiver or in the middle
// (kn_bbr_loss.rx had read 43 fast episodes for the kernel's 27); a
// direction without data has none either way.
func TestEpisodeCountsAtTheSender(t *testing.T) {
	names := []string{"loss_episodes_fast", "loss_episodes_rto", "tail_loss_probes", "loss_episodes_undone"}
	for _, tt := range []struct {
		v     analyze.Vantage
		data  int64
		given bool
	}{
		{analyze.VantageSender, 10, true}, {analyze.VantageUnknown, 10, true},
		{analyze.VantageReceiver, 10, false}, {analyze.VantageMiddle, 10, false}, {analyze.VantageSender, 0, false},
	} {
		st := analyze.DirStats{DataPackets: tt.data, LossEpisodesFast: 3, LossEpisodesRTO: 1, TailLossProbes: 2, LossEpisodesUndone: 1}
		st.Path.Vantage = tt.v
		for _, name := range names {
			i := slices.IndexFunc(SummaryColumns, func(c summaryCol) bool { return c.Name == name })
			if i < 0 {
				t.Fatalf("no column %s", name)
			}
			if got := SummaryColumns[i].Cell(&SummaryRow{Stats: &st}).String(); (got != "") != tt.given {
				t.Errorf("%s at a %s capture, %d data packets: %q, want given %v", name, tt.v, tt.data, got, tt.given)
			}
		}
	}
}

// TestTextTableLongInBlocks: a text table longer than textHoldRows is
// written as its rows come, in blocks of that many (each aligned on its
// own, the header once), not held whole until Close; a shorter one is
// aligned on all its rows, as before.
func TestTextTableLongInBlocks(t *testing.T) {
	cols := []Doc{{Name: "i", Kind: Int}, {Name: "name", Kind: String}}
	var b bytes.Buffer
	rw := NewRowWriter(&b, TextTable, cols)
	n := 2*textHoldRows + 5
	for i := range n {
		if err := rw.WriteRow([]Value{IntV(int64(i)), StrV(strings.Repeat("x", i%7))}); err != nil {
			t.Fatal(err)
		}
		if i == textHoldRows-2 && b.Len() != 0 {
			t.Fatalf("%d bytes written before %d rows", b.Len(), textHoldRows)
		}
		if i == textHoldRows && b.Len() == 0 {
			t.Fatalf("nothing written after %d rows: the table is held whole", i+1)
		}
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != n+1 || strings.Count(b.String(), "name") != 1 {
		t.Fatalf("%d lines, %d headers: want %d and one", len(lines), strings.Count(b.String(), "name"), n+1)
	}
	for i, l := range lines[1:] {
		f := strings.Fields(l)
		if f[0] != strconv.Itoa(i) {
			t.Fatalf("line %d: %q", i+1, l)
		}
	}
}
