package main

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkTableFlood is `tcpviz summary` and `tcpviz streams` of a SYN
// flood, CSV to a discarded output: TCPVIZ_FLOOD names the capture (e.g.
// 300,000 SYNs at 100,000/s).
func BenchmarkTableFlood(b *testing.B) {
	path := os.Getenv("TCPVIZ_FLOOD")
	if path == "" {
		b.Skip("TCPVIZ_FLOOD not set")
	}
	for _, cmd := range []string{"summary", "streams"} {
		b.Run(cmd, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				var stderr bytes.Buffer
				if code := run([]string{"tcpviz", cmd, path}, nil, io.Discard, &stderr); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
		})
	}
}
