package gencap_test

import (
	"testing"

	"tcpviz/internal/gencap"
	"tcpviz/reassembly"
)

func scan(t *testing.T, sc *reassembly.Scanner) (packets int64, streams map[int]int) {
	t.Helper()
	streams = map[int]int{}
	sc.Tracker().OnRetire = func(c *reassembly.Conn) {
		streams[c.Stream] += int(c.Dir[0].Duplicates + c.Dir[1].Duplicates)
	}
	for sc.Scan() {
		streams[sc.Conn().Stream] += 0
	}
	sc.Tracker().Flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sc.Packets(), streams
}

// TestSynFlood: n SYNs are n packets and n connections.
func TestSynFlood(t *testing.T) {
	r, err := reassembly.NewReader(gencap.SynFlood(1000, 100000))
	if err != nil {
		t.Fatal(err)
	}
	packets, streams := scan(t, reassembly.NewScanner(r))
	if packets != 1000 || len(streams) != 1000 {
		t.Fatalf("%d packets in %d streams, want 1000 in 1000", packets, len(streams))
	}
}

// TestRetransmissions: one connection of n+outstanding+7 packets, none a
// capture duplicate.
func TestRetransmissions(t *testing.T) {
	r, err := reassembly.NewReader(gencap.Retransmissions(500, 100, 1000, 25000))
	if err != nil {
		t.Fatal(err)
	}
	sc := reassembly.NewScanner(r)
	packets, streams := scan(t, sc)
	if packets != 607 || len(streams) != 1 {
		t.Fatalf("%d packets in %d streams, want 607 in 1", packets, len(streams))
	}
	if streams[0] != 0 {
		t.Errorf("%d capture duplicates, want none", streams[0])
	}
}
