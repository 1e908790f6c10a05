package charts

import (
	"fmt"

	"tcpviz/analyze"
	"tcpviz/internal/words"
)

// WarningText says a scan's warning in words (a command prefixes it
// with the input).
func WarningText(w analyze.Warning) string {
	n := w.Count
	switch w.Kind {
	case analyze.WarnContinued:
		return fmt.Sprintf("%s retired while open (idle while the capture had more live connections than the tracker keeps for good) came back: each is reported in parts, rows with one stream number, where Wireshark has one conversation", words.Plural(n, "connection"))
	case analyze.WarnEvicted:
		return fmt.Sprintf("%s retired while open were forgotten (more than the tracker keeps): a later packet of one starts a new stream where Wireshark continues the old one", words.Plural(n, "connection"))
	case analyze.WarnBadTime:
		return fmt.Sprintf("packet %d: %s with a timestamp before 1678 or after 2262 (beyond what nanoseconds since 1970 hold): analysed as tshark does, but their dates are wrong (wrapped)", w.Packet, words.Plural(n, "packet"))
	case analyze.WarnNoTime:
		return fmt.Sprintf("packet %d: %s without a timestamp (pcapng simple packet blocks; Wireshark shows none): each placed at the time of the packet before it, or of the first after it, so no RTT or duration spans the years to 1970",
			w.Packet, words.Plural(n, "packet"))
	case analyze.WarnMalformed:
		first := ""
		if w.Err != nil {
			first = w.Err.Error()
		}
		return fmt.Sprintf("%s could not be decoded and skipped (first: %s)", words.Plural(n, "packet"), first)
	case analyze.WarnUnknownLink:
		return fmt.Sprintf("packet %d: unsupported link type %d; %s skipped", w.Packet, w.LinkType, words.Plural(n, "packet"))
	case analyze.WarnFragIncomplete:
		return fmt.Sprintf("%s carrying TCP whose fragments did not all arrive (first fragment: packet %d): their segments are missing",
			words.Plural(n, "fragmented datagram"), w.Packet)
	case analyze.WarnDatagramIncomplete:
		return fmt.Sprintf("%s whose fragments did not all arrive (first fragment: packet %d)", words.Plural(n, "fragmented datagram"), w.Packet)
	case analyze.WarnDatagramMalformed:
		first := ""
		if w.Err != nil {
			first = " (first: " + w.Err.Error() + ")"
		}
		return fmt.Sprintf("%s could not be decoded and skipped%s", words.Plural(n, "datagram"), first)
	}
	return fmt.Sprintf("%s of other problems", words.Plural(n, "packet"))
}
