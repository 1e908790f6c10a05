package cmdline

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/xrash/smetrics"
)

// Messages of Go's flag package, as urfave/cli passes them on.
var (
	invalidValue = regexp.MustCompile(`^invalid value ".*" for flag -(\S+): (.*)$`)
	needsValue   = regexp.MustCompile(`^flag needs an argument: -(\S+)$`)
	notDefined   = regexp.MustCompile(`^flag provided but not defined: -(\S+)$`)
)

// FlagMessage rewords a flag parsing error of Go's flag package to name
// the flag as typed (--from, -s); another message is returned as is.
func FlagMessage(msg string) string {
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		return Dash(m[1]) + " " + m[2]
	}
	if m := needsValue.FindStringSubmatch(msg); m != nil {
		return Dash(m[1]) + ": missing value"
	}
	if m := notDefined.FindStringSubmatch(msg); m != nil {
		return "unknown flag " + Dash(m[1])
	}
	return msg
}

// OneLine keeps a message on one line: each line break, with the
// indentation after it, becomes one space; other spaces stay (a value
// quoted in it, --filter "   ", is shown as given).
func OneLine(s string) string {
	return strings.TrimSpace(lineBreak.ReplaceAllString(s, " "))
}

var lineBreak = regexp.MustCompile(`[ \t]*\r?\n[ \t]*`)

// Nearest is the command of names a mistyped command typed most likely
// meant: within two edits, or that starts with it; "" for none.
func Nearest(typed string, names []string) string {
	best, dist := "", 3
	for _, name := range names {
		if d := smetrics.WagnerFischer(strings.ToLower(typed), name, 1, 1, 1); d < dist || strings.HasPrefix(name, typed) && dist > 1 {
			best, dist = name, min(d, 1)
		}
	}
	return best
}

var (
	streamSuffix = regexp.MustCompile(`^(.*)#(\d+)$`)
	udpSuffix    = regexp.MustCompile(`^(.*)#udp(\d*)$`)
)

// CaptureSuffix reads the suffix of argument a, the one reading of it for
// every command: CAPTURE#N (stream N: tcp.stream, or udp.stream under
// --proto udp) or CAPTURE#udp[N] (UDP flow N; without N, n is -1: the
// busiest). ok is false without one; err says a number out of range.
func CaptureSuffix(a string) (base string, n int, udp, ok bool, err error) {
	if m := udpSuffix.FindStringSubmatch(a); m != nil {
		if m[2] == "" {
			return m[1], -1, true, true, nil
		}
		n, err = strconv.Atoi(m[2])
		return m[1], n, true, true, err
	}
	if m := streamSuffix.FindStringSubmatch(a); m != nil {
		n, err = strconv.Atoi(m[2])
		return m[1], n, false, true, err
	}
	return "", 0, false, false, nil
}
