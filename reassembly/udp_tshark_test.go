package reassembly

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// TestUDPFlowsMatchTshark: on every capture of ../shared/captures/{udp,lab,real},
// the UDP flows are tshark's udp.stream numbers, with the same first
// frame, endpoints (first sender as src) and, per stream, the same
// datagram and payload byte counts (testdata/tshark-udp, written by
// scripts/tshark-udp-golden.sh).
// knownUDPDifferences lists the captures whose golden rows are not what
// tshark means, and why.
var knownUDPDifferences = map[string]string{
	"testdata/adversarial/d/nest_mpls_gre_vxlan.pcap": "the golden's addresses are those of the first IP header (scripts/tshark-udp-golden.sh reads -E occurrence=f): here the GRE tunnel's, 172.16, not the header carrying the UDP, 192.168, which tcpviz gives",
}

func TestUDPFlowsMatchTshark(t *testing.T) {
	var cases golden.Cases
	defer cases.Check(t, 4)
	f, err := os.Open(filepath.Join(golden.Dir(), "..", "tshark-udp", "udp_streams.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string][]string{}
	var order []string
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		if line < 2 {
			continue
		}
		cols := strings.SplitN(sc.Text(), "\t", 2)
		if _, ok := want[cols[0]]; !ok {
			order = append(order, cols[0])
			want[cols[0]] = nil
		}
		if !strings.HasPrefix(cols[1], "\t") {
			want[cols[0]] = append(want[cols[0]], cols[1])
		}
	}
	if len(order) == 0 {
		t.Fatal("empty golden file")
	}
	streams := 0
	for _, name := range order {
		path := golden.Resolve(name)
		t.Run(name, func(t *testing.T) {
			cases.Need(t, path)
			r, done := openCapture(t, path)
			defer done()
			s := NewScanner(r)
			s.Datagrams(nil)
			var got []string
			s.Flows().OnRetire = func(fl *Flow) {
				if fl.Proto != ProtoUDP {
					return
				}
				got = append(got, fmt.Sprintf("%d\t%d\t%d\t%d\t%s\t%d\t%s\t%d", fl.Index, fl.FirstFrame,
					fl.Packets[0]+fl.Packets[1], fl.Bytes[0]+fl.Bytes[1],
					fl.Src.Addr(), fl.Src.Port(), fl.Dst.Addr(), fl.Dst.Port()))
			}
			for s.Scan() {
			}
			w := want[name]
			streams += len(w)
			if why, ok := knownUDPDifferences[name]; ok {
				t.Skipf("known: %s", why)
			}
			if strings.Join(got, "\n") != strings.Join(w, "\n") {
				t.Errorf("udp streams differ from tshark's\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
			}
		})
	}
	t.Logf("%d captures, %d udp streams", len(order), streams)
}
