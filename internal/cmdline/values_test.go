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
	// Too many shares say the bound (0 ≤ i < n holds).
	if err := s.Set("0/9223372036854775807"); fmt.Sprint(err) != `"0/9223372036854775807": want at most 1048576 shares` {
		t.Errorf("0/9223372036854775807: %v", err)
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

// TestReadPathsRefused: a list that is not one stops at its first bad
// line, with its number: a capture named by mistake printed a line of
// error for each of its 134,870 "lines" (13 MB), /dev/zero gave bufio's
// "token too long" (found by a tester); past maxPaths paths it stops.
func TestReadPathsRefused(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a.pcap\n# x\n\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\nb.pcap\n", "line 3 holds NUL bytes: not a list of paths, one a line (a capture? name it as an input)"},
		{"a.pcap\n" + strings.Repeat("x", maxPathLine+1) + "\n", "line 2 is longer than 1 MiB: not a list of paths, one a line"},
		{strings.Repeat("p\n", maxPaths+1), fmt.Sprintf("more than %d paths", maxPaths)},
	} {
		paths, err := ReadPaths(strings.NewReader(c.in))
		if fmt.Sprint(err) != c.want || paths != nil {
			t.Errorf("%.20q: %d paths, %v; want %q", c.in, len(paths), err, c.want)
		}
	}
	if paths, err := ReadPaths(strings.NewReader(strings.Repeat("p\n", maxPaths))); err != nil || len(paths) != maxPaths {
		t.Errorf("%d paths: %v", len(paths), err)
	}
}
