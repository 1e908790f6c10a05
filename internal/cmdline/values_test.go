package cmdline

import (
	"fmt"
	"strings"
	"testing"
)

// TestWordValues: a choice is one of its words; a list takes items,
// comma-separated when split, never an empty one; a share is i/n.
func TestWordValues(t *testing.T) {
	c := Choice{V: "c2s", Choices: []string{"c2s", "s2c"}}
	if err := c.Set("x"); fmt.Sprint(err) != `"x": want c2s or s2c` || c.Set("s2c") != nil || c.String() != "s2c" {
		t.Errorf("choice: %v, %s", err, c.String())
	}
	l := List{Split: true, Want: "stream numbers"}
	if err := l.Set("1, 3-5"); err != nil || l.String() != "1,3-5" || fmt.Sprint(l.Raw) != "[1, 3-5]" {
		t.Errorf("list: %v, %s, raw %q", err, l.String(), l.Raw)
	}
	if err := l.Set("1,,2"); fmt.Sprint(err) != `"1,,2": want stream numbers` {
		t.Errorf("an empty item: %v", err)
	}
	whole := List{}
	if err := whole.Set("PEP, 85 KB"); err != nil || len(whole.Vs) != 1 || whole.Set(" ") == nil {
		t.Errorf("a list not split: %q, %v", whole.Vs, err)
	}
	var s Share
	for _, bad := range []string{"abc", "2/2", "-1/4", "1"} {
		if s.Set(bad) == nil {
			t.Errorf("--shard %q accepted", bad)
		}
	}
	if err := s.Set("1/4"); err != nil || s.String() != "1/4" {
		t.Errorf("1/4: %v, %s", err, s.String())
	}
	held := 0
	for i := range 4 {
		if (Share{I: i, N: 4}).Holds("archive/a.pcap") {
			held++
		}
	}
	if held != 1 || !(Share{}).Holds("x") {
		t.Errorf("a name in %d of 4 shares; every name in the share of none", held)
	}
}

func TestReadPaths(t *testing.T) {
	paths, err := ReadPaths(strings.NewReader("a.pcap\r\n\n  \n# a comment\n ./#b.pcap \nc d.pcap"))
	if want := `["a.pcap" " ./#b.pcap " "c d.pcap"]`; err != nil || fmt.Sprintf("%q", paths) != want {
		t.Errorf("%q, %v; want %s", paths, err, want)
	}
}
