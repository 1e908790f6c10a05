package reassembly

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// A connection filter in tcpdump's primitive syntax (ParseFilter): host,
// net, port and portrange, each with src, dst, src or dst, src and dst,
// tcp/udp/icmp, ip/ip6, and/or/not (&&, ||, !) and parentheses. A connection or flow matches when any of
// its packets would: "src host A" matches a connection whose side A sent
// a packet. It is evaluated on the flow's own endpoints, the innermost IP
// and TCP/UDP headers, so tunnelled and VLAN-tagged traffic matches too
// (tcpdump without "vlan" would not).

// FlowView is what a filter sees of a flow: its two sides (A sent the
// first packet, or is the TCP client), which of them sent, its transport.
type FlowView struct {
	A, B   netip.AddrPort
	Sent   [2]bool // A sent, B sent
	Proto  string  // tcp, udp, icmp, ... (ProtoName)
	Stream int     // tcp.stream, or the flow's number (flows)
}

// ConnView is what a filter sees of connection c.
func ConnView(c *Conn) FlowView {
	return FlowView{A: c.Client, B: c.Server, Sent: [2]bool{c.Dir[0].Packets > 0, c.Dir[1].Packets > 0}, Proto: "tcp", Stream: c.Stream}
}

// Filter is a parsed filter (ParseFilter, StreamFilter): whether it keeps
// a flow.
type Filter interface{ Match(*FlowView) bool }

type (
	andExpr  struct{ l, r Filter }
	orExpr   struct{ l, r Filter }
	notExpr  struct{ e Filter }
	protoPrm string
	// endPrm is host, net, port or portrange, on a side (src, dst or
	// either).
	endPrm struct {
		side   string // "src", "dst", "" (either), "both"
		prefix netip.Prefix
		lo, hi uint16 // ports (port: a port primitive)
		port   bool
	}
)

// perPacket is a parsed filter matched as tcpdump matches it, on each
// packet whole: a flow matches when the packets of one of its directions
// (all alike in the headers a filter reads) match the expression, so
// "not src host A" keeps a flow B sent in and "src host A and dst host A"
// none between A and B.
type perPacket struct{ e Filter }

func (p perPacket) Match(f *FlowView) bool {
	for i := range 2 {
		if !f.Sent[i] {
			continue
		}
		d := *f
		if i == 1 {
			d.A, d.B = f.B, f.A
		}
		d.Sent = [2]bool{true, false}
		if p.e.Match(&d) {
			return true
		}
	}
	return false
}

func (e andExpr) Match(f *FlowView) bool  { return e.l.Match(f) && e.r.Match(f) }
func (e orExpr) Match(f *FlowView) bool   { return e.l.Match(f) || e.r.Match(f) }
func (e notExpr) Match(f *FlowView) bool  { return !e.e.Match(f) }
func (p protoPrm) Match(f *FlowView) bool { return f.Proto == string(p) }

// ipPrm is ip or ip6: the packets' IP version (an IPv4-mapped address is
// IPv4, as the packet carried it).
type ipPrm int

func (p ipPrm) Match(f *FlowView) bool {
	if p == 4 {
		return f.A.Addr().Unmap().Is4()
	}
	return f.A.Addr().Is6() && !f.A.Addr().Is4In6()
}

func (p endPrm) matchEnd(e netip.AddrPort) bool {
	if p.port {
		return e.Port() >= p.lo && e.Port() <= p.hi
	}
	return p.prefix.Contains(e.Addr().Unmap())
}

// match: a packet from a to b has src a and dst b, one from b to a the
// other way round.
func (p endPrm) Match(f *FlowView) bool {
	if p.port && f.Proto != "tcp" && f.Proto != "udp" {
		return false // only TCP and UDP have ports (ICMP's flows carry 0)
	}
	for i, ends := range [2][2]netip.AddrPort{{f.A, f.B}, {f.B, f.A}} {
		if !f.Sent[i] {
			continue
		}
		src, dst := p.matchEnd(ends[0]), p.matchEnd(ends[1])
		switch {
		case p.side == "src" && src, p.side == "dst" && dst, p.side == "" && (src || dst), p.side == "both" && src && dst:
			return true
		}
	}
	return false
}

// filterParser reads a filter; errors name the column (1-based).
type filterParser struct {
	toks []filterTok
	i    int
	src  string
	// last holds the qualifiers of the last host, net, port or portrange
	// read: a bare value after and/or takes them, as in tcpdump ("port
	// 80 or 443", "tcp dst port 20 or 21").
	last *qualifiers
	// proto is the transport qualifying the primitive being read ("tcp
	// port ssh"), "" for none.
	proto string
}

type qualifiers struct{ proto, side, kind string }

type filterTok struct {
	s   string
	col int
}

// ParseFilter reads a filter in tcpdump's primitive syntax; an error
// names the column (1-based) where it went wrong.
func ParseFilter(s string) (Filter, error) {
	p := &filterParser{src: s}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')' || c == '!':
			p.toks = append(p.toks, filterTok{string(c), i + 1})
			i++
		case strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			p.toks = append(p.toks, filterTok{s[i : i+2], i + 1})
			i += 2
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t()!", rune(s[j])) && !strings.HasPrefix(s[j:], "&&") && !strings.HasPrefix(s[j:], "||") {
				j++
			}
			p.toks = append(p.toks, filterTok{s[i:j], i + 1})
			i = j
		}
	}
	if len(p.toks) == 0 {
		return nil, fmt.Errorf("column 1: an empty filter (leave it out to keep every connection)")
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, p.errorf("unexpected %q", p.toks[p.i].s)
	}
	return perPacket{e}, nil
}

func (p *filterParser) peek() string {
	if p.i < len(p.toks) {
		return strings.ToLower(p.toks[p.i].s)
	}
	return ""
}

func (p *filterParser) errorf(format string, a ...any) error {
	col := len(p.src) + 1
	if p.i < len(p.toks) {
		col = p.toks[p.i].col
	}
	return fmt.Errorf("column %d: %s", col, fmt.Sprintf(format, a...))
}

// or reads and and or: alike in precedence, from the left, as tcpdump
// reads them ("port 80 or port 443 and host A" keeps only A's); not
// binds tighter; two primitives side by side are an error, as in
// tcpdump ("port 80 port 22": a syntax error).
func (p *filterParser) or() (Filter, error) {
	l, err := p.not()
	for err == nil {
		op := p.peek()
		switch op {
		case "and", "&&", "or", "||":
			p.i++
		case "", ")":
			return l, nil
		default:
			return nil, p.errorf("\"and\" or \"or\" expected before %q", p.toks[p.i].s)
		}
		var r Filter
		if r, err = p.not(); err == nil {
			if op == "or" || op == "||" {
				l = orExpr{l, r}
			} else {
				l = andExpr{l, r}
			}
		}
	}
	return l, err
}

func (p *filterParser) not() (Filter, error) {
	if t := p.peek(); t == "not" || t == "!" {
		p.i++
		e, err := p.not()
		return notExpr{e}, err
	}
	return p.primary()
}

// refuseUnsupported is the error of a primitive of tcpdump's the filter
// does not read (unsupported) at the next token, naming it and why.
func (p *filterParser) refuseUnsupported() error {
	if why, ok := unsupported[p.peek()]; ok {
		return p.errorf("%s: not supported: %s", p.peek(), why)
	}
	return nil
}

func (p *filterParser) primary() (Filter, error) {
	switch t := p.peek(); t {
	case "":
		return nil, p.errorf("a primitive expected (host, net, port, portrange, tcp, udp, icmp, ip, ip6)")
	case "(":
		p.i++
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, p.errorf("%q expected", ")")
		}
		p.i++
		return e, nil
	case "tcp", "udp", "icmp", "icmp6", "ip", "ip6":
		at := p.i
		p.i++
		if t == "icmp6" {
			t = "icmpv6" // as flows names it
		}
		switch p.peek() {
		case "src", "dst", "host", "net", "port", "portrange": // "tcp port 80", "ip host A": one primitive
			p.proto = t
			r, err := p.primary()
			p.proto = ""
			if err != nil {
				return nil, err
			}
			// As libpcap: ip and ip6 qualify host and net, tcp and
			// udp port and portrange ("tcp host A" is an error).
			if ip := t == "ip" || t == "ip6"; ip != (p.last.kind == "host" || p.last.kind == "net") || strings.HasPrefix(t, "icmp") {
				p.i = at
				return nil, p.errorf("%q does not qualify %s (ip and ip6 qualify host and net, tcp and udp port and portrange)", p.toks[at].s, p.last.kind)
			}
			p.last.proto = t
			return qualify(t, r), nil
		}
		if err := p.refuseUnsupported(); err != nil { // "ip proto 6", "ip broadcast"
			return nil, err
		}
		return qualify(t, nil), nil
	}
	if err := p.refuseUnsupported(); err != nil {
		return nil, err
	}
	side, qualified := "", false
	if t := p.peek(); t == "src" || t == "dst" {
		side, qualified = t, true
		p.i++
		// tcpdump's "src or dst" (either side, as none) and "src and
		// dst" (both sides).
		if op, other := p.peek(), map[string]string{"src": "dst", "dst": "src"}[t]; (op == "or" || op == "and") &&
			p.i+1 < len(p.toks) && strings.ToLower(p.toks[p.i+1].s) == other {
			side = map[string]string{"or": "", "and": "both"}[op]
			p.i += 2
		}
	}
	kind, proto, bare := p.peek(), "", false
	if kind != "host" && kind != "net" && kind != "port" && kind != "portrange" && !qualified && kind != "" && p.last != nil {
		// A bare value takes the last qualifiers: "port 80 or 443".
		proto, side, kind, bare = p.last.proto, p.last.side, p.last.kind, true
	}
	switch {
	case bare:
	case kind != "host" && kind != "net" && kind != "port" && kind != "portrange":
		// tcpdump allows "src 10.0.0.1": host is implied.
		if !qualified || kind == "" {
			return nil, p.errorf("unknown primitive %q (want host, net, port, portrange, tcp, udp, icmp, ip, ip6, and, or, not)", p.toks[min(p.i, len(p.toks)-1)].s)
		}
		kind = "host"
	default:
		p.i++
	}
	if p.i >= len(p.toks) {
		return nil, p.errorf("%s: a value expected", kind)
	}
	v, qual := p.toks[p.i].s, proto
	prm := endPrm{side: side}
	switch kind {
	case "host":
		a, err := netip.ParseAddr(v)
		if err != nil {
			return nil, p.errorf("host %q: not an IP address (names are not resolved)", v)
		}
		if a.Zone() != "" {
			return nil, p.errorf("host %q: a zone (%%%s) is not in a packet's header: name the address alone", v, a.Zone())
		}
		prm.prefix = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
	case "net":
		pf, err := netPrefix(v)
		if err == nil && p.i+2 < len(p.toks) && strings.ToLower(p.toks[p.i+1].s) == "mask" && !strings.Contains(v, "/") {
			// net A mask M: M's bits, contiguous.
			p.i += 2
			m, merr := netip.ParseAddr(p.toks[p.i].s)
			bits := 0
			if merr == nil && m.Is4() && m.BitLen() == pf.Addr().BitLen() {
				b := m.As4()
				n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
				for n&(1<<31) != 0 {
					bits, n = bits+1, n<<1
				}
				if n != 0 {
					merr = fmt.Errorf("not contiguous")
				}
			}
			if merr != nil || !m.Is4() || !pf.Addr().Is4() {
				return nil, p.errorf("mask %q: want an IPv4 mask of contiguous bits (255.255.255.0)", p.toks[p.i].s)
			}
			pf = netip.PrefixFrom(pf.Addr(), bits)
		}
		if err != nil {
			return nil, p.errorf("net %q: want an address/bits (10.0.0.0/8), an address, or an IPv4 network's first octets (10.88)", v)
		}
		prm.prefix = pf.Masked()
	case "port":
		// Port 0 is a header's value as any other (tcpdump takes it).
		n, err := filterNumber(v)
		if svc, ok := services[v]; err != nil && ok {
			// A service name: its port, on the transports it is known
			// on, as libpcap takes it ("port http" is TCP's port 80;
			// "udp port http" an error).
			q := proto
			if !bare {
				q = p.proto
			}
			if (q == "tcp" || q == "udp") && svc.proto != "" && q != svc.proto {
				return nil, p.errorf("port %q is %s", v, svc.proto)
			}
			n, err = uint64(svc.port), nil
			if q != "tcp" && q != "udp" {
				proto = svc.proto
			}
		}
		if err != nil {
			if len(v) > 1 && v[0] == '0' && v[1] != 'x' && v[1] != 'X' {
				return nil, p.errorf("port %q: want 0 to 65535 (a leading 0 makes it octal, as in tcpdump)", v)
			}
			return nil, p.errorf("port %q: want 0 to 65535 or a service name (%s)", v, serviceNames())
		}
		prm.lo, prm.hi, prm.port = uint16(n), uint16(n), true
	case "portrange":
		l, h, ok := strings.Cut(v, "-")
		// (Decimal: libpcap 1.10 reads a range's bounds so, unlike a
		// port's: portrange 080-090 is 80 to 90.)
		lo, e1 := strconv.ParseUint(l, 10, 16)
		hi, e2 := strconv.ParseUint(h, 10, 16)
		if !ok { // one port, as libpcap takes it: read as a port's number (0x, 0…)
			lo, e1 = filterNumber(v)
			hi, e2, ok = lo, e1, true
		}
		if !ok || e1 != nil || e2 != nil || hi < lo {
			return nil, p.errorf("portrange %q: want LOW-HIGH (1024-2047)", v)
		}
		prm.lo, prm.hi, prm.port = uint16(lo), uint16(hi), true
	}
	if kind == "host" || kind == "net" {
		// As libpcap: ip qualifies IPv4 addresses, ip6 IPv6 ones ("ip6
		// host 10.0.0.1" is an error there, not a filter that matches
		// nothing).
		q := proto
		if !bare {
			q = p.proto
		}
		if a := prm.prefix.Addr(); q == "ip" && a.Is6() || q == "ip6" && a.Is4() {
			return nil, p.errorf("%s %q: an IPv%d address, which %s does not qualify (ip qualifies IPv4 addresses, ip6 IPv6 ones)", kind, v, map[bool]int{true: 4, false: 6}[a.Is4()], q)
		}
	}
	p.i++
	// A service's transport is its own, no qualifier: "port ssh or 53".
	p.last = &qualifiers{qual, side, kind}
	return qualify(proto, prm), nil
}

// qualify is r (nil: any flow) restricted to proto: a transport, or ip
// or ip6 (the IP version); r alone without one.
func qualify(proto string, r Filter) Filter {
	var q Filter
	switch proto {
	case "":
		return r
	case "ip":
		q = ipPrm(4)
	case "ip6":
		q = ipPrm(6)
	default:
		q = protoPrm(proto)
	}
	if r == nil {
		return q
	}
	return andExpr{q, r}
}

// netPrefix reads a net as libpcap does: address/bits, a whole address
// (all its bits), or an IPv4 network's first one to three octets (10.88:
// 10.88.0.0/16).
func netPrefix(v string) (netip.Prefix, error) {
	if strings.Contains(v, "/") {
		return netip.ParsePrefix(v)
	}
	if a, err := netip.ParseAddr(v); err == nil {
		return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
	}
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return netip.Prefix{}, fmt.Errorf("not a net")
	}
	var b [4]byte
	for i, s := range parts {
		n, err := strconv.ParseUint(s, 10, 8)
		if err != nil {
			return netip.Prefix{}, err
		}
		b[i] = byte(n)
	}
	return netip.PrefixFrom(netip.AddrFrom4(b), 8*len(parts)), nil
}

// filterNumber reads a port as libpcap does: 0x… hexadecimal, 0… octal
// (so 080 is an error, as in tcpdump), decimal otherwise. (A portrange's
// bounds are decimal.)
func filterNumber(v string) (uint64, error) {
	switch {
	case len(v) > 2 && (v[:2] == "0x" || v[:2] == "0X"):
		return strconv.ParseUint(v[2:], 16, 16)
	case len(v) > 1 && v[0] == '0':
		return strconv.ParseUint(v[1:], 8, 16)
	}
	return strconv.ParseUint(v, 10, 16)
}

// StreamFilter keeps the streams of Set (-s 1,3-5) of transport Proto
// ("": any; CAPTURE#N is tcp, CAPTURE#udpN udp), of those Next keeps
// (nil: all).
type StreamFilter struct {
	Set   map[int]bool
	Proto string
	Next  Filter
}

// Match keeps v if its stream is in the set and Next keeps it.
func (f StreamFilter) Match(v *FlowView) bool {
	return f.Set[v.Stream] && (f.Proto == "" || v.Proto == f.Proto) && (f.Next == nil || f.Next.Match(v))
}

// maxStreams bounds how many streams ParseStreamSet's lists name, in
// one range or in all (each is kept in the set).
const maxStreams = 1<<20 + 1

// ParseStreamSet reads stream numbers and ranges: 1,3-5. The ranges are
// merged before the set is filled, so that many of them (or one named
// many times) cost no more than the streams they name.
func ParseStreamSet(vs []string) (map[int]bool, error) {
	var spans [][2]int // [lo, hi]
	for _, v := range vs {
		l, h, isRange := strings.Cut(v, "-")
		lo, e1 := strconv.Atoi(l)
		hi := lo
		var e2 error
		if isRange {
			hi, e2 = strconv.Atoi(h)
		}
		switch {
		case e1 != nil || e2 != nil || lo < 0:
			return nil, fmt.Errorf("%q: want stream numbers and ranges (1,3-5)", v)
		case hi < lo:
			return nil, fmt.Errorf("%q: want stream numbers and ranges (1,3-5), a range's first number first", v)
		case hi-lo > maxStreams-1:
			return nil, fmt.Errorf("%q: a range names at most %d streams (leave -s out for every stream)", v, maxStreams)
		}
		spans = append(spans, [2]int{lo, hi})
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	merged, total := spans[:0], 0
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp[0]-1 <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	for _, sp := range merged {
		if total += sp[1] - sp[0] + 1; total > maxStreams || total <= 0 {
			return nil, fmt.Errorf("the ranges name more than %d streams in all (leave -s out for every stream)", maxStreams)
		}
	}
	set := make(map[int]bool, total)
	for _, sp := range merged {
		for n := sp[0]; ; n++ { // (n <= hi would wrap past the largest int)
			set[n] = true
			if n == sp[1] {
				break
			}
		}
	}
	return set, nil
}

// unsupported are tcpdump's primitives a connection filter cannot
// evaluate, and why: the filter sees each flow's endpoints and
// transport, not its packets one by one nor their link layer.
var unsupported = func() map[string]string {
	m := map[string]string{}
	for _, w := range []string{"less", "greater", "len"} {
		m[w] = "a connection is selected by its endpoints and transport (host, net, port, portrange, tcp, udp), not by its packets' lengths"
	}
	for _, w := range []string{"vlan", "mpls", "pppoes", "pppoed", "geneve"} {
		m[w] = "tagged and tunnelled traffic is matched on its innermost IP and TCP/UDP headers, as untagged (leave it out)"
	}
	for _, w := range []string{"ether", "arp", "rarp", "wlan", "fddi", "tr", "link", "broadcast", "multicast", "gateway", "decnet", "atalk", "ipx", "iso", "stp", "inbound", "outbound", "ifname", "on"} {
		m[w] = "the link layer (MAC addresses, interfaces) is not kept; select by IP host or net"
	}
	m["proto"] = "name the transport itself: tcp, udp, icmp, icmp6"
	m["sctp"] = "tcpviz reads TCP, UDP and ICMP flows"
	return m
}()

// service is a port's name (port http): its number and the transport it
// is known on ("": TCP and UDP).
type service struct {
	port  uint16
	proto string
}

// services are the names "port NAME" takes, as Debian's /etc/services
// (netbase) gives them and libpcap reads them: a name listed for TCP
// alone is a TCP port (port http: TCP port 80), one listed for both any
// transport's. A fixed table: nothing is read at run time.
var services = map[string]service{
	"ftp-data": {20, "tcp"}, "ftp": {21, "tcp"}, "ssh": {22, "tcp"}, "telnet": {23, "tcp"},
	"smtp": {25, "tcp"}, "mail": {25, "tcp"}, "domain": {53, ""}, "kerberos": {88, ""},
	"bootps": {67, "udp"}, "bootpc": {68, "udp"}, "tftp": {69, "udp"},
	"http": {80, "tcp"}, "www": {80, "tcp"}, "pop3": {110, "tcp"}, "pop-3": {110, "tcp"},
	"ntp": {123, "udp"}, "netbios-ns": {137, "udp"}, "netbios-dgm": {138, "udp"}, "netbios-ssn": {139, "tcp"},
	"imap2": {143, "tcp"}, "imap": {143, "tcp"}, "snmp": {161, ""}, "snmp-trap": {162, ""}, "snmptrap": {162, ""},
	"bgp": {179, "tcp"}, "ldap": {389, ""}, "https": {443, ""}, "microsoft-ds": {445, "tcp"},
	"isakmp": {500, "udp"}, "shell": {514, "tcp"}, "syslog": {514, "udp"}, "rtsp": {554, ""},
	"submission": {587, "tcp"}, "ldaps": {636, ""}, "imaps": {993, "tcp"}, "pop3s": {995, "tcp"},
	"socks": {1080, "tcp"}, "openvpn": {1194, ""}, "ms-sql-s": {1433, "tcp"}, "nfs": {2049, ""},
	"mysql": {3306, "tcp"}, "ms-wbt-server": {3389, "tcp"}, "sip": {5060, ""}, "xmpp-client": {5222, "tcp"},
	"postgresql": {5432, "tcp"}, "postgres": {5432, "tcp"}, "http-alt": {8080, "tcp"}, "webcache": {8080, "tcp"},
}

// serviceNames are a few of the names port takes, for an error.
func serviceNames() string { return "ssh, domain, http, https, ntp, …" }
