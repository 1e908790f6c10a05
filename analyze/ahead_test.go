package analyze

import (
	"bytes"
	"fmt"
	"testing"

	"tcpviz/internal/gencap"
	"tcpviz/reassembly"
)

// TestAheadKarnQuotedAfterSYN: a connection whose second packet is an
// ICMP error quoting its SYN hands the SYN on with that quoted header
// (Segment.First); tcptrace's RTT state kept ahead of the analysis takes
// the SYN then, as the analyzer does, so the SYN/ACK gives the client's
// direction its sample in every scan mode.
func TestAheadKarnQuotedAfterSYN(t *testing.T) {
	run := func(mode scanMode) (string, []ConnResult) {
		r, err := reassembly.NewReader(bytes.NewReader(gencap.QuotedAfterSYN()))
		if err != nil {
			t.Fatal(err)
		}
		var out []ConnResult
		res, err := Run(r, RunOptions{Analyze: true, Keep: -1, scan: mode,
			OnConn: func(cr *ConnResult) { out = append(out, *cr) }})
		return fmt.Sprintf("%+v\n%v\n%+v", *res, err, out), out
	}
	plain, conns := run(scanPlain)
	if len(conns) != 3 {
		t.Fatalf("%d connections, want 3", len(conns))
	}
	mid := conns[1].Stats[reassembly.C2S]
	if mid.KarnRTTSamples < 1 || conns[1].Info.Packets[reassembly.C2S] < 2 {
		t.Fatalf("the quoting connection's client side: %d tcptrace samples, %d packets", mid.KarnRTTSamples, conns[1].Info.Packets[reassembly.C2S])
	}
	if ahead, _ := run(scanPipeTrack); ahead != plain {
		t.Fatalf("with the tracker ahead:\n%s\nplain:\n%s", ahead, plain)
	}
}
