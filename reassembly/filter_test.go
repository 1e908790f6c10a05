package reassembly

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

// TestFilterSyntax: a syntax error names the column and what was wanted;
// tcpdump's forms parse.
func TestFilterSyntax(t *testing.T) {
	for _, c := range []struct {
		expr, err string
	}{
		{"port 80 and (host 1.2.3.4", `column 26: ")" expected`},
		{"hots 1.2.3.4", "column 1: unknown primitive"},
		{"host example.com", "not an IP address"},
		{"host fe80::1%eth0", "column 6: host \"fe80::1%eth0\": a zone (%eth0)"},
		{"portrange 9-3", "want LOW-HIGH"},
		{"net 10.0.0.0/33", "want an address/bits"},
		{"port 80 or", "a primitive expected"},
		{"", "column 1: an empty filter"},
		{"port 080", "column 6: port \"080\""},   // octal, as libpcap reads it: 8 is no digit
		{"portrange 0x50-0x50", "want LOW-HIGH"}, // a range's bounds are decimal, as libpcap 1.10 reads them
		{"port htp", "column 6: port \"htp\": want 0 to 65535 or a service name"},
		{"port HTTP", "column 6: port \"HTTP\": want 0 to 65535 or a service name"}, // as tcpdump: names are case-sensitive
		{"udp port http", "column 10: port \"http\" is tcp"},                        // libpcap: http is TCP's alone in /etc/services
		{"tcp port 80 or ntp", "column 16: port \"ntp\" is udp"},
		{"port 80 port 22", `column 9: "and" or "or" expected before "port"`}, // tcpdump: a syntax error
		{"src 10.0.0.1 dst 10.0.0.2", `column 14: "and" or "or" expected before "dst"`},
		{"tcp host 10.0.0.1", `column 1: "tcp" does not qualify host`}, // tcpdump: 'tcp' modifier applied to host
		{"ip port 80", `column 1: "ip" does not qualify port`},
		{"icmp host 10.0.0.1", `column 1: "icmp" does not qualify host`},
		{"less 100", "column 1: less: not supported"},
		{"port 80 and greater 1000", "column 13: greater: not supported"},
		{"vlan 10 and port 80", "column 1: vlan: not supported: tagged and tunnelled traffic is matched on its innermost"},
		{"ether host 00:11:22:33:44:55", "column 1: ether: not supported: the link layer (MAC addresses"},
		{"port 65536", "want 0 to 65535"},
		{"ip6 host 10.0.0.1", `column 10: host "10.0.0.1": an IPv4 address, which ip6 does not qualify`}, // libpcap: 'ip6' modifier applied to ip host
		{"ip host ::1", `column 9: host "::1": an IPv6 address, which ip does not qualify`},
		{"ip6 net 10.0.0.0/8", `column 9: net "10.0.0.0/8": an IPv4 address`},
		{"ip proto 6", "column 4: proto: not supported"}, // it said '"and" or "or" expected before "proto"'
	} {
		if _, err := ParseFilter(c.expr); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.expr, err, c.err)
		}
	}
	for _, ok := range []string{"ip host 10.0.0.1", "ip6 net fd00::/8", "ip src 10.0.0.1 or 10.0.0.2", "tcp and port 5201", "src host 10.0.0.1 && !dst port 22", "not (net 10.0.0.0/8 or portrange 1-1023)", "src 10.0.0.1", "udp port 53"} {
		if _, err := ParseFilter(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// TestFilterMatch: a flow matches when one of its packets would: "src
// host A" keeps a flow whose side A sent, not one where A only received;
// ports, nets, ranges, the transport and the stream set.
func TestFilterMatch(t *testing.T) {
	a, b := netip.MustParseAddrPort("10.0.0.1:40000"), netip.MustParseAddrPort("[fd00::2]:5201")
	// Ports as libpcap reads numbers: 0x… hexadecimal, 0… octal.
	for _, c := range []struct {
		expr string
		want bool
	}{{"port 0x1451", true}, {"port 012121", true}, {"port 05201", false}, {"portrange 05200-05202", true}, {"portrange 012120-012122", false},
		{"port 0", false}, {"portrange 0-5201", true},
		{"portrange 5201", true}, {"portrange 0x1451", true}, {"portrange 05201", false}, {"dst portrange 5000-5100 or 5201", true}} { // one port: as libpcap, a port's number // port 0: a header's value, as tcpdump takes it
		e, err := ParseFilter(c.expr)
		v := FlowView{A: a, B: b, Sent: [2]bool{true, true}, Proto: "tcp"}
		if err != nil || e.Match(&v) != c.want {
			t.Errorf("%q: %v, match %v, want %v", c.expr, err, err == nil && e.Match(&v), c.want)
		}
	}
	both := FlowView{A: a, B: b, Sent: [2]bool{true, true}, Proto: "tcp", Stream: 3}
	aOnly := FlowView{A: a, B: b, Sent: [2]bool{true, false}, Proto: "udp", Stream: 4}
	for _, c := range []struct {
		expr            string
		both, aOnlySent bool
	}{
		{"src host 10.0.0.1", true, true},
		{"src host fd00::2", true, false},
		{"dst port 5201", true, true},
		{"src port 5201", true, false},
		{"net fd00::/64 and tcp", true, false},
		{"portrange 39000-41000 and not udp", true, false},
		{"udp or port 80", false, true},
		{"!(host 10.0.0.9)", true, true},
		// Each packet is matched whole, as tcpdump does: B's packets
		// are not from 10.0.0.1; no packet is both from and to it.
		{"not src host 10.0.0.1", true, false},
		{"src host 10.0.0.1 and dst host 10.0.0.1", false, false},
		{"not (src port 5201 and dst port 40000)", true, true},
		{"src port 5201 and dst port 40000", true, false},
		// and and or bind alike, from the left, as in tcpdump: not
		// port 5201 or (port 1 and host 10.0.0.9).
		{"port 5201 or port 1 and host 10.0.0.9", false, false},
		{"host 10.0.0.9 and port 1 or udp", false, true},
		// A bare value takes the last qualifiers, as in tcpdump.
		{"port 80 or 5201", true, true},
		{"src port 80 or 5201", true, false},
		{"host 10.0.0.9 or fd00::2", true, true},
		{"host 10.0.0.1 and not fd00::2", false, false},
		{"udp port 1 or 5201", false, true},
		{"tcp dst port 1 or 5201", true, false},
		// net as tcpdump reads it without /bits: its octets, a
		// whole address, or a mask.
		{"net 10", true, true},
		{"net 10.0", true, true},
		{"net 10.0.0", true, true},
		{"net 10.0.0.0", false, false},
		{"net 10.0.0.1", true, true},
		{"net 10.0.0.0 mask 255.255.255.0", true, true},
		{"net 10.0.1.0 mask 255.255.255.0", false, false},
		{"net fd00::", false, false},
		// tcpdump's other direction qualifiers.
		{"src or dst port 40000", true, true},
		{"src and dst port 40000", false, false},
		{"src and dst portrange 5000-50000", true, true},
		{"src or dst fd00::2", true, true},
	} {
		f, err := ParseFilter(c.expr)
		if err != nil {
			t.Fatalf("%q: %v", c.expr, err)
		}
		if got := f.Match(&both); got != c.both {
			t.Errorf("%q on a flow both sides sent: %v", c.expr, got)
		}
		if got := f.Match(&aOnly); got != c.aOnlySent {
			t.Errorf("%q on a flow only A sent: %v", c.expr, got)
		}
	}
	// ip and ip6: the packets' IP version.
	v4 := FlowView{A: a, B: netip.MustParseAddrPort("10.0.0.2:5201"), Sent: [2]bool{true, true}, Proto: "tcp"}
	v6 := FlowView{A: netip.MustParseAddrPort("[fd00::1]:40000"), B: b, Sent: [2]bool{true, true}, Proto: "udp"}
	for _, c := range []struct {
		expr   string
		v4, v6 bool
	}{{"ip", true, false}, {"ip6", false, true}, {"ip host 10.0.0.2", true, false}, {"ip6 and udp", false, true}, {"not ip6", true, false}} {
		f, err := ParseFilter(c.expr)
		if err != nil {
			t.Errorf("%q: %v", c.expr, err)
			continue
		}
		if f.Match(&v4) != c.v4 || f.Match(&v6) != c.v6 {
			t.Errorf("%q: IPv4 flow %v, IPv6 flow %v; want %v, %v", c.expr, f.Match(&v4), f.Match(&v6), c.v4, c.v6)
		}
	}
	// Ports are TCP's and UDP's: an ICMP flow has none (portrange 0-10
	// matched it), and port 0 is a TCP header's value as any other (it
	// matched nothing, read as an address).
	icmp := FlowView{A: netip.MustParseAddrPort("203.0.113.1:0"), B: netip.MustParseAddrPort("10.0.0.31:0"), Sent: [2]bool{true, false}, Proto: "icmp"}
	zero := FlowView{A: netip.MustParseAddrPort("10.0.0.1:0"), B: netip.MustParseAddrPort("10.0.0.2:80"), Sent: [2]bool{true, true}, Proto: "tcp"}
	for _, c := range []struct {
		expr       string
		icmp, zero bool
	}{{"portrange 0-10", false, true}, {"port 0", false, true}, {"not port 80", true, false}, {"src port 0", false, true}} {
		f, err := ParseFilter(c.expr)
		if err != nil {
			t.Fatalf("%q: %v", c.expr, err)
		}
		if f.Match(&icmp) != c.icmp || f.Match(&zero) != c.zero {
			t.Errorf("%q: ICMP flow %v, TCP flow from port 0 %v; want %v, %v", c.expr, f.Match(&icmp), f.Match(&zero), c.icmp, c.zero)
		}
	}
	tcp, _ := ParseFilter("tcp")
	set := StreamFilter{Set: map[int]bool{3: true}, Next: tcp}
	if !set.Match(&both) || set.Match(&aOnly) || (StreamFilter{Set: map[int]bool{4: true}}).Match(&aOnly) != true {
		t.Error("stream sets")
	}
}

// FuzzParseFilter: any text parses or fails with a column, never panics,
// and a parsed filter answers for any flow.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"tcp and port 5201", "src host 10.0.0.1 && !dst port 22", "not (net 10.0.0.0/8 or portrange 1-1023)", "((", "port 80 and (host 1.2.3.4", "src fd00::1 udp"} {
		f.Add(s)
	}
	v := FlowView{A: netip.MustParseAddrPort("10.0.0.1:1"), B: netip.MustParseAddrPort("10.0.0.2:2"), Sent: [2]bool{true, true}, Proto: "tcp"}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseFilter(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "column ") {
				t.Fatalf("%q: error without a column: %v", s, err)
			}
			return
		}
		e.Match(&v)
	})
}

// TestFilterServiceNames: port takes a service's name as tcpdump does
// with Debian's /etc/services: its number, on the transports the name is
// listed for (http is TCP's port 80 alone, https and domain either's,
// ntp UDP's), in a bare value too ("port 53 or ssh"). They were refused
// ("service names are not resolved").
func TestFilterServiceNames(t *testing.T) {
	view := func(proto string, port uint16) *FlowView {
		return &FlowView{A: netip.MustParseAddrPort("10.0.0.1:40000"), B: netip.AddrPortFrom(netip.MustParseAddr("10.0.0.2"), port), Sent: [2]bool{true, true}, Proto: proto}
	}
	for _, c := range []struct {
		expr     string
		tcp, udp []uint16 // the ports of the TCP and UDP flows that match
	}{
		{"port http", []uint16{80}, nil},
		{"port https", []uint16{443}, []uint16{443}},
		{"dst port ssh", []uint16{22}, nil},
		{"port domain", []uint16{53}, []uint16{53}},
		{"udp port ntp", nil, []uint16{123}},
		{"tcp port https", []uint16{443}, nil},
		{"port 8080 or ssh", []uint16{22, 8080}, []uint16{8080}},
		{"port ssh or 53", []uint16{22, 53}, []uint16{53}},
		{"tcp port 8080 or ssh", []uint16{22, 8080}, nil},
	} {
		e, err := ParseFilter(c.expr)
		if err != nil {
			t.Errorf("%q: %v", c.expr, err)
			continue
		}
		for _, proto := range []string{"tcp", "udp"} {
			want := map[string][]uint16{"tcp": c.tcp, "udp": c.udp}[proto]
			for _, port := range []uint16{20, 22, 53, 80, 123, 443, 8080} {
				if got := e.Match(view(proto, port)); got != slices.Contains(want, port) {
					t.Errorf("%q on %s port %d: %v, want %v", c.expr, proto, port, got, !got)
				}
			}
		}
	}
}

// TestFilterIPQualifier: ip and ip6 qualify host and net as in tcpdump
// ("ip host A": IPv4 packets from or to A), bare values after it too.
// They were read as "ip and host A" by juxtaposition, which tcpdump
// refuses elsewhere ("port 80 port 22"). (An address of the other family,
// "ip6 host 10.0.0.1", is an error, as in libpcap: TestFilterSyntax.)
func TestFilterIPQualifier(t *testing.T) {
	views := map[string]FlowView{
		"v4": {A: netip.MustParseAddrPort("10.0.0.1:1"), B: netip.MustParseAddrPort("10.0.0.2:2"), Sent: [2]bool{true, true}, Proto: "tcp"},
		"v6": {A: netip.MustParseAddrPort("[fd00::1]:1"), B: netip.MustParseAddrPort("[fd00::2]:2"), Sent: [2]bool{true, true}, Proto: "tcp"},
	}
	for expr, want := range map[string][]string{
		"ip host 10.0.0.1":            {"v4"},
		"ip6 net fd00::/16":           {"v6"},
		"ip src 10.0.0.9 or 10.0.0.1": {"v4"},
		"ip6 src fd00::9 or fd00::2":  {"v6"},
	} {
		e, err := ParseFilter(expr)
		var got []string
		for _, name := range []string{"v4", "v6"} {
			if v := views[name]; err == nil && e.Match(&v) {
				got = append(got, name)
			}
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v, matches %q, want %q", expr, err, got, want)
		}
	}
}

// TestStreamSetErrors: each refusal of -s says what is wrong with the
// item, a range too wide (every stream, 0-2147483647) its bound; the
// widest range allowed is read whole.
func TestStreamSetErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"x", `"x": want stream numbers and ranges (1,3-5)`},
		{"-1", `"-1": want stream numbers and ranges (1,3-5)`},
		{"5-3", `"5-3": want stream numbers and ranges (1,3-5), a range's first number first`},
		{"0-2147483647", `"0-2147483647": a range names at most 1048577 streams (leave -s out for every stream)`},
		{"9223372036854775806-9223372036854775807", ""},
		{"9223372036854775807", ""}, // hung: n <= hi wrapped
		{"0-1048577", `"0-1048577": a range names at most 1048577 streams (leave -s out for every stream)`},
	} {
		_, err := ParseStreamSet([]string{c.in})
		if got := fmt.Sprint(err); c.want != "" && got != c.want || c.want == "" && err != nil {
			t.Errorf("ParseStreamSet(%q): %v, want %q", c.in, err, c.want)
		}
	}
	set, err := ParseStreamSet([]string{"3-1048579"})
	if err != nil || len(set) != 1048577 || !set[3] || !set[1048579] || set[2] {
		t.Errorf("3-1048579: %d streams, %v", len(set), err)
	}
	// Many ranges (found by a tester: 100 of them took over 20 s and
	// 1.3 GB): one named many times is merged, those that name too many
	// streams together are refused.
	same := slices.Repeat([]string{"0-1048576"}, 10000)
	if set, err := ParseStreamSet(same); err != nil || len(set) != 1048577 {
		t.Errorf("0-1048576 10,000 times: %d streams, %v", len(set), err)
	}
	if _, err := ParseStreamSet([]string{"0-1048576", "1048578"}); fmt.Sprint(err) != "the ranges name more than 1048577 streams in all (leave -s out for every stream)" {
		t.Errorf("1048578 streams: %v", err)
	}
	set, err = ParseStreamSet([]string{"7", "3-5", "4-6", "9", "1"})
	if got := slices.Sorted(maps.Keys(set)); err != nil || !slices.Equal(got, []int{1, 3, 4, 5, 6, 7, 9}) {
		t.Errorf("7,3-5,4-6,9,1: %v, %v", got, err)
	}
}
