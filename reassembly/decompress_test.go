package reassembly

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// zstdRawFrame builds a zstd frame by hand: the given frame header
// descriptor and window descriptor (or content size bytes), then payload
// as raw blocks. Encoders never write some of these headers; attackers do.
func zstdRawFrame(header []byte, payload []byte) []byte {
	b := append([]byte(magicZstd), header...)
	for {
		n := min(len(payload), 1<<16)
		last := 0
		if n == len(payload) {
			last = 1
		}
		bh := uint32(last) | uint32(n)<<3 // block type 0: raw
		b = append(b, byte(bh), byte(bh>>8), byte(bh>>16))
		b = append(b, payload[:n]...)
		payload = payload[n:]
		if last == 1 {
			return b
		}
	}
}

// windowDescriptor encodes a power-of-two window of 2^log bytes.
func windowDescriptor(log int) byte { return byte(log-10) << 3 }

func TestZstdWindowCapped(t *testing.T) {
	capture := pcapOf(t, handshake(0, 1000, 5000))
	fcs8 := func(n uint64) []byte { return binary.LittleEndian.AppendUint64([]byte{0xe0}, n) }
	tests := []struct {
		name   string
		frames []byte
		ok     bool
	}{
		{"window 2^29", zstdRawFrame([]byte{0x00, windowDescriptor(29)}, capture), false},
		{"window 2^40", zstdRawFrame([]byte{0x00, windowDescriptor(40)}, capture), false},
		{"window just above 128 MiB", zstdRawFrame([]byte{0x00, windowDescriptor(27) | 1}, capture), false},
		{"single segment of 1 GiB", zstdRawFrame(fcs8(1<<30), capture), false},
		{"window 128 MiB", zstdRawFrame([]byte{0x00, windowDescriptor(27)}, capture), true},
		{"window 1 MiB", zstdRawFrame([]byte{0x00, windowDescriptor(20)}, capture), true},
		{"single segment of the capture's size", zstdRawFrame(fcs8(uint64(len(capture))), capture), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r, err := NewReader(bytes.NewReader(tt.frames))
			if !tt.ok {
				if err == nil {
					t.Fatal("accepted")
				}
				if msg := err.Error(); !strings.HasPrefix(msg, "zstd: ") || !strings.Contains(msg, "128 MiB") {
					t.Errorf("error %q: want it to name zstd and the 128 MiB limit", msg)
				}
				runtime.ReadMemStats(&after)
				if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
					t.Errorf("refusing the frame allocated %d MB", grew>>20)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sc := NewScanner(r)
			n := 0
			for sc.Scan() {
				n++
			}
			if err := sc.Err(); err != nil || n != 3 {
				t.Errorf("%d segments, error %v; want 3 and none", n, err)
			}
		})
	}
}

// TestZstdWindowCappedInLaterFrame: a frame after the first one asking for
// a huge window ends the scan with an error naming the packet, zstd and
// the limit; the packets before it are returned.
func TestZstdWindowCappedInLaterFrame(t *testing.T) {
	capture := pcapOf(t, handshake(0, 1000, 5000))
	// First frame: the file header and the first record; second frame,
	// with a 2^29 window, the rest.
	recLen := 16 + int(binary.LittleEndian.Uint32(capture[24+8:]))
	hdr, rest := capture[:24+recLen], capture[24+recLen:]
	data := append(zstdRawFrame([]byte{0x00, windowDescriptor(20)}, hdr), zstdRawFrame([]byte{0x00, windowDescriptor(29)}, rest)...)
	n, sc := scanCount(t, data)
	err := sc.Err()
	if err == nil || !strings.HasPrefix(err.Error(), "packet 2: zstd: ") || !strings.Contains(err.Error(), "128 MiB") {
		t.Errorf("error %v: want packet 2, zstd and the 128 MiB limit", err)
	}
	if n != 1 {
		t.Errorf("%d segments before the error, want 1", n)
	}
}

// TestDecompressionStreams reads a gzip and a zstd capture whose expansion
// is far larger than what the reader may hold: memory must stay flat, so
// neither decompressor nor the record reader buffers the expansion.
func TestDecompressionStreams(t *testing.T) {
	expansion := 96 << 20
	if raceEnabled {
		expansion = 16 << 20
	}
	file := pcapOf(t, bulkTransfer(t, 4000))
	records := file[24:]
	for _, kind := range []string{"gzip", "zstd"} {
		t.Run(kind, func(t *testing.T) {
			pr, pw := io.Pipe()
			go func() {
				var w io.WriteCloser
				if kind == "gzip" {
					w, _ = gzip.NewWriterLevel(pw, gzip.BestSpeed)
				} else {
					w, _ = zstd.NewWriter(pw, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
				}
				w.Write(file[:24])
				for n := 0; n < expansion; n += len(records) {
					if _, err := w.Write(records); err != nil {
						pw.CloseWithError(err)
						return
					}
				}
				pw.CloseWithError(w.Close())
			}()
			r, err := NewReader(pr)
			if err != nil {
				t.Fatal(err)
			}
			if r.Compression() != kind {
				t.Fatalf("compression %q", r.Compression())
			}
			sc := NewScanner(r)
			var ms runtime.MemStats
			var peak uint64
			for i := 0; sc.Scan(); i++ {
				if i%200000 == 0 {
					// What the reading holds (the heap live after a
					// collection): the heap in use also counts garbage the
					// collector has not reached yet, more of it the more
					// loaded the machine (52 MB once, beside other runs).
					runtime.GC()
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapAlloc)
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d MB expanded, %d packets, peak live heap %.1f MB", expansion>>20, sc.Packets(), float64(peak)/1e6)
			if peak > 32<<20 {
				t.Errorf("peak live heap %.1f MB while reading %d MB", float64(peak)/1e6, expansion>>20)
			}
		})
	}
}

// A compressed capture cut before its header decompresses (a zstd file
// of one block, gzip within its first bytes) says so, naming the
// compression; it said "unexpected EOF" alone ("gzip: unexpected EOF" in
// gzip's header), or "not a capture file" when a few bytes came out (found by the tester: head -c 30 of a
// .pcap.zst and of a .pcap.gz).
func TestCompressedCutBeforeHeader(t *testing.T) {
	capture := pcapOf(t, handshake(0, 1000, 5000))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(capture)
	zw.Close()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zs := enc.EncodeAll(capture, nil)
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"gzip", gz.Bytes()[:5]}, // in gzip's own header
		{"gzip", gz.Bytes()[:12]},
		{"zstd", zs[:len(zs)/2]},
	} {
		_, err := NewReader(bytes.NewReader(c.data))
		want := c.name + ": truncated before the capture's header (file ends inside it)"
		if err == nil || err.Error() != want {
			t.Errorf("%s cut short: error %v, want %q", c.name, err, want)
		}
	}
}
