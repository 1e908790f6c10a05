package charts

import (
	"strconv"
	"time"

	"tcpviz/analyze"
)

// StreamRow is one row of `tcpviz streams`: a connection of a capture.
type StreamRow struct {
	File string
	Info analyze.ConnInfo
}

func streamInt(f func(c *analyze.ConnInfo) int64) func(*StreamRow) Value {
	return func(r *StreamRow) Value { return IntV(f(&r.Info)) }
}

// StreamsColumns are the columns of `tcpviz streams`, in order.
var StreamsColumns = Schema[StreamRow]{
	{"file", String, "", "the capture, as named on the command line (- for standard input)", func(r *StreamRow) Value { return StrV(r.File) }},
	{"stream", Int, "", "Wireshark's tcp.stream number", streamInt(func(c *analyze.ConnInfo) int64 { return int64(c.Stream) })},
	{"client_addr", String, "", "address of the client (the SYN sender; without a handshake, the side with the higher port)", func(r *StreamRow) Value { return AddrV(r.Info.Client.Addr()) }},
	{"client_port", Int, "", "the client's port", streamInt(func(c *analyze.ConnInfo) int64 { return int64(c.Client.Port()) })},
	{"server_addr", String, "", "address of the server", func(r *StreamRow) Value { return AddrV(r.Info.Server.Addr()) }},
	{"server_port", Int, "", "the server's port", streamInt(func(c *analyze.ConnInfo) int64 { return int64(c.Server.Port()) })},
	{"first_time", Time, "", "time of the connection's first packet, RFC 3339 UTC with nanoseconds", func(r *StreamRow) Value { return TimeV(r.Info.FirstTime) }},
	{"duration_s", Float, "s", "from the first to the last packet of the connection", func(r *StreamRow) Value { return SecondsV(r.Info.Duration) }},
	{"c2s_packets", Int, "packets", "packets from client to server (capture duplicates included, as tshark counts)", streamInt(func(c *analyze.ConnInfo) int64 { return c.Packets[0] })},
	{"s2c_packets", Int, "packets", "packets from server to client", streamInt(func(c *analyze.ConnInfo) int64 { return c.Packets[1] })},
	{"c2s_bytes", Int, "B", "TCP payload bytes from client to server", streamInt(func(c *analyze.ConnInfo) int64 { return c.Bytes[0] })},
	{"s2c_bytes", Int, "B", "TCP payload bytes from server to client", streamInt(func(c *analyze.ConnInfo) int64 { return c.Bytes[1] })},
	{"state", String, "", "how far the connection got: syn_sent, syn_recv, established, midstream, fin_one_way, closed or reset", func(r *StreamRow) Value { return StrV(r.Info.State) }},
	{"handshake", Bool, "", "the three-way handshake was captured: the client's SYN, the SYN/ACK and what followed it (false for a lone SYN, a SYN answered by a RST)", func(r *StreamRow) Value { return BoolV(r.Info.Handshake) }},
	{"c2s_duplicates", Int, "packets", "client-to-server packets captured twice (several interfaces, -i any)", streamInt(func(c *analyze.ConnInfo) int64 { return c.Duplicates[0] })},
	{"s2c_duplicates", Int, "packets", "server-to-client packets captured twice", streamInt(func(c *analyze.ConnInfo) int64 { return c.Duplicates[1] })},
	{"conn_state", String, "", "Zeek's conn_state: S0 (attempt, no reply), S1 (established, not closed), SF (established and closed), REJ (rejected), S2 and S3 (closed by the originator or the responder only), RSTO and RSTR (reset by the originator or the responder), RSTOS0, RSTRH, SH, SHR (half-open cases), OTH (midstream); as Zeek's TCP analyzer computes it", func(r *StreamRow) Value { return StrV(r.Info.ZeekState) }},
	{"history", String, "", "Zeek's history: S SYN, H SYN/ACK, A pure ACK, D data, F FIN, R RST, T retransmission and W zero window (at the 1st, 10th, 100th…), I FIN+RST, Q SYN with FIN or RST, ^ roles flipped; upper case from Zeek's originator, lower case from its responder (no G: content gaps need Zeek's application analyzers)", func(r *StreamRow) Value { return StrV(r.Info.ZeekHistory) }},
	{"zeek_originator", String, "", "which side Zeek takes for the originator (upper-case letters): client, or server when its heuristics flipped the roles", func(r *StreamRow) Value {
		if r.Info.ZeekOrigClient {
			return StrV("client")
		}
		return StrV("server")
	}},
}

// FormatTime formats nanoseconds since the epoch as RFC 3339 UTC with
// nanoseconds.
func FormatTime(ns int64) string { return string(AppendTime(nil, ns)) }

// AppendTime appends FormatTime(ns) to dst: time.RFC3339Nano's layout
// with all nine decimals ("2006-01-02T15:04:05.000000000Z07:00"), written
// digit by digit (a table writes one a row). int64 nanoseconds span the
// years 1677 to 2262: four digits.
func AppendTime(dst []byte, ns int64) []byte {
	t := time.Unix(0, ns).UTC()
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	dst = appendDigits(dst, y, 4)
	dst = appendDigits(append(dst, '-'), int(mo), 2)
	dst = appendDigits(append(dst, '-'), d, 2)
	dst = appendDigits(append(dst, 'T'), h, 2)
	dst = appendDigits(append(dst, ':'), mi, 2)
	dst = appendDigits(append(dst, ':'), sec, 2)
	dst = appendDigits(append(dst, '.'), t.Nanosecond(), 9)
	return append(dst, 'Z')
}

// FormatSeconds formats a duration in nanoseconds as seconds with nine
// decimals, exactly.
func FormatSeconds(ns int64) string { return string(AppendSeconds(nil, ns)) }

// AppendSeconds appends FormatSeconds(ns) to dst.
func AppendSeconds(dst []byte, ns int64) []byte {
	if ns < 0 {
		dst, ns = append(dst, '-'), -ns
	}
	dst = strconv.AppendInt(dst, ns/1e9, 10)
	dst = append(dst, '.')
	var frac [24]byte
	f := strconv.AppendInt(frac[:0], ns%1e9+1e9, 10)
	return append(dst, f[1:]...)
}
