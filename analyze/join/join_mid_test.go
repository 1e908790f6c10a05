package join

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// TestJoinThreePoints joins the captures of testdata/truth-mid, taken
// before the first link, between the two and after the second, given in
// the wrong order: they are put in path order, and every loss (data and
// ACKs) and every reordering is placed on the link whose log made it.
func TestJoinThreePoints(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "truth-mid")
	logs, _ := filepath.Glob(filepath.Join(dir, "*.truth.jsonl.gz"))
	if len(logs) == 0 {
		t.Fatal("no scenario in testdata/truth-mid")
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-24s %-4s %-4s %14s %14s %14s\n", "scenario", "link", "dir", "data lost", "ACKs lost", "reordered")
	for _, lg := range logs {
		name := strings.TrimSuffix(filepath.Base(lg), ".truth.jsonl.gz")
		at := func(k string) *Capture { return readCapture(t, filepath.Join(dir, name+"."+k+".pcap.gz")) }
		tx, mid, rx := at("tx"), at("mid"), at("rx")
		res, err := Join([]*Capture{rx, tx, mid})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Captures[0] != tx || res.Captures[1] != mid || res.Captures[2] != rx {
			t.Fatalf("%s: path order %s, %s, %s", name, res.Captures[0].Name, res.Captures[1].Name, res.Captures[2].Name)
		}
		for link, file := range []string{lg, filepath.Join(dir, name+".truth2.jsonl.gz")} {
			events := readEvents(t, file)
			ch := busiest(res.Hops[link])
			for d, ld := range [2]string{"a->b", "b->a"} {
				lost, lostAcks, reord, _ := fromLog(events, ch, d, ld)
				dh := &ch.Dir[d]
				fmt.Fprintf(&table, "%-24s %-4d %-4s %6d / %-6d %6d / %-6d %6d / %-6d\n", name, link+1, ld, lost, dh.LostData, lostAcks, dh.LostAcks, reord, dh.Reordered)
				if dh.LostData != lost || dh.LostAcks != lostAcks {
					t.Errorf("%s link %d %s: %d data segments and %d ACKs lost there; its log dropped %d and %d", name, link+1, ld, dh.LostData, dh.LostAcks, lost, lostAcks)
				}
				if tol := max(2, reord/50); dh.Reordered < reord-tol || dh.Reordered > reord+tol {
					t.Errorf("%s link %d %s: %d reordered there; its log reordered %d", name, link+1, ld, dh.Reordered, reord)
				}
			}
		}
	}
	t.Logf("log / join:\n%s", table.String())
}
