package reassembly

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"tcpviz/internal/gencap"
	"tcpviz/internal/golden"
)

// TestTunnelCapturesAreGenerated: testdata/tunnels holds exactly what
// scripts/gencap tunnels writes (its tshark goldens describe those bytes).
func TestTunnelCapturesAreGenerated(t *testing.T) {
	for _, tc := range slices.Concat(gencap.Tunnels(), gencap.Fragments(), gencap.ICMPErrors(), gencap.Odd()) {
		got, err := os.ReadFile(filepath.Join(golden.Testdata(), "tunnels", tc.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, tc.Capture()) {
			t.Errorf("%s differs from gencap's: go run ./scripts/gencap tunnels testdata/tunnels, then scripts/tshark-golden.sh testdata/tunnels/*.pcap", tc.Name)
		}
	}
}

// TestTunnelsMatchGopacket: where gopacket's full (allocating) decoder
// reads a packet to a TCP header — through VXLAN, Geneve, GTP-U, ERSPAN
// II, LLC/SNAP, 802.11, radiotap, AH, ... — ours finds the same TCP
// header under the same innermost IP addresses. (What gopacket 1.7.7
// cannot read — L2TPv2, ERSPAN III, NFLOG, Cisco HDLC, QinQ with TPID
// 0x9100 — the tshark goldens of testdata/tunnels check.)
func TestTunnelsMatchGopacket(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(golden.Testdata(), "tunnels", "*.pcap"))
	if len(paths) < 18 {
		t.Fatalf("%d captures in testdata/tunnels", len(paths))
	}
	compared := map[string]int{}
	for _, path := range append(paths, golden.Captures()...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(data))
		if err != nil || strings.Contains(path, "adversarial") {
			continue // adversarial captures: where gopacket and tshark disagree, the tshark goldens judge
		}
		var d Decoder
		name := filepath.Base(path)
		for r.Next() {
			p := r.Packet()
			pk := gopacket.NewPacket(p.Data, p.LinkType, gopacket.DecodeOptions{NoCopy: true, Lazy: false})
			var tcp *layers.TCP
			var src, dst net.IP
			lenient := false // gopacket reads IP headers of any version; Wireshark (and we) do not
			for _, l := range pk.Layers() {
				switch l := l.(type) {
				case *layers.IPv4:
					// Nor options too short for what Wireshark reads of them.
					short := len(l.Contents) > 20 && ipv4OptionsShort(l.Contents[20:]) != nil
					src, dst, lenient = l.SrcIP, l.DstIP, lenient || l.Version != 4 || short
				case *layers.IPv6:
					src, dst, lenient = l.SrcIP, l.DstIP, lenient || l.Version != 6
				case *layers.TCP:
					tcp = l
				}
			}
			if tcp == nil || pk.ErrorLayer() != nil || lenient {
				continue
			}
			var seg Segment
			ok, err := d.Decode(p, &seg)
			if !ok {
				t.Errorf("%s: packet %d: gopacket reads TCP %d > %d, we do not (%v)", name, p.Number, tcp.SrcPort, tcp.DstPort, err)
				continue
			}
			if seg.SrcPort != uint16(tcp.SrcPort) || seg.DstPort != uint16(tcp.DstPort) || seg.Seq != tcp.Seq || seg.Ack != tcp.Ack ||
				!net.IP(seg.Src.AsSlice()).Equal(src) || !net.IP(seg.Dst.AsSlice()).Equal(dst) {
				t.Errorf("%s: packet %d: ours %v:%d > %v:%d seq %d ack %d, gopacket %v:%d > %v:%d seq %d ack %d", name, p.Number,
					seg.Src, seg.SrcPort, seg.Dst, seg.DstPort, seg.Seq, seg.Ack, src, tcp.SrcPort, dst, tcp.DstPort, tcp.Seq, tcp.Ack)
			}
			compared[name]++
		}
	}
	// The encapsulations gopacket reads: each must have been compared.
	// (gopacket takes the last 4 bytes of every frame of link type 105
	// for an FCS, which Wireshark does not by default: there it reads
	// whole only the frames whose payload spares 4 bytes.)
	for _, name := range []string{"vxlan.pcap", "geneve.pcap", "gtpu.pcap", "gtpu_5g.pcap", "erspan2.pcap", "llc_snap.pcap",
		"sll_llc.pcap", "dot11.pcap", "radiotap.pcap", "ipv4_ah.pcap", "ipv6_ah.pcap", "ipv6_atomic_frag.pcap"} {
		least := 30
		if name == "dot11.pcap" {
			least = 10
		}
		if compared[name] < least {
			t.Errorf("%s: only %d packets compared with gopacket", name, compared[name])
		}
	}
	t.Logf("packets compared with gopacket: %v", compared)
}
