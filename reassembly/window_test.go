package reassembly

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/klauspost/compress/zstd"

	"tcpviz/internal/golden"
)

// readDigest is all a Reader gives of a capture: the format, a hash of
// every packet's fields and bytes, the comments, and how it ended.
type readDigest struct {
	head, end string
	packets   []uint64
}

func digestOf(r *Reader, err error) readDigest {
	if err != nil {
		return readDigest{head: "open: " + err.Error()}
	}
	defer r.Close()
	d := readDigest{head: fmt.Sprintf("%s %q %v", r.Format(), r.Compression(), r.Comments())}
	h := fnv.New64a()
	var b []byte
	for r.Next() {
		p := r.Packet()
		b = binary.LittleEndian.AppendUint64(b[:0], uint64(p.Number))
		b = binary.LittleEndian.AppendUint64(b, uint64(p.Time))
		b = binary.LittleEndian.AppendUint64(b, uint64(p.Interface))
		b = binary.LittleEndian.AppendUint64(b, uint64(p.CapLen))
		b = binary.LittleEndian.AppendUint64(b, uint64(p.WireLen))
		b = binary.LittleEndian.AppendUint64(b, uint64(p.LinkType))
		b = append(b, byte(len(p.Data)), fmt.Sprint(p.NoTime)[0], fmt.Sprint(p.BadTime)[0])
		h.Reset()
		h.Write(b)
		h.Write(p.Data)
		d.packets = append(d.packets, h.Sum64())
	}
	d.end = fmt.Sprintf("%v %v", r.Err(), r.Comments())
	return d
}

// diff says where got differs from want ("" if nowhere).
func (want readDigest) diff(got readDigest) string {
	if got.head != want.head {
		return fmt.Sprintf("opened %q, want %q", got.head, want.head)
	}
	for i := range min(len(got.packets), len(want.packets)) {
		if got.packets[i] != want.packets[i] {
			return fmt.Sprintf("packet %d differs", i+1)
		}
	}
	if len(got.packets) != len(want.packets) || got.end != want.end {
		return fmt.Sprintf("%d packets, then %q; want %d, then %q", len(got.packets), got.end, len(want.packets), want.end)
	}
	return ""
}

// readAheadOf reads src ahead as NewReaderAhead does on several cores,
// whatever GOMAXPROCS is.
func readAheadOf(src io.Reader) (*Reader, error) {
	a := startReadAhead(src)
	return newReader(&window{ahead: a}, a.stop)
}

// chunked hands data out in reads of 1 to max bytes (seeded), so that
// records cross the blocks read ahead anywhere.
type chunked struct {
	data []byte
	rng  *rand.Rand
	max  int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), 1+c.rng.IntN(c.max))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// sources are the ways a capture's bytes come to the reader: whole, in
// random pieces of up to 100 bytes or up to 300 KB (more than a block
// read ahead), with the last piece carrying io.EOF, and a byte at a time
// (small inputs only).
func sources(data []byte, seed uint64) map[string]io.Reader {
	s := map[string]io.Reader{
		"whole":        bytes.NewReader(data),
		"pieces<=100":  &chunked{data, rand.New(rand.NewPCG(seed, 1)), 100},
		"pieces<=300K": &chunked{data, rand.New(rand.NewPCG(seed, 2)), 300 << 10},
		"data+EOF":     iotest.DataErrReader(bytes.NewReader(data)),
	}
	if len(data) <= 64<<10 {
		s["bytes"] = iotest.OneByteReader(bytes.NewReader(data))
	}
	return s
}

// sameReadAhead fails unless reading data ahead, from each source, gives
// what reading it in place does.
func sameReadAhead(t *testing.T, name string, data []byte, seed uint64) {
	t.Helper()
	want := digestOf(NewReader(bytes.NewReader(data)))
	for how, src := range sources(data, seed) {
		if d := want.diff(digestOf(readAheadOf(src))); d != "" {
			t.Fatalf("%s read ahead (%s): %s", name, how, d)
		}
	}
	if d := want.diff(digestOf(NewReader(&chunked{data, rand.New(rand.NewPCG(seed, 3)), 100}))); d != "" {
		t.Fatalf("%s read in pieces of up to 100 bytes: %s", name, d)
	}
}

// TestReadAheadReadsAsInPlace: every bundled capture (and the shared
// corpus's, when it is there), whole and cut short at a few places, reads
// the same packets, bytes, comments and end read ahead from sources that
// hand it out in pieces of every size as read in place.
func TestReadAheadReadsAsInPlace(t *testing.T) {
	before := runtime.NumGoroutine()
	names := golden.Bundled()
	if golden.CorpusPresent() {
		names = golden.Captures()
	} else {
		t.Log("../shared/captures absent: the bundled captures only")
	}
	read := 0
	for i, n := range names {
		data, err := os.ReadFile(n)
		if err != nil || !Sniff(data[:min(len(data), 8)]) {
			continue
		}
		if len(data) > 1<<20 {
			data = data[:1<<20] // cut: the end is another case below
		}
		read++
		sameReadAhead(t, n, data, uint64(i))
		rng := rand.New(rand.NewPCG(uint64(i), 4))
		for range 3 {
			cut := rng.IntN(len(data) + 1)
			sameReadAhead(t, fmt.Sprintf("%s cut at %d", n, cut), data[:cut], uint64(i))
		}
	}
	if read < 50 {
		t.Fatalf("only %d captures read", read)
	}
	noneLeft(t, before)
}

// TestReadAheadStops: the reading goroutine ends when the reader is
// closed before the end of an endless input, and at an error.
func TestReadAheadStops(t *testing.T) {
	before := runtime.NumGoroutine()
	hdr := pcapOf(t, handshake(0, 1000, 5000))
	readThree(t, "endless", io.MultiReader(bytes.NewReader(hdr), endless{}))
	// Compressed: the goroutine decompressing ahead stops too.
	var raw bytes.Buffer
	raw.Write(hdr)
	raw.Write(make([]byte, 8<<20))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw.Bytes())
	zw.Close()
	zs, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	readThree(t, "gzip", bytes.NewReader(gz.Bytes()))
	readThree(t, "zstd", bytes.NewReader(zs.EncodeAll(raw.Bytes(), nil)))
	// Compressed, from a pipe that sends the start of the stream (less
	// than a block decompressed) and waits: Close ends the goroutine
	// decompressing, which waits for more.
	pr, pw := io.Pipe()
	go func() {
		zw := gzip.NewWriter(pw)
		zw.Write(raw.Bytes()[:20<<10])
		zw.Flush()
	}()
	readThree(t, "gzip from a pipe", pr)
	pw.Close() // the reading goroutine, in the pipe's Read, ends
	// An input that fails: the goroutine ends with it.
	rd2, err := readAheadOf(io.MultiReader(bytes.NewReader(hdr), iotest.ErrReader(io.ErrClosedPipe)))
	if err != nil {
		t.Fatal(err)
	}
	for rd2.Next() {
	}
	if rd2.Err() == nil || !strings.Contains(rd2.Err().Error(), "closed pipe") {
		t.Fatalf("got %v, want the input's error", rd2.Err())
	}
	noneLeft(t, before)
}

// readThree reads three packets of src ahead and closes the reader.
func readThree(t *testing.T, what string, src io.Reader) {
	t.Helper()
	rd, err := readAheadOf(src)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for n := 0; n < 3; n++ {
		if !rd.Next() {
			t.Fatalf("%s: packet %d: %v", what, n+1, rd.Err())
		}
	}
	rd.Close()
}

// noneLeft fails unless the goroutines started since there were before
// have ended (within 5 s).
func noneLeft(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left running, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// TestReaderGivesUpOnEmptyReads: a reader whose reads give neither bytes
// nor an error, after the file header or from the start, ends the reading
// with io.ErrNoProgress, read in place and ahead.
func TestReaderGivesUpOnEmptyReads(t *testing.T) {
	before := runtime.NumGoroutine()
	hdr := pcapOf(t, handshake(0, 1000, 5000))
	for _, open := range []func(io.Reader) (*Reader, error){NewReader, readAheadOf} {
		rd, err := open(io.MultiReader(bytes.NewReader(hdr), nothing{}))
		if err != nil {
			t.Fatal(err)
		}
		for rd.Next() {
		}
		if err := rd.Err(); err == nil || !strings.Contains(err.Error(), "multiple Read calls return no data or error") {
			t.Errorf("after the header: %v, want io.ErrNoProgress", err)
		}
		if _, err := open(nothing{}); err == nil || !strings.Contains(err.Error(), "multiple Read calls") {
			t.Errorf("from the start: %v, want io.ErrNoProgress", err)
		}
	}
	noneLeft(t, before)
}

// nothing's reads give neither bytes nor an error.
type nothing struct{}

func (nothing) Read([]byte) (int, error) { return 0, nil }

// endless reads zero bytes for ever: the record data of a capture that
// does not end.
type endless struct{}

func (endless) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// FuzzReadAhead: on any bytes, reading ahead from pieces of any size
// reads what reading in place does.
func FuzzReadAhead(f *testing.F) {
	f.Add(pcapOf(f, handshake(0, 1000, 5000)), uint64(1))
	f.Add(pcapngOf(f, handshake(0, 0xfffffff0, 5000)), uint64(2))
	seedCaptures(f, func(b []byte) { f.Add(b, uint64(len(b))) })
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		sameReadAhead(t, "input", data, seed)
	})
}
