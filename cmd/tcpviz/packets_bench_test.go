package main

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkPackets is `tcpviz packets` of the bench capture
// (TCPVIZ_BENCH names it; ../shared/lab/record-bench.sh records one) as
// CSV, NDJSON and Parquet to a discarded output, beside `summary` of the
// same capture (the analysis without a row per packet); the text formats
// report their rows/s.
func BenchmarkPackets(b *testing.B) {
	path := os.Getenv("TCPVIZ_BENCH")
	if path == "" {
		b.Skip("TCPVIZ_BENCH not set")
	}
	for _, f := range []string{"csv", "ndjson", "parquet"} {
		b.Run(f, func(b *testing.B) {
			lines := benchCommand(b, "packets", "-f", f, path)
			if f != "parquet" {
				b.ReportMetric(float64(lines)/b.Elapsed().Seconds(), "rows/s")
			}
		})
	}
	b.Run("summary", func(b *testing.B) { benchCommand(b, "summary", "-f", "csv", path) })
}

// benchCommand runs `tcpviz ARGS` b.N times to a discarded output and
// returns the lines written in all.
func benchCommand(b *testing.B, args ...string) int64 {
	b.Helper()
	b.ReportAllocs()
	cw := &countWriter{}
	for range b.N {
		var stderr bytes.Buffer
		if code := run(append([]string{"tcpviz"}, args...), nil, cw, &stderr); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
	return cw.lines
}

// countWriter discards what it is given, counting its lines.
type countWriter struct{ lines int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}
