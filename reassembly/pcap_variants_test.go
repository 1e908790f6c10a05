package reassembly

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"
)

// variantOf is capture (a classic pcap, little-endian, in microseconds)
// written as a patched libpcap would: magic as given, each record header
// followed by extra bytes (here the interface index, protocol and
// packet type of Kuznetsov's header, or as many bytes of them).
func variantOf(t testing.TB, capture []byte, magic uint32, extra int) []byte {
	t.Helper()
	out := binary.LittleEndian.AppendUint32(nil, magic)
	out = append(out, capture[4:24]...)
	for at := 24; at < len(capture); {
		n := 16 + int(binary.LittleEndian.Uint32(capture[at+8:]))
		out = append(out, capture[at:at+16]...)
		out = append(out, []byte{2, 0, 0, 0, 0x08, 0x00, 4, 0, 0xcc, 0xdd, 0xee, 0xff}[:extra]...)
		out = append(out, capture[at+16:at+n]...)
		at += n
	}
	return out
}

// recordsOf is every record of capture: time, lengths and bytes.
func recordsOf(t *testing.T, capture []byte) []Packet {
	t.Helper()
	r, err := NewReader(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	var out []Packet
	for r.Next() {
		pk := *r.Packet()
		pk.Data = bytes.Clone(pk.Data)
		out = append(out, pk)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPcapVariants: the files of the patched libpcaps Wireshark reads
// (editcap -F modpcap, rh6_1pcap, suse6_3pcap, nokiapcap write them) read
// as the same records as the plain file they were made from; they were
// refused (the modified magic) or read as corrupt at packet 2.
func TestPcapVariants(t *testing.T) {
	plain, err := os.ReadFile("../testdata/geo_short.pcap")
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint32(plain) != 0xa1b2c3d4 {
		t.Fatalf("want a little-endian microsecond pcap, magic %#x", binary.LittleEndian.Uint32(plain))
	}
	want := recordsOf(t, plain)
	for _, c := range []struct {
		name  string
		magic uint32
		extra int
	}{
		{"modified (SS991029)", 0xa1b2cd34, 8},
		{"SuSE 6.3 (SS990915)", 0xa1b2cd34, 12},
		{"Red Hat 6.1 (SS990417)", 0xa1b2c3d4, 8},
		{"Nokia", 0xa1b2c3d4, 4},
	} {
		got := recordsOf(t, variantOf(t, plain, c.magic, c.extra))
		if len(got) != len(want) {
			t.Errorf("%s: %d records, want %d", c.name, len(got), len(want))
			continue
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Time != w.Time || g.CapLen != w.CapLen || g.WireLen != w.WireLen || !bytes.Equal(g.Data, w.Data) {
				t.Errorf("%s: record %d differs", c.name, i+1)
				break
			}
		}
	}
}
