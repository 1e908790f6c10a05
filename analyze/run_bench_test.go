package analyze

import (
	"fmt"
	"os"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/gencap"
	"tcpviz/reassembly"
)

// benchCapture is the large capture of `make bench-compare`
// (../shared/lab/record-bench.sh); TCPVIZ_BENCH overrides it.
func benchCapture(b *testing.B) string {
	p := os.Getenv("TCPVIZ_BENCH")
	if p == "" {
		p = "/tmp/bench/bench.pcap"
	}
	if _, err := os.Stat(p); err != nil {
		b.Skipf("no bench capture (%v): record one with ../shared/lab/record-bench.sh", err)
	}
	return p
}

// BenchmarkRunSummary is `tcpviz summary` without the output: one pass
// with the analysis of every connection.
func BenchmarkRunSummary(b *testing.B) {
	path := benchCapture(b)
	b.ReportAllocs()
	var packets int64
	for range b.N {
		res, err := Run(capturetest.Reader(b, path), RunOptions{Analyze: true, Keep: -1, OnConn: func(*ConnResult) {}})
		if err != nil {
			b.Fatal(err)
		}
		packets += res.Packets
	}
	b.ReportMetric(float64(packets)/b.Elapsed().Seconds(), "packets/s")
}

// BenchmarkRunFlood is `tcpviz summary` of a SYN flood: TCPVIZ_FLOOD names
// the capture (e.g. 300,000 SYNs at 100,000/s).
func BenchmarkRunFlood(b *testing.B) {
	path := os.Getenv("TCPVIZ_FLOOD")
	if path == "" {
		b.Skip("TCPVIZ_FLOOD not set")
	}
	b.ReportAllocs()
	for range b.N {
		if _, err := Run(capturetest.Reader(b, path), RunOptions{Analyze: true, Keep: -1, OnConn: func(*ConnResult) {}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunStorm is `tcpviz summary` of a retransmission storm
// (gencap.Retransmissions: 200,000 copies of one segment, 25 ms apart,
// each with its own IP ID, over a number of segments outstanding; the
// capture is generated as it is read). Per packet it should cost about
// the same whatever the segments outstanding: with fewer than 10,000 the
// copies join Wireshark's unacked list, unsorted.
func BenchmarkRunStorm(b *testing.B) {
	for _, outstanding := range []int{100, 10000} {
		b.Run(fmt.Sprintf("outstanding=%d", outstanding), func(b *testing.B) {
			b.ReportAllocs()
			var packets int64
			for range b.N {
				r, err := reassembly.NewReader(gencap.Retransmissions(200000, outstanding, 1000, 25000))
				if err != nil {
					b.Fatal(err)
				}
				res, err := Run(r, RunOptions{Analyze: true, Keep: -1, OnConn: func(*ConnResult) {}})
				if err != nil {
					b.Fatal(err)
				}
				packets += res.Packets
			}
			b.ReportMetric(float64(packets)/b.Elapsed().Seconds(), "packets/s")
		})
	}
}
