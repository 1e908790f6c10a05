package charts

import (
	"strconv"
	"time"

	"tcpviz/reassembly"
)

// StreamsColumns are the columns of `tcpviz streams`, in order.
var StreamsColumns = []Column{
	{"file", String}, {"stream", Number},
	{"client_addr", String}, {"client_port", Number},
	{"server_addr", String}, {"server_port", Number},
	{"first_time", String}, {"duration_s", Number},
	{"c2s_packets", Number}, {"s2c_packets", Number},
	{"c2s_bytes", Number}, {"s2c_bytes", Number},
	{"state", String},
	{"handshake", Bool},
	{"c2s_duplicates", Number}, {"s2c_duplicates", Number},
}

// StreamRow is one row of the streams table for connection c of file.
func StreamRow(file string, c *reassembly.Conn) []string {
	i := strconv.FormatInt
	return []string{
		file, strconv.Itoa(c.Stream),
		c.Client.Addr().String(), strconv.Itoa(int(c.Client.Port())),
		c.Server.Addr().String(), strconv.Itoa(int(c.Server.Port())),
		FormatTime(c.FirstTime), FormatSeconds(c.Duration()),
		i(c.Dir[reassembly.C2S].Packets, 10), i(c.Dir[reassembly.S2C].Packets, 10),
		i(c.Dir[reassembly.C2S].Bytes, 10), i(c.Dir[reassembly.S2C].Bytes, 10),
		string(c.State()),
		strconv.FormatBool(c.Handshake),
		i(c.Dir[reassembly.C2S].Duplicates, 10), i(c.Dir[reassembly.S2C].Duplicates, 10),
	}
}

// FormatTime formats nanoseconds since the epoch as RFC 3339 UTC with
// nanoseconds.
func FormatTime(ns int64) string {
	return time.Unix(0, ns).UTC().Format("2006-01-02T15:04:05.000000000Z07:00")
}

// FormatSeconds formats a duration in nanoseconds as seconds with nine
// decimals, exactly.
func FormatSeconds(ns int64) string {
	sign := ""
	if ns < 0 {
		sign, ns = "-", -ns
	}
	frac := strconv.FormatInt(ns%1e9+1e9, 10)[1:]
	return sign + strconv.FormatInt(ns/1e9, 10) + "." + frac
}
