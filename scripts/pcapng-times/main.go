// Command pcapng-times writes the crafted pcapng captures of
// testdata/pcapng: a short TCP transfer (handshake, data, ACKs, FIN) in
// each of the pcapng timestamp layouts tcpviz must read as Wireshark 4.0
// does — binary and unusual decimal if_tsresol, if_tsoffset, Simple and
// obsolete Packet Blocks, captured lengths above the original length,
// several sections in both byte orders, several interfaces of different
// link types and resolutions.
//
//	go run ./scripts/pcapng-times [dir]     (default testdata/pcapng)
//
// The output is deterministic; testdata/pcapng/README.md says what each
// file holds, scripts/tshark-golden.sh makes their tshark goldens.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"tcpviz/scripts/pcapngcraft"
)

func main() {
	dir := filepath.Join("testdata", "pcapng")
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: pcapng-times [dir]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		dir = os.Args[1]
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "pcapng-times:", err)
		os.Exit(1)
	}
	files := Captures()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "pcapng-times:", err)
			os.Exit(1)
		}
	}
}

// base is the transfer the captures hold, unless a case changes it: 40 ms
// round trip, 12 header-only segments of 1000 bytes 1 ms apart.
func base(start int64) pcapngcraft.Transfer {
	return pcapngcraft.Transfer{
		Start: start, RTT: 40_000_000, Gap: 1_000_000, Segments: 12, MSS: 1000,
		Client: [4]byte{10, 1, 0, 1}, Server: [4]byte{10, 2, 0, 2}, CPort: 40001, SPort: 80,
		ISN: [2]uint32{0x01000000, 0x7f000000},
	}
}

// t0 is the first SYN's time in every capture: 14 November 2023, with
// nanoseconds that no resolution holds exactly.
const t0 = 1_700_000_000_123_456_789

// epbOnly writes t's packets as EPBs of one Ethernet interface with
// if_tsresol resol.
func epbOnly(t pcapngcraft.Transfer, resol byte) []byte {
	var f pcapngcraft.File
	f.Section(false)
	f.Interface(pcapngcraft.LinkEthernet, 0, pcapngcraft.TSResol(resol))
	for _, p := range t.Packets() {
		fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
		f.EPB(0, pcapngcraft.Ticks(p.Time, resol), wire, fr)
	}
	return f.Bytes()
}

// Captures returns every crafted capture by file name.
func Captures() map[string][]byte {
	out := map[string][]byte{}
	// Binary resolutions: 2^-20 (gopacket scales by 953 for 953.67),
	// 2^-29 (by 1 for 1.86), 2^-30 and 2^-32 (units taken as ns, 7% long).
	for i, e := range []byte{20, 29, 30, 32} {
		out[fmt.Sprintf("tsresol_2-%d.pcapng", e)] = epbOnly(base(t0+int64(i)*3_600e9), 0x80|e)
	}
	// 10^0: whole seconds (read as µs before). A slow transfer, so that
	// seconds still tell the packets apart: 3 s round trip, 1.3 s apart.
	slow := base(t0 + 4*3_600e9)
	slow.RTT, slow.Gap, slow.Segments = 3e9, 1_300_000_000, 6
	out["tsresol_10-0.pcapng"] = epbOnly(slow, 0)
	// 10^-127: Wireshark holds it as 2^64-1 units a second (every time is
	// within 1 ns of 1970); the timestamps are microseconds, as if the
	// byte had been damaged.
	{
		var f pcapngcraft.File
		f.Section(false)
		f.Interface(pcapngcraft.LinkEthernet, 0, pcapngcraft.TSResol(127))
		for _, p := range base(t0 + 5*3_600e9).Packets() {
			fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			f.EPB(0, pcapngcraft.Ticks(p.Time, 6), wire, fr)
		}
		out["tsresol_10-127.pcapng"] = f.Bytes()
	}
	// Simple Packet Blocks between Enhanced ones: the server's window
	// updates carry no timestamp (nor does any analysis of Wireshark's
	// use their times).
	{
		t := base(t0 + 6*3_600e9)
		t.WindowUpdates = []int{2, 4, 5}
		var f pcapngcraft.File
		f.Section(false)
		f.Interface(pcapngcraft.LinkEthernet, 96, pcapngcraft.TSResol(9))
		for _, p := range t.Packets() {
			fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			if p.Kind == "window-update" {
				f.SPB(wire, fr)
				continue
			}
			f.EPB(0, pcapngcraft.Ticks(p.Time, 9), wire, fr)
		}
		out["spb_mixed.pcapng"] = f.Bytes()
	}
	// Captured length above the original length: the data segments are
	// captured whole (54 + 200 bytes) but claim 60 bytes on the wire.
	{
		t := base(t0 + 7*3_600e9)
		t.MSS, t.Payload = 200, true
		var f pcapngcraft.File
		f.Section(false)
		f.Interface(pcapngcraft.LinkEthernet, 0)
		for _, p := range t.Packets() {
			fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			if p.Kind == "data" {
				wire = 60
			}
			f.EPB(0, pcapngcraft.Ticks(p.Time, 6), wire, fr)
		}
		out["caplen_over_wire.pcapng"] = f.Bytes()
	}
	// if_tsoffset: the client's side counts ns from the capture's start
	// (offset +t0 seconds), the server's µs from a day later than it is
	// (offset -86400 s).
	{
		t := base(t0 + 8*3_600e9)
		var f pcapngcraft.File
		f.Section(false)
		start := t.Start / 1e9 // the offset: whole seconds
		f.Interface(pcapngcraft.LinkEthernet, 0, pcapngcraft.TSResol(9), f.TSOffset(start))
		f.Interface(pcapngcraft.LinkEthernet, 0, f.TSOffset(-86400))
		for _, p := range t.Packets() {
			fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			if p.C2S {
				f.EPB(0, pcapngcraft.Ticks(p.Time-start*1e9, 9), wire, fr)
			} else {
				f.EPB(1, pcapngcraft.Ticks(p.Time+86400e9, 6), wire, fr)
			}
		}
		out["tsoffset.pcapng"] = f.Bytes()
	}
	// Obsolete Packet Blocks (with a drops count), big-endian, default
	// resolution.
	{
		var f pcapngcraft.File
		f.Section(true)
		f.Interface(pcapngcraft.LinkEthernet, 65535)
		for i, p := range base(t0 + 9*3_600e9).Packets() {
			fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			f.PB(0, uint16(i%3), pcapngcraft.Ticks(p.Time, 6), wire, fr)
		}
		out["pb_obsolete.pcapng"] = f.Bytes()
	}
	// Two sections: little-endian with one Ethernet interface (µs), then
	// big-endian with a raw-IP interface (ns, the server's side) and an
	// Ethernet one (2^-20 with an offset of 1000 s, the client's); the
	// connection continues across them. Blocks no packet path reads (a
	// name resolution block, statistics, a custom block, an unknown
	// type) are skipped.
	{
		pkts := base(t0 + 10*3_600e9).Packets()
		var f pcapngcraft.File
		f.Section(false, pcapngcraft.Option{Code: 4, Value: []byte("pcapng-times")})
		f.Interface(pcapngcraft.LinkEthernet, 0)
		f.NRB([4]byte{10, 2, 0, 2}, "server.example")
		half := len(pkts) / 2
		for _, p := range pkts[:half] {
			fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			f.EPB(0, pcapngcraft.Ticks(p.Time, 6), wire, fr)
		}
		f.ISB(0, pcapngcraft.Ticks(pkts[half-1].Time, 6))
		f.Section(true)
		f.Interface(pcapngcraft.LinkRaw, 0, pcapngcraft.TSResol(9))
		f.Block(pcapngcraft.BlockCB, append(f.U32(32473), []byte("custom data")...))
		f.Interface(pcapngcraft.LinkEthernet, 128, pcapngcraft.TSResol(0x80|20), f.TSOffset(1000))
		for i, p := range pkts[half:] {
			if p.C2S {
				fr, wire := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
				f.EPB(1, pcapngcraft.Ticks(p.Time-1000e9, 0x80|20), wire, fr)
			} else {
				fr, wire := pcapngcraft.Frame(pcapngcraft.LinkRaw, p)
				f.EPB(0, pcapngcraft.Ticks(p.Time, 9), wire, fr)
			}
			if i == 3 {
				f.Block(0x4242, []byte("an unknown block type"))
			}
		}
		out["multi_section.pcapng"] = f.Bytes()
	}
	// One section, three interfaces: the first connection's client side
	// on Ethernet (µs), its server side on Linux cooked (ns), a second
	// connection on raw IP (2^-24), interleaved in time.
	{
		a := base(t0 + 11*3_600e9).Packets()
		bt := base(t0 + 11*3_600e9 + 7_777_777)
		bt.Client, bt.CPort, bt.Segments = [4]byte{10, 1, 0, 3}, 40003, 8
		b := bt.Packets()
		type pk struct {
			p     pcapngcraft.Packet
			iface uint32
		}
		var all []pk
		for _, p := range a {
			if p.C2S {
				all = append(all, pk{p, 0})
			} else {
				all = append(all, pk{p, 1})
			}
		}
		for _, p := range b {
			all = append(all, pk{p, 2})
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].p.Time < all[j].p.Time })
		links := []uint16{pcapngcraft.LinkEthernet, pcapngcraft.LinkSLL, pcapngcraft.LinkRaw}
		resol := []byte{6, 9, 0x80 | 24}
		var f pcapngcraft.File
		f.Section(false)
		for i := range links {
			f.Interface(links[i], 262144, pcapngcraft.TSResol(resol[i]))
		}
		for _, x := range all {
			fr, wire := pcapngcraft.Frame(links[x.iface], x.p)
			f.EPB(x.iface, pcapngcraft.Ticks(x.p.Time, resol[x.iface]), wire, fr)
		}
		out["multi_iface.pcapng"] = f.Bytes()
	}
	return out
}
