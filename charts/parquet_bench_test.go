package charts

import (
	"io"
	"math/rand/v2"
	"testing"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// benchPacketRows are n packet rows alike the bench capture's: a bulk
// transfer's data and ACKs over a few streams, hardly any analysis flag.
func benchPacketRows(n int) []PacketRow {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]PacketRow, n)
	t := int64(1_700_000_000_000_000_000)
	var seq, ack [8]int64
	for i := range rows {
		t += rng.Int64N(20_000)
		s := rng.IntN(8)
		r := &rows[i]
		r.File, r.Stream, r.Start = "bench.pcap", s, 1_700_000_000_000_000_000
		r.Rec.Frame, r.Rec.Time = int64(i+1), t
		r.Rec.HasAck, r.Rec.Flags = true, reassembly.ACK
		r.Rec.Info.Window, r.Rec.Info.BytesInFlight, r.Rec.Info.AckRTT = 65535, -1, -1
		if i%2 == 0 {
			r.Rec.Dir, r.Rec.Len = reassembly.Direction(0), 1448
			r.Rec.Seq, r.Rec.Ack = seq[s], ack[s]
			seq[s] += 1448
			r.Rec.Info.BytesInFlight = 1448 * rng.Int64N(40)
		} else {
			r.Rec.Dir = reassembly.Direction(1)
			r.Rec.Seq, r.Rec.Ack = ack[s], seq[s]
			r.Rec.Info.AckRTT = rng.Int64N(50_000_000)
		}
		if rng.IntN(1000) == 0 {
			r.Rec.Info.Flags |= analyze.Retransmission
		}
	}
	return rows
}

// BenchmarkParquetPacketCells writes packet rows through the fast path
// (packetCells) as Parquet to a discarded output.
func BenchmarkParquetPacketCells(b *testing.B) {
	benchPacketCells(b, func() (Cells, func() error) {
		rw := NewRowWriter(io.Discard, ParquetFormat, PacketsColumns.Docs())
		return rw.(cellRows).Cells(), rw.Close
	})
}

// BenchmarkCSVPacketCells writes packet rows through the fast path
// (packetCells) as CSV to a discarded output.
func BenchmarkCSVPacketCells(b *testing.B) {
	benchPacketCells(b, func() (Cells, func() error) {
		cw := NewCSVWriter(io.Discard)
		return cw, cw.Flush
	})
}

// benchPacketCells writes benchPacketRows to the cells open makes, and
// closes them, b.N times.
func benchPacketCells(b *testing.B, open func() (Cells, func() error)) {
	rows := benchPacketRows(1 << 18)
	b.ReportAllocs()
	for b.Loop() {
		cells, end := open()
		for i := range rows {
			if err := packetCells(cells, &rows[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := end(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}
