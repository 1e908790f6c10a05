package main

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkPackets is `tcpviz packets` of the bench capture
// (TCPVIZ_BENCH names it; ../shared/lab/record-bench.sh records one), as
// CSV and as Parquet to a discarded output: packets/s is reported.
func BenchmarkPackets(b *testing.B) {
	path := os.Getenv("TCPVIZ_BENCH")
	if path == "" {
		b.Skip("TCPVIZ_BENCH not set")
	}
	for _, f := range []string{"csv", "ndjson", "parquet", "summary"} {
		b.Run(f, func(b *testing.B) {
			b.ReportAllocs()
			var n int64
			for range b.N {
				var stderr bytes.Buffer
				cw := &countWriter{}
				if code := run(pkArgs(f, path), nil, cw, &stderr); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
				n = cw.lines
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// countWriter discards what it is given, counting its lines.
type countWriter struct{ lines int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

var _ io.Writer = (*countWriter)(nil)

func pkArgs(f, path string) []string {
	if f == "summary" {
		return []string{"tcpviz", "summary", "-f", "csv", path}
	}
	return []string{"tcpviz", "packets", "-f", f, path}
}
