package main

import (
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
		b.Run(cmd, func(b *testing.B) { benchCommand(b, cmd, path) })
	}
}
