package words

import "testing"

func TestWords(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Plural(0, "packet"), "0 packets"}, {Plural(1, "packet"), "1 packet"}, {Plural(-3, "byte"), "-3 bytes"},
		{Or(nil), ""}, {Or([]string{"a"}), "a"}, {Or([]string{"a", "b"}), "a or b"}, {Or([]string{"a", "b", "c"}), "a, b or c"},
		{BitRate(2.14e9), "2.1 Gbit/s"}, {BitRate(2.1e6), "2.1 Mbit/s"}, {BitRate(850e3), "850 kbit/s"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// TestLongDuration: up to a day as Duration, then days, then years (a
// wild timestamp's step back).
func TestLongDuration(t *testing.T) {
	for ns, want := range map[int64]string{90e9: "90 s", 3 * 86400e9: "3.0 days", 3009104378e9: "95.4 years"} {
		if got := LongDuration(ns); got != want {
			t.Errorf("LongDuration(%d) = %q, want %q", ns, got, want)
		}
	}
}
