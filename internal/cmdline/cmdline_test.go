package cmdline

import (
	"errors"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// cmds is a command of every kind of flag: a switch, a value, a choice,
// a file.
var cmds = []Command{{Name: "seq", Usage: "time/sequence graph: tcptrace's", Flags: []Flag{
	{Names: []string{"log-y"}, Usage: "log", Described: true},
	{Names: []string{"stream", "s"}, Takes: true, Usage: "the connection", Described: true},
	{Names: []string{"theme"}, Takes: true, Choices: []string{"default", "paper"}},
	{Names: []string{"output", "o"}, Takes: true, Files: true, Usage: "file", Described: true},
}}}

// TestCompletion: each shell completes the commands, their flags, a
// choice's values and a file flag's files.
func TestCompletion(t *testing.T) {
	for _, c := range []struct {
		write func(*strings.Builder) error
		want  []string
	}{
		{func(b *strings.Builder) error { return WriteBash(b, cmds) }, []string{
			`compgen -W "seq --help --version"`,
			`"seq --theme") COMPREPLY=($(compgen -W "default paper" -- "$cur")); return ;;`,
			`seq) COMPREPLY=($(compgen -W "--help --log-y --output --stream --theme -o -s" -- "$cur")) ;;`}},
		{func(b *strings.Builder) error { return WriteZsh(b, cmds) }, []string{
			`"seq:time/sequence graph\\: tcptrace's"`,
			`seq) _arguments '*:file:_files' '--log-y' '--stream:stream: ' '-s:s: ' '--theme:theme:(default paper)' '--output:file:_files' '-o:file:_files' '--help' ;;`}},
		{func(b *strings.Builder) error { return WriteFish(b, cmds) }, []string{
			`complete -c tcpviz -n __fish_use_subcommand -a seq -d "time/sequence graph: tcptrace's"`,
			`complete -c tcpviz -n '__fish_seen_subcommand_from seq' -l log-y -d "log"` + "\n",
			`complete -c tcpviz -n '__fish_seen_subcommand_from seq' -l stream -s s -x -d "the connection"`,
			`complete -c tcpviz -n '__fish_seen_subcommand_from seq' -l theme -x -a "default paper"` + "\n",
			`-l output -s o -r -F -d "file"`}},
	} {
		var b strings.Builder
		if err := c.write(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("no %q in\n%s", w, b.String())
			}
		}
	}
}

func TestFlagWords(t *testing.T) {
	for msg, want := range map[string]string{
		`invalid value "x" for flag -width: "x": want a number`: `--width "x": want a number`,
		"flag needs an argument: -s":                            "-s: missing value",
		"flag provided but not defined: -bogus":                 "unknown flag --bogus",
		"something else":                                        "something else",
	} {
		if got := FlagMessage(msg); got != want {
			t.Errorf("FlagMessage(%q) = %q, want %q", msg, got, want)
		}
	}
	if got := OneLine("a\n   b  c\r\n\td "); got != "a b  c d" {
		t.Errorf("OneLine: %q", got)
	}
	names := []string{"streams", "summary", "seq", "compare"}
	for typed, want := range map[string]string{"sumary": "summary", "stram": "streams", "compre": "compare", "comp": "compare", "bogus": ""} {
		if got := Nearest(typed, names); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", typed, got, want)
		}
	}
}

func TestCaptureSuffix(t *testing.T) {
	for a, want := range map[string]string{
		"x.pcap#3": "x.pcap 3 false true", "x.pcap#udp": "x.pcap -1 true true", "x.pcap#udp12": "x.pcap 12 true true",
		"x.pcap": " 0 false false", "a#b#7": "a#b 7 false true", "x#udpz": " 0 false false",
	} {
		base, n, udp, ok, err := CaptureSuffix(a)
		if got := strings.Join([]string{base, strconv.Itoa(n), strconv.FormatBool(udp), strconv.FormatBool(ok)}, " "); got != want || err != nil {
			t.Errorf("CaptureSuffix(%q) = %q, %v; want %q", a, got, err, want)
		}
	}
	if _, _, _, ok, err := CaptureSuffix("x#99999999999999999999"); !ok || !errors.Is(err, strconv.ErrRange) {
		t.Errorf("a number out of range: ok %v, err %v", ok, err)
	}
}

func TestVersionAndMan(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.23", Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-12-07T00:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := version(bi, true), "tcpviz (devel) commit 0123456789ab (modified) of 2026-12-07T00:00:00Z built with go1.23"; got != want {
		t.Errorf("version: %q, want %q", got, want)
	}
	if got := version(nil, false); got != "tcpviz (no build information)" {
		t.Errorf("version without build information: %q", got)
	}
	page := FinishMan(".SH SYNOPSIS\ntcpviz\n.SH X\n" + ManText("-o <file> & more") + "\n")
	if !strings.HasPrefix(page, ".SH SYNOPSIS\n.B tcpviz\n.I COMMAND\n") || !strings.Contains(page, "-o <file> & more\n\n.SH EXAMPLES") || !strings.HasSuffix(page, ".BR zeek (8)\n") {
		t.Errorf("FinishMan:\n%s", page)
	}
}
