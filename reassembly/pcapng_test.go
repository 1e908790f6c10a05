package reassembly

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"tcpviz/internal/golden"
	"tcpviz/scripts/pcapngcraft"
)

// epochNs parses a frame.time_epoch as tshark prints it ("1700000000.123456789",
// "-5.000000000") into nanoseconds since 1970, modulo 2^64 as Packet.Time
// holds times beyond 64 bits.
func epochNs(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	whole, frac, ok := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if !ok || len(frac) != 9 {
		return 0, fmt.Errorf("time %q: want 9 decimals", s)
	}
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("time %q: not a number", s)
	}
	if neg {
		return -w*1e9 - f, nil // wraps as ours do
	}
	return w*1e9 + f, nil
}

// TestFrameTimesMatchTshark: every frame of every capture with a tshark
// golden has tshark's frame.time_epoch to the nanosecond (bundled pcapng
// captures of every if_tsresol and if_tsoffset layout included), and
// tshark's frame.interface_id; a frame tshark gives no time (a simple
// packet block) is one we say has none.
func TestFrameTimesMatchTshark(t *testing.T) {
	var cases golden.Cases
	defer cases.Check(t, 4)
	files, err := golden.All()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, g := range files {
		t.Run(g.Name, func(t *testing.T) {
			cases.Need(t, g.Capture)
			r, done := openCapture(t, g.Capture)
			defer done()
			type seen struct {
				time          int64
				noTime, isNg  bool
				iface, number int64
			}
			ours := map[int64]seen{}
			for r.Next() {
				p := r.Packet()
				ours[p.Number] = seen{p.Time, p.NoTime, r.Format() == FormatPcapNG, int64(p.Interface), p.Number}
			}
			var problems []string
			for _, fr := range g.Frames() {
				n := fr.Int("frame")
				got, ok := ours[n]
				if !ok {
					problems = append(problems, fmt.Sprintf("frame %d: not read", n))
					continue
				}
				checked++
				if s := fr.Str("time_epoch"); s == "" {
					if !got.noTime {
						problems = append(problems, fmt.Sprintf("frame %d: tshark gives no time, we say it has one", n))
					}
				} else if want, err := epochNs(s); err != nil {
					t.Fatal(err)
				} else if got.time != want || got.noTime {
					problems = append(problems, fmt.Sprintf("frame %d: time %d ns (no time: %v), tshark %s", n, got.time, got.noTime, s))
				}
				if iface := fr.Str("iface"); got.isNg && iface != strconv.FormatInt(got.iface, 10) {
					problems = append(problems, fmt.Sprintf("frame %d: interface %d, tshark %q", n, got.iface, iface))
				}
			}
			if len(problems) > 0 {
				if len(problems) > 8 {
					problems = append(problems[:8], fmt.Sprintf("... and %d more", len(problems)-8))
				}
				t.Errorf("%d frames differ from tshark:\n%s", len(problems), strings.Join(problems, "\n"))
			}
		})
	}
	t.Logf("%d frames checked", checked)
}

// pcapngTimesGoldens are the crafted captures of testdata/pcapng; each
// must have a golden, for TestFrameTimesMatchTshark and the other
// differential tests to compare it.
func TestPcapngTimesCapturesHaveGoldens(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(golden.Testdata(), "pcapng", "*.pcapng"))
	if len(names) < 12 {
		t.Fatalf("%d crafted pcapng captures in testdata/pcapng, want 12 or more", len(names))
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(golden.Dir(), golden.GoldenName(n)+".tsv.gz")); err != nil {
			t.Errorf("%s: no tshark golden (scripts/tshark-golden.sh %s)", filepath.Base(n), n)
		}
	}
}

// transfer is the short transfer the in-memory captures here hold.
func transfer() []pcapngcraft.Packet {
	return pcapngcraft.Transfer{Start: 1_700_000_000e9, RTT: 40e6, Gap: 1e6, Segments: 2, MSS: 200, Payload: true,
		Client: [4]byte{10, 1, 0, 1}, Server: [4]byte{10, 2, 0, 2}, CPort: 1, SPort: 2}.Packets()
}

// ngFile builds a one-section pcapng of transfer(): interface opts, each
// packet written by put (nil: an EPB in µs).
func ngFile(big bool, ifaces [][]pcapngcraft.Option, put func(f *pcapngcraft.File, i int, p pcapngcraft.Packet, frame []byte, wire uint32)) []byte {
	var f pcapngcraft.File
	f.Section(big)
	for _, opts := range ifaces {
		f.Interface(pcapngcraft.LinkEthernet, 0, opts...)
	}
	for i, p := range transfer() {
		fr, w := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
		if put != nil {
			put(&f, i, p, fr, w)
		} else {
			f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
		}
	}
	return f.Bytes()
}

type readResult struct {
	times  []int64
	noTime []bool
	bad    []bool
	frames []int64
	err    string
}

func readAll(t *testing.T, data []byte) readResult {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return readResult{err: "open: " + err.Error()}
	}
	var res readResult
	for r.Next() {
		p := r.Packet()
		res.times = append(res.times, p.Time)
		res.noTime = append(res.noTime, p.NoTime)
		res.bad = append(res.bad, p.BadTime)
		res.frames = append(res.frames, p.Number)
	}
	if err := r.Err(); err != nil {
		res.err = err.Error()
		if strings.Contains(res.err, "\n") {
			t.Errorf("error spans lines: %q", res.err)
		}
	}
	return res
}

// TestPcapngAsWireshark: crafted files, each read as tshark 4.0.17 reads
// it (the values in the comments are what tshark printed for
// frame.time_epoch, or its error).
func TestPcapngAsWireshark(t *testing.T) {
	ps := transfer()
	t0 := ps[0].Time / 1e3 * 1e3 // µs
	t.Run("if_tsresol twice: the first counts", func(t *testing.T) {
		// tshark: 1700000000.000002944 (10^-9, not 10^-3)
		data := ngFile(false, [][]pcapngcraft.Option{{pcapngcraft.TSResol(9), pcapngcraft.TSResol(3)}}, func(f *pcapngcraft.File, i int, p pcapngcraft.Packet, fr []byte, w uint32) {
			f.EPB(0, pcapngcraft.Ticks(p.Time, 9), w, fr)
		})
		if r := readAll(t, data); r.err != "" || r.times[0] != ps[0].Time {
			t.Errorf("%+v, want %d first", r, ps[0].Time)
		}
	})
	t.Run("if_tsresol of 2 bytes is ignored", func(t *testing.T) {
		// tshark: 1700000000.000002000 (µs, the default)
		data := ngFile(false, [][]pcapngcraft.Option{{{Code: 9, Value: []byte{9, 0}}}}, nil)
		if r := readAll(t, data); r.err != "" || r.times[0] != t0 {
			t.Errorf("%+v, want %d first", r, t0)
		}
	})
	t.Run("if_tsoffset twice: the first counts", func(t *testing.T) {
		// tshark: 1700000100.000002000
		var f pcapngcraft.File
		f.Section(false)
		data := ngFile(false, [][]pcapngcraft.Option{{f.TSOffset(100), f.TSOffset(200)}}, nil)
		if r := readAll(t, data); r.err != "" || r.times[0] != t0+100e9 {
			t.Errorf("%+v, want %d first", r, t0+100e9)
		}
	})
	t.Run("if_tsoffset big-endian", func(t *testing.T) {
		var f pcapngcraft.File
		f.Section(true)
		data := ngFile(true, [][]pcapngcraft.Option{{f.TSOffset(-100)}}, nil)
		if r := readAll(t, data); r.err != "" || r.times[0] != t0-100e9 {
			t.Errorf("%+v, want %d first", r, t0-100e9)
		}
	})
	t.Run("version 1.2 is read", func(t *testing.T) {
		data := ngFile(false, [][]pcapngcraft.Option{nil}, nil)
		data[14] = 2 // minor version, little-endian
		if r := readAll(t, data); r.err != "" || len(r.times) != len(ps) {
			t.Errorf("%+v", r)
		}
	})
	// Damage at packet 3: tshark shows 2 packets, then its error.
	for _, tc := range []struct {
		name, err string
		put       func(f *pcapngcraft.File, p pcapngcraft.Packet, fr []byte, w uint32)
	}{
		// (pcapng: total block lengths (first 88 and second 92) don't match)
		{"block lengths differ", "packet 3: pcapng block at byte 248: block lengths differ (88 at the start, 92 at the end)",
			func(f *pcapngcraft.File, p pcapngcraft.Packet, fr []byte, w uint32) {
				f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
				b := f.Bytes()
				b[len(b)-4]++
			}},
		// (pcapng: total block lengths (first 76 and second 0) don't match)
		{"simple packet block longer than its data", "packet 3: pcapng block at byte 248: block lengths differ (76 at the start, 0 at the end)",
			func(f *pcapngcraft.File, p pcapngcraft.Packet, fr []byte, w uint32) {
				f.Block(pcapngcraft.BlockSPB, append(append(f.U32(w), fr...), 0, 0, 0, 0))
			}},
		// (pcapng: packet block flags option length 2 is not 4)
		{"flags option of 2 bytes", "packet 3: pcapng block at byte 248: packet option 2 of 2 bytes, not 4",
			func(f *pcapngcraft.File, p pcapngcraft.Packet, fr []byte, w uint32) {
				f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr, pcapngcraft.Option{Code: 2, Value: []byte{1, 2}})
			}},
		// (pcapng: interface index 1 is not less than section interface count 1)
		{"interface that is not there", "packet 3: pcapng block at byte 248: packet of interface 1, but its section has 1",
			func(f *pcapngcraft.File, p pcapngcraft.Packet, fr []byte, w uint32) {
				f.EPB(1, pcapngcraft.Ticks(p.Time, 6), w, fr)
			}},
		// (pcapng: Not enough data to handle option of length 200)
		{"option running past its block", "packet 3: pcapng block at byte 248: option 1 of 200 bytes runs past the end of its block",
			func(f *pcapngcraft.File, p pcapngcraft.Packet, fr []byte, w uint32) {
				f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr, pcapngcraft.Option{Code: 1, Value: []byte("comment")})
				b := f.Bytes()
				b[len(b)-18] = 200 // the comment's length
			}},
		// (pcapng: cap_len 300000 is larger than 262144)
		{"captured length above the maximum", "packet 3: pcapng block at byte 248: packet of 300000 captured bytes, more than the maximum of 262144",
			func(f *pcapngcraft.File, p pcapngcraft.Packet, fr []byte, w uint32) {
				f.EPB(0, pcapngcraft.Ticks(p.Time, 6), 300000, make([]byte, 300000))
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := ngFile(false, [][]pcapngcraft.Option{nil}, func(f *pcapngcraft.File, i int, p pcapngcraft.Packet, fr []byte, w uint32) {
				if i == 2 {
					tc.put(f, p, fr, w)
					return
				}
				f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
			})
			r := readAll(t, data)
			if len(r.times) != 2 || r.err != tc.err {
				t.Errorf("%d packets, error %q; want 2, %q", len(r.times), r.err, tc.err)
			}
		})
	}
	t.Run("cut inside a block", func(t *testing.T) {
		data := ngFile(false, [][]pcapngcraft.Option{nil}, nil)
		r := readAll(t, data[:len(data)-10])
		if want := fmt.Sprintf("packet %d: pcapng block at byte %d: truncated block (file ends inside it)", len(ps), len(data)-88); len(r.times) != len(ps)-1 || r.err != want {
			t.Errorf("%d packets, error %q; want %d, %q", len(r.times), r.err, len(ps)-1, want)
		}
	})
	t.Run("resolutions 64 bits cannot hold", func(t *testing.T) {
		// 2^-63, 10^-19, 2^-64 (2^64-1 units a second), one packet on each
		// in turn; tshark: 1.000000001, 1.000000000, 0.000000000,
		// 1.000000001, 1.000000000, 0.000000000.
		data := ngFile(false, [][]pcapngcraft.Option{{pcapngcraft.TSResol(0x80 | 63)}, {pcapngcraft.TSResol(19)}, {pcapngcraft.TSResol(0x80 | 64)}},
			func(f *pcapngcraft.File, i int, p pcapngcraft.Packet, fr []byte, w uint32) {
				if i < 6 {
					f.EPB(uint32(i%3), 0xfedcba9876543210+uint64(i)*0x1111111111111, w, fr)
				}
			})
		r := readAll(t, data)
		want := []int64{1_000_000_001, 1e9, 0, 1_000_000_001, 1e9, 0}
		if r.err != "" || fmt.Sprint(r.times) != fmt.Sprint(want) {
			t.Errorf("%+v, want times %v", r, want)
		}
	})
	t.Run("times beyond 64-bit nanoseconds", func(t *testing.T) {
		// 10^0, and 2^0 with an offset of -2^62 s; tshark:
		// -81985529216486896.000000000, -4693371307668716767.000000000, ...
		var f pcapngcraft.File
		f.Section(false)
		data := ngFile(false, [][]pcapngcraft.Option{{pcapngcraft.TSResol(0)}, {pcapngcraft.TSResol(0x80), f.TSOffset(-1 << 62)}},
			func(f *pcapngcraft.File, i int, p pcapngcraft.Packet, fr []byte, w uint32) {
				if i < 2 {
					f.EPB(uint32(i%2), 0xfedcba9876543210+uint64(i)*0x1111111111111, w, fr)
				}
			})
		r := readAll(t, data)
		w0, _ := epochNs("-81985529216486896.000000000")
		w1, _ := epochNs("-4693371307668716767.000000000")
		if r.err != "" || len(r.times) != 2 || r.times[0] != w0 || r.times[1] != w1 || !r.bad[0] || !r.bad[1] {
			t.Errorf("%+v, want %d and %d, both bad", r, w0, w1)
		}
	})
	t.Run("custom blocks are frames", func(t *testing.T) {
		// Wireshark numbers custom, Sysdig and systemd journal blocks as
		// frames; DSBs, NRBs, ISBs and unknown blocks are not (tshark:
		// frames 1 to 6, the second packet frame 6).
		var f pcapngcraft.File
		f.Section(false)
		f.Interface(pcapngcraft.LinkEthernet, 0)
		put := func(p pcapngcraft.Packet) {
			fr, w := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
		}
		put(ps[0])
		f.Block(pcapngcraft.BlockCB, append(f.U32(32473), 1, 2, 3))
		f.Block(0x40000bad, f.U32(32473))
		f.Block(0x204, make([]byte, 24))
		f.Block(9, []byte("__REALTIME_TIMESTAMP=1\n\x00\x00"))
		f.Block(pcapngcraft.BlockDSB, append(f.U32(0x544c534b), append(f.U32(3), 'a', 'b', 'c')...))
		f.NRB([4]byte{10, 1, 0, 1}, "client")
		f.ISB(0, 0)
		f.Block(0x4242, nil)
		put(ps[1])
		if r := readAll(t, f.Bytes()); r.err != "" || fmt.Sprint(r.frames) != "[1 6]" {
			t.Errorf("%+v, want frames 1 and 6", r)
		}
	})
}

// TestSimplePacketBlockTimes: a packet without a timestamp takes the time
// of the packet with one before it; those before the first with one take
// its time; when none has one, all are at 0. The durations and RTTs that
// follow are the capture's, never the years back to 1970 (tshark counts
// them as at 1970: its ack_rtt on the first EPB after two leading SPBs
// is 1700000000.040258000 s).
func TestSimplePacketBlockTimes(t *testing.T) {
	ps := transfer()
	spbAt := func(which ...int) []byte {
		return ngFile(false, [][]pcapngcraft.Option{{pcapngcraft.TSResol(9)}}, func(f *pcapngcraft.File, i int, p pcapngcraft.Packet, fr []byte, w uint32) {
			for _, k := range which {
				if k == i || k < 0 {
					f.SPB(w, fr)
					return
				}
			}
			f.EPB(0, pcapngcraft.Ticks(p.Time, 9), w, fr)
		})
	}
	for _, tc := range []struct {
		name string
		spb  []int
		want func(i int) int64 // the time of packet i
	}{
		{"leading", []int{0, 1}, func(i int) int64 { return ps[max(i, 2)].Time }},
		{"between", []int{3, 5, 6}, func(i int) int64 {
			for i == 3 || i == 5 || i == 6 {
				i--
			}
			return ps[i].Time
		}},
		{"all", []int{-1}, func(int) int64 { return 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := spbAt(tc.spb...)
			r := readAll(t, data)
			if r.err != "" || len(r.times) != len(ps) {
				t.Fatalf("%+v", r)
			}
			for i := range ps {
				isSPB := false
				for _, k := range tc.spb {
					isSPB = isSPB || k == i || k < 0
				}
				if r.times[i] != tc.want(i) || r.noTime[i] != isSPB || r.frames[i] != int64(i+1) {
					t.Errorf("packet %d: time %d, no time %v, frame %d; want %d, %v, %d", i, r.times[i], r.noTime[i], r.frames[i], tc.want(i), isSPB, i+1)
				}
			}
			sc := NewScanner(mustReader(t, data))
			var first, last int64 = -1, 0
			for sc.Scan() {
				if first < 0 {
					first = sc.Segment().Time
				}
				last = sc.Segment().Time
			}
			st := sc.Stats()
			if d := last - first; d < 0 || d > 1e9 {
				t.Errorf("the transfer spans %d ns", d)
			}
			if want := int64(len(tc.spb)); tc.spb[0] >= 0 && st.NoTime != want || st.FirstNoTime != int64(max(tc.spb[0], 0)+1) {
				t.Errorf("stats %+v: want the packets without time counted", st)
			}
		})
	}
	t.Run("more held back than kept", func(t *testing.T) {
		defer func(n int) { maxHeld = n }(maxHeld)
		maxHeld = 2
		r := readAll(t, spbAt(0, 1, 2))
		// The first two are released at 0 when the third comes; it
		// and the rest without time follow at 0 until a time comes.
		want := []int64{0, 0, 0, ps[3].Time}
		if r.err != "" || fmt.Sprint(r.times[:4]) != fmt.Sprint(want) {
			t.Errorf("%+v, want %v first", r, want)
		}
	})
	t.Run("an error after held packets", func(t *testing.T) {
		data := spbAt(0, 1)
		data = data[:len(data)-300] // cut after a few packets
		r := readAll(t, data)
		if len(r.times) < 2 || r.times[0] != r.times[1] || !strings.HasPrefix(r.err, fmt.Sprintf("packet %d: ", len(r.times)+1)) {
			t.Errorf("%+v", r)
		}
	})
	t.Run("before any interface", func(t *testing.T) {
		// tshark: (pcapng: SPB appeared before any IDBs in the section)
		var f pcapngcraft.File
		f.Section(false)
		f.SPB(10, make([]byte, 10))
		if r := readAll(t, f.Bytes()); r.err != "packet 1: pcapng block at byte 28: simple packet block before any interface description block in its section" {
			t.Errorf("%+v", r)
		}
	})
}

func mustReader(t testing.TB, data []byte) *Reader {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// gopacketExact reports whether gopacket's pcapgo.NgReader converts the
// timestamps of interface f as wiretap does: one if_tsresol (or none) of
// one byte, not 10^0 (which it takes for 10^-6), units it scales by
// exactly (dividing 10^9, or 10^10), at most one if_tsoffset of 8 bytes.
func gopacketExact(f *ngIface) bool {
	return f.resols == f.resolLen1 && f.resols <= 1 && f.resol != 0 &&
		f.offsets == f.offLen && f.offsets <= 1 &&
		(1e9%f.units == 0 || f.units == 1e10)
}

// againstGopacket reads data with our reader and with gopacket's
// pcapgo.NgReader in step and returns how many packets both read and the
// first disagreement ("" when none): the packets both return must be the
// same (data, lengths, interface, link type, and the time wherever
// gopacket converts it as Wireshark does); where one stops first, ours
// may only stop with one of Wireshark's refusals (an ngError). Once a
// block is read that gopacket frames otherwise (ngReader.unlike), the
// comparison ends.
func againstGopacket(data []byte, limit int) (int, string) {
	ours, err := NewReader(bytes.NewReader(data))
	var in io.Reader = bytes.NewReader(data)
	if err == nil && ours.Compression() == "gzip" {
		if in, err = gzip.NewReader(bytes.NewReader(data)); err != nil {
			return 0, "gzip: " + err.Error()
		}
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "pcapng header: ") && !errors.Is(err, ErrNotCapture) {
			return 0, "open: " + err.Error()
		}
		return 0, ""
	}
	if ours.Format() != FormatPcapNG {
		return 0, "not pcapng"
	}
	theirs, gerr := pcapgo.NewNgReader(in, pcapgo.NgReaderOptions{WantMixedLinkType: true})
	if gerr != nil {
		return 0, ""
	}
	both := 0
	for ; both < limit; both++ {
		ok := ours.Next()
		if ours.ng.unlike {
			return both, ""
		}
		gd, ci, gerr := theirs.ZeroCopyReadPacketData()
		if !ok {
			err := ours.Err()
			var ne *ngError
			if err == nil && gerr == nil {
				return both, fmt.Sprintf("packet %d: we end, gopacket reads on", both+1)
			}
			if err != nil && !errors.As(err, &ne) {
				return both, fmt.Sprintf("we stop with %q, not a refusal of Wireshark's", err)
			}
			return both, ""
		}
		if gerr != nil {
			return both, "" // gopacket refuses more than Wireshark
		}
		p := ours.Packet()
		switch {
		case !bytes.Equal(p.Data, gd) || p.CapLen != ci.CaptureLength:
			return both, fmt.Sprintf("packet %d: %d bytes captured, gopacket %d, or other bytes", both+1, p.CapLen, ci.CaptureLength)
		case p.WireLen != max(ci.Length, ci.CaptureLength):
			return both, fmt.Sprintf("packet %d: %d bytes on the wire, gopacket %d", both+1, p.WireLen, ci.Length)
		case p.Interface != ci.InterfaceIndex:
			return both, fmt.Sprintf("packet %d: interface %d, gopacket %d", both+1, p.Interface, ci.InterfaceIndex)
		case len(ci.AncillaryData) != 1 || ci.AncillaryData[0] != p.LinkType:
			return both, fmt.Sprintf("packet %d: link type %d, gopacket %v", both+1, p.LinkType, ci.AncillaryData)
		}
		if p.NoTime || p.BadTime || p.Interface >= len(ours.ng.ifaces) || !gopacketExact(&ours.ng.ifaces[p.Interface]) {
			continue
		}
		if want := ci.Timestamp.UnixNano(); p.Time != want {
			return both, fmt.Sprintf("packet %d: time %d, gopacket %d", both+1, p.Time, want)
		}
	}
	return both, ""
}

// TestPcapngMatchesGopacket: on every pcapng capture bundled or in the
// shared corpus (where gopacket reads them right), our reader returns
// gopacket's packets, bytes, lengths, interfaces, link types and times,
// and stops where it stops.
func TestPcapngMatchesGopacket(t *testing.T) {
	files := 0
	packets := 0
	for _, path := range golden.Captures() {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(data))
		if err != nil || r.Format() != FormatPcapNG {
			continue
		}
		files++
		n, problem := againstGopacket(data, 1<<30)
		if problem != "" {
			t.Errorf("%s: after %d packets: %s", filepath.Base(path), n, problem)
		}
		packets += n
	}
	if least := golden.AtLeast(20, 13); files < least {
		t.Errorf("only %d pcapng captures compared, want %d", files, least)
	}
	t.Logf("%d pcapng captures, %d packets compared", files, packets)
}

// FuzzPcapNG: on any bytes, the pcapng reader never panics, ends (every
// read consumes input), reports an error in one line naming the packet,
// and agrees with gopacket's reader on what both read (againstGopacket).
func FuzzPcapNG(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join(golden.Testdata(), "pcapng", "*.pcapng"))
	names = append(names, filepath.Join(golden.Testdata(), "v6_short.pcapng"))
	for _, dir := range []string{"real", "lab", "malformed"} {
		m, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), dir, "*.pcapng"))
		names = append(names, m...)
	}
	for _, n := range names {
		if data, err := os.ReadFile(n); err == nil {
			f.Add(data[:min(len(data), 4096)])
		}
	}
	var cf pcapngcraft.File
	cf.Section(true)
	f.Add(ngFile(true, [][]pcapngcraft.Option{{pcapngcraft.TSResol(0x80 | 30), cf.TSOffset(-7)}, {pcapngcraft.TSResol(12)}}, func(f *pcapngcraft.File, i int, p pcapngcraft.Packet, fr []byte, w uint32) {
		switch i % 4 {
		case 0:
			f.SPB(w, fr)
		case 1:
			f.PB(1, 3, pcapngcraft.Ticks(p.Time, 12), w, fr)
		default:
			f.EPB(0, pcapngcraft.Ticks(p.Time, 0x80|30), w-10, fr, pcapngcraft.Option{Code: 2, Value: f.U32(1)})
		}
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, problem := againstGopacket(data, 5000); problem != "" {
			t.Fatal(problem)
		}
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("open error spans lines: %q", err)
			}
			return
		}
		last := int64(0)
		for n := 0; r.Next() && n < 100000; n++ {
			p := r.Packet()
			if p.Number <= last || p.CapLen != len(p.Data) || p.WireLen < p.CapLen {
				t.Fatalf("packet %d after %d: %d bytes, caplen %d, wire %d", p.Number, last, len(p.Data), p.CapLen, p.WireLen)
			}
			last = p.Number
		}
		if err := r.Err(); err != nil && (!strings.HasPrefix(err.Error(), "packet ") || strings.Contains(err.Error(), "\n")) {
			t.Fatalf("error %q: want one line naming the packet", err)
		}
	})
}

// TestPcapngReadLoopAllocatesNothing is TestReadLoopAllocatesNothing for
// pcapng: after warm-up, reading EPBs allocates nothing.
func TestPcapngReadLoopAllocatesNothing(t *testing.T) {
	hdr, records := pcapngBulk(t)
	scanAllocatesNothing(t, hdr, records)
}

// pcapngBulk is bulkTransfer as a pcapng: the section and interface
// blocks, and the packet blocks (ns resolution).
func pcapngBulk(t testing.TB) (hdr, records []byte) {
	var f pcapngcraft.File
	f.Section(false)
	f.Interface(uint16(layers.LinkTypeEthernet), 96, pcapngcraft.TSResol(9))
	hdr = bytes.Clone(f.Bytes())
	for _, p := range bulkTransfer(t, 4000) {
		fr := p.frame(t)
		wire := len(fr)
		if p.snap > 0 && len(fr) > p.snap {
			fr = fr[:p.snap]
		}
		f.EPB(0, uint64(testEpoch.Add(p.t).UnixNano()), uint32(wire), fr)
	}
	return hdr, f.Bytes()[len(hdr):]
}

// BenchmarkReadPcapNG is BenchmarkRead on a pcapng capture.
func BenchmarkReadPcapNG(b *testing.B) {
	hdr, records := pcapngBulk(b)
	benchScan(b, &cycleReader{header: hdr, records: records, inHeader: true})
}

// TestSectionComments: the section header's opt_comment values are what
// Comments gives, in their order and either byte order; other options are
// not comments, and a second section's replace the first's once read.
func TestSectionComments(t *testing.T) {
	for _, big := range []bool{false, true} {
		var f pcapngcraft.File
		f.Section(big, pcapngcraft.Option{Code: pcapngcraft.OptComment, Value: []byte("delay=50ms")},
			pcapngcraft.Option{Code: 2, Value: []byte("hardware")}, // shb_hardware
			pcapngcraft.Option{Code: pcapngcraft.OptComment, Value: []byte("run=2 µ")})
		f.Interface(pcapngcraft.LinkEthernet, 0)
		p := transfer()[0]
		fr, w := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
		f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
		f.Section(big, pcapngcraft.Option{Code: pcapngcraft.OptComment, Value: []byte("second")})
		f.Interface(pcapngcraft.LinkEthernet, 0)
		f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
		r, err := NewReader(bytes.NewReader(f.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(r.Comments()), "[delay=50ms run=2 µ]"; got != want {
			t.Errorf("big endian %v: comments %s, want %s", big, got, want)
		}
		for r.Next() {
		}
		if got, want := fmt.Sprint(r.Comments()), "[second]"; got != want || r.Err() != nil {
			t.Errorf("big endian %v: after the second section, comments %s (%v), want %s", big, got, r.Err(), want)
		}
	}
	var f pcapngcraft.File
	f.Section(false)
	if r, err := NewReader(bytes.NewReader(f.Bytes())); err != nil || r.Comments() != nil {
		t.Errorf("no comment: %v, %v", r.Comments(), err)
	}
}

// TestPcapngHugeBlockLength: a block length of 2^32-1, which rounds up
// past 2^32 to 0 in 32 bits (as wiretap rounds), is refused as more than
// the maximum with the length the file gives, not as a block of 0 bytes.
func TestPcapngHugeBlockLength(t *testing.T) {
	frame := pkt{src: cli, dst: srv, seq: 1, flags: SYN, win: 1024}.frame(t)
	b := pcapngTenths(t, frame, 1000, 1001)
	// The second packet block's total length: after the section header
	// (28 bytes), the interface description (32) and the first packet.
	at := 28 + 32 + 32 + (len(frame)+3)&^3
	binary.LittleEndian.PutUint32(b[at+4:], 0xffffffff)
	n, sc := scanCount(t, b)
	if err := sc.Err(); n != 1 || err == nil || !strings.Contains(err.Error(), "4294967295 bytes, more than the maximum") {
		t.Errorf("%d segments, error %v: want the first, then the length refused as the file gives it", n, err)
	}
}
