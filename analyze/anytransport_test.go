package analyze

import (
	"path/filepath"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
)

// TestLoadAnyTransport: with AnyTransport the main flow of an iperf3 UDP
// capture is its UDP test (not the TCP control connection, the busiest
// TCP one); of a TCP capture, the same connection as without it.
func TestLoadAnyTransport(t *testing.T) {
	udp := filepath.Join(golden.Testdata(), "sweep", "sweep_50ms_fixed_udp_r1.pcap.gz")
	l, err := Load(capturetest.Opener(t, udp), LoadOptions{Stream: -1, Dir: -1, AnyTransport: true})
	if err != nil {
		t.Fatal(err)
	}
	if !l.UDP || l.Stats[l.Dir].DataBytes < 1e6 {
		t.Errorf("UDP capture: UDP %v, %d bytes: want the iperf3 UDP test", l.UDP, l.Stats[l.Dir].DataBytes)
	}
	tcpOnly, err := Load(capturetest.Opener(t, udp), LoadOptions{Stream: -1, Dir: -1})
	if err != nil || tcpOnly.UDP || tcpOnly.Stats[0].DataBytes+tcpOnly.Stats[1].DataBytes > 10000 {
		t.Errorf("without AnyTransport: %v, UDP %v: want the TCP control connection", err, tcpOnly != nil && tcpOnly.UDP)
	}
	for _, name := range []string{"geo_short.pcap", filepath.Join("sweep", "sweep_50ms_fixed_tcp_r1.pcap.gz")} {
		c := filepath.Join(golden.Testdata(), name)
		a, err1 := Load(capturetest.Opener(t, c), LoadOptions{Stream: -1, Dir: -1, AnyTransport: true})
		b, err2 := Load(capturetest.Opener(t, c), LoadOptions{Stream: -1, Dir: -1})
		if err1 != nil || err2 != nil || a.UDP || a.Conn.Stream != b.Conn.Stream || len(a.Records) != len(b.Records) {
			t.Errorf("%s: AnyTransport changed the TCP capture's main flow (%v %v)", name, err1, err2)
		}
	}
}
