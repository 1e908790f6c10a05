// Package capturetest opens capture files for tests of the packages above
// reassembly (reassembly's own tests cannot import it).
package capturetest

import (
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"tcpviz/reassembly"
)

// Opener returns a function that opens the capture at path for one pass
// (as analyze.Load and analyze.Run want it); each file opened is closed
// when the test ends. A missing or unreadable file fails the test.
func Opener(t testing.TB, path string) func() (*reassembly.Reader, error) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	return func() (*reassembly.Reader, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { f.Close() })
		return reassembly.NewReader(f)
	}
}

// Reader opens the capture at path for one pass; a missing or unreadable
// file fails the test.
func Reader(t testing.TB, path string) *reassembly.Reader {
	t.Helper()
	r, err := Opener(t, path)()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// Frame is one frame of a classic pcap file, as Frames reads it.
type Frame struct {
	CI   gopacket.CaptureInfo
	Data []byte
}

// Frames reads every frame of the classic pcap file at path (gzipped if
// its name ends in .gz), with the file's link type and snapshot length,
// for tests that write captures of their own from it.
func Frames(t testing.TB, path string) (frames []Frame, link layers.LinkType, snaplen uint32) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		in = zr
	}
	r, err := pcapgo.NewReader(in)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for {
		data, ci, err := r.ReadPacketData()
		if err == io.EOF {
			return frames, r.LinkType(), r.Snaplen()
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		frames = append(frames, Frame{ci, append([]byte(nil), data...)})
	}
}

// WriteFrames writes frames to a classic pcap file at path with the given
// link type and snapshot length: a capture of a test's own, cut or edited
// from one Frames read.
func WriteFrames(t testing.TB, path string, frames []Frame, link layers.LinkType, snaplen uint32) {
	t.Helper()
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w := pcapgo.NewWriter(out)
	if err := w.WriteFileHeader(snaplen, link); err != nil {
		t.Fatal(err)
	}
	for _, fr := range frames {
		if err := w.WritePacket(fr.CI, fr.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
