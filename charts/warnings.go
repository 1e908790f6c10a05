package charts

import (
	"fmt"

	"tcpviz/analyze"
	"tcpviz/internal/words"
)

// WarningText says a scan's warning, or a graph's warning or note, in
// words (a command prefixes a warning with the input).
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
	case analyze.WarnClockBack:
		what := "the capture's clock goes back " + words.LongDuration(w.Step) + ": what spans it"
		if n > 1 {
			what = fmt.Sprintf("the capture's clock goes back, the first of %d steps back of more than a minute (the largest %s): what spans one", n, words.LongDuration(w.Step))
		}
		return fmt.Sprintf("packet %d: %s (times since the first packet, durations, rates, RTTs) is wrong, as Wireshark shows it too", w.Packet, what)
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
	case analyze.WarnNoRTTWindow:
		return "no RTT samples to scale the averaging window by: averaging over 1 s"
	case analyze.WarnShortWindow:
		return fmt.Sprintf("the averaging window (%s) is shorter than four median RTTs (4 × %s): the curve follows each round trip's burst; --window 4rtt averages them out",
			words.Duration(w.Window), words.Duration(w.RTT))
	case analyze.WarnFarEndEstimated:
		return "one capture: the far end's times are estimated (half the handshake's round trip beyond the capture) and drawn dashed"
	case analyze.WarnLogXNames:
		return fmt.Sprintf("--log-x: %s's values are not all numbers (%s): they are named along a linear axis", w.Label, w.Values)
	case analyze.WarnLogXNonPositive:
		return fmt.Sprintf("--log-x: %s=%s at or below zero, left out of the figure", w.Label, w.Values)
	case analyze.NoteProxyACKs:
		if w.Label != "" {
			return w.Label + ": ACKs from a proxy beside the capture: acknowledged and delivered mean accepted by the proxy, not by the far end"
		}
		return "ACKs from a proxy beside the capture (the receiver answers within a millisecond on a long path): acknowledged and delivered mean accepted by the proxy, not by the far end"
	case analyze.NoteReceiverFlight:
		return aboutInput(w, "receiver-side capture: the line is the data that arrived over each round trip, the sender's flight one one-way delay earlier, not the window it allowed")
	case analyze.NoteNoHandshake:
		return aboutInput(w, "the handshake was not captured in full: SACK is read from the blocks the receiver sent, and the receive window's scale is not known")
	case analyze.NoteWindowMisread:
		return aboutInput(w, "the flight ran past the receive window as read: its scale was not seen (no handshake, or options cut by the snapshot length), so it is not drawn and holds nothing")
	case analyze.NoteBBRCap:
		return aboutInput(w, "BBR sender: the cwnd estimate is BBR's own cap, 2 × its BDP estimate (2.89 × in startup and drain) + 3 bursts (about 1 ms at its rate each), at most the receiver's window")
	}
	return fmt.Sprintf("%s of other problems", words.Plural(n, "packet"))
}

// aboutInput is a note's text, after the compared input it is about (its
// Label), if any.
func aboutInput(w analyze.Warning, text string) string {
	if w.Label != "" {
		return w.Label + ": " + text
	}
	return text
}

// StderrNotes are the texts of g's notes said on stderr too: what a cwnd
// line stands on where the handshake was not seen or the window was
// misread, and, in a comparison, of each input whose line is a
// receiver's arrivals (a connection's own graph says that in words of its
// vantage, ConnGraph).
func StderrNotes(g *analyze.Graph) []string {
	var out []string
	for _, n := range g.Notes {
		if n.Kind == analyze.NoteNoHandshake || n.Kind == analyze.NoteWindowMisread || n.Kind == analyze.NoteReceiverFlight && n.Label != "" {
			out = append(out, WarningText(n))
		}
	}
	return out
}

// WarningTexts says each of ws in words.
func WarningTexts(ws []analyze.Warning) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, WarningText(w))
	}
	return out
}
