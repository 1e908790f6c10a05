package cmdline

import (
	"runtime/debug"
	"strings"
)

// Version is what `tcpviz --version` prints: the module version, the
// commit it was built from (and whether the tree was modified), and the
// Go version, from the build information.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	return version(bi, ok)
}

func version(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "tcpviz (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	out := "tcpviz " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		out += " commit " + rev
		if modified {
			out += " (modified)"
		}
		if when != "" {
			out += " of " + when
		}
	}
	return out + " built with " + bi.GoVersion
}

// ManText escapes what markdown would take for HTML: the manual page is
// made from markdown, where <name> is a tag; escaped, it stays.
func ManText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// FinishMan finishes the manual page made (in roff, section 1) from the
// command definitions, their texts escaped by ManText: the synopsis, the
// placeholders (<name>) given back, and the EXAMPLES and SEE ALSO.
func FinishMan(s string) string {
	s = strings.Replace(s, ".SH SYNOPSIS\ntcpviz\n", ".SH SYNOPSIS\n.B tcpviz\n.I COMMAND\n[\\fIFLAGS\\fP] \\fICAPTURE\\fP|\\fIDIR\\fP ...\n", 1)
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s) + manExamples
}

// manExamples are the page's EXAMPLES and SEE ALSO, in roff.
const manExamples = `
.SH EXAMPLES
.TP
\fBtcpviz summary \-f table capture.pcap\fP
every connection direction: throughput, RTT, retransmissions, the path's losses, the diagnosis
.TP
\fBtcpviz seq \-o seq.png capture.pcap\fP
the tcptrace time/sequence graph of the connection that carried the most payload
.TP
\fBtcpviz compare \-\-label "no PEP" \-\-label PEP nopep.pcap pep.pcap\fP
one transfer over each path, overlaid, with a comparison table on standard output
.TP
\fBtcpviz sweep \-\-param 'rtt=sweep_(\\d+)ms' \-\-param 'kind=(fixed|jitter)' \-\-rows rtt \-\-cols kind,proto \-f table sweep/\fP
an experiment's table: mean ± 95% interval of each group's throughput
.TP
\fBtcpviz packets \-\-filter 'host 10.0.0.1 and port 443' \-f parquet \-o p.parquet capture.pcap\fP
the per-packet analysis (Wireshark's flags, bytes in flight, RTT, the path's verdict) for DuckDB
.TP
\fBtcpviz io \-\-interval 500ms \-\-graph fairness \-o fair.png capture.pcap\fP
Jain's fairness index of the flows sharing each interval
.TP
\fBtcpviz join client.pcap server.pcap\fP
the same transfers captured at two points: what each hop lost, reordered and delayed
.TP
\fBtcpviz report capture.pcap\fP
every graph and the summary in capture-report/index.html
.SH SEE ALSO
.BR tshark (1),
.BR tcpdump (1),
.BR tcptrace (1),
.BR wireshark (1),
.BR zeek (8)
`
