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
