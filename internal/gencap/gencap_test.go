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

// TestLateSYNACK: the SYN/ACK, seen after the data, moves the server's
// base to its ISN and the connection's first time back, in one stream.
func TestLateSYNACK(t *testing.T) {
	r, err := reassembly.NewReader(gencap.LateSYNACK(10, 10, 1000))
	if err != nil {
		t.Fatal(err)
	}
	sc := reassembly.NewScanner(r)
	var first, last reassembly.Segment // the server's first and last data
	n := 0
	for sc.Scan() {
		s := sc.Segment()
		if n == 0 {
			first = *s
		}
		if s.PayloadLen > 0 {
			last = *s
		}
		if s.Stream != 0 {
			t.Fatalf("packet %d: stream %d, want one stream", n+1, s.Stream)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 41 {
		t.Fatalf("%d packets, want 41", n)
	}
	d := first.Dir
	if got := first.RelSeq(d, first.SeqAbs); got != 1 {
		t.Errorf("first segment's relative number before the SYN/ACK: %d, want 1", got)
	}
	if got := last.RelSeq(d, first.SeqAbs); got != 5001 {
		t.Errorf("first segment's relative number after the SYN/ACK: %d, want 5001", got)
	}
	if first.ConnFirstTime <= last.ConnFirstTime {
		t.Errorf("the SYN/ACK did not move the first time back: %d, then %d", first.ConnFirstTime, last.ConnFirstTime)
	}
}
