package main

import (
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// versionString is what `tcpviz --version` prints: the module version,
// the commit it was built from (and whether the tree was modified), and
// the Go version, from the build information.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
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

// flagValue says what a flag takes: nothing (a switch), a value, and the
// values it allows (a choice) or files.
type flagValue struct {
	takes   bool
	choices []string
	files   bool
}

// valueOf is what f takes.
func valueOf(f cli.Flag) flagValue {
	if _, ok := f.(*cli.BoolFlag); ok {
		return flagValue{}
	}
	v := flagValue{takes: true}
	if g, ok := f.(*cli.GenericFlag); ok {
		if c, ok := g.Value.(*choiceValue); ok {
			v.choices = c.choices
		}
	}
	switch f.Names()[0] {
	case "output", "out-dir", "manifest", "files-from", "table":
		v.files = true
	}
	return v
}

// spellings are a flag's spellings: --name, -n.
func spellings(f cli.Flag) []string {
	var out []string
	for _, n := range f.Names() {
		out = append(out, dash(n))
	}
	return out
}

// completionCommand is `tcpviz completion bash|zsh|fish`: a completion
// script made from the command definitions.
func completionCommand(e *env, cmds func() []*cli.Command) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish (source it, or install it where the shell looks)",
		ArgsUsage: "bash|zsh|fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("completion: name a shell: bash, zsh or fish")
			}
			visible := []*cli.Command{}
			for _, cmd := range cmds() {
				if !cmd.Hidden {
					visible = append(visible, cmd)
				}
			}
			switch sh := c.Args().First(); sh {
			case "bash":
				return writeBashCompletion(e.stdout, visible)
			case "zsh":
				return writeZshCompletion(e.stdout, visible)
			case "fish":
				return writeFishCompletion(e.stdout, visible)
			default:
				return usagef("completion: %q: want bash, zsh or fish", sh)
			}
		},
	}
}

func names(cmds []*cli.Command) []string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.Name)
	}
	return out
}

func writeBashCompletion(w io.Writer, cmds []*cli.Command) error {
	var b strings.Builder
	b.WriteString("# bash completion for tcpviz (tcpviz completion bash)\n_tcpviz() {\n")
	b.WriteString("  local cur=${COMP_WORDS[COMP_CWORD]}\n")
	fmt.Fprintf(&b, "  if [[ $COMP_CWORD -eq 1 ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); return; fi\n", strings.Join(append(names(cmds), "--help", "--version"), " "))
	b.WriteString("  local prev=${COMP_WORDS[COMP_CWORD-1]}\n  case \"${COMP_WORDS[1]} $prev\" in\n")
	for _, c := range cmds {
		for _, f := range c.Flags {
			if v := valueOf(f); len(v.choices) > 0 {
				for _, sp := range spellings(f) {
					fmt.Fprintf(&b, "    %q) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", c.Name+" "+sp, strings.Join(v.choices, " "))
				}
			}
		}
	}
	b.WriteString("  esac\n")
	b.WriteString("  if [[ $cur == -* ]]; then\n    case ${COMP_WORDS[1]} in\n")
	for _, c := range cmds {
		names := []string{"--help"}
		for _, f := range c.Flags {
			names = append(names, spellings(f)...)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "      %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", c.Name, strings.Join(names, " "))
	}
	b.WriteString("    esac\n    return\n  fi\n  COMPREPLY=($(compgen -f -- \"$cur\"))\n}\ncomplete -o filenames -F _tcpviz tcpviz\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeZshCompletion(w io.Writer, cmds []*cli.Command) error {
	var b strings.Builder
	b.WriteString("#compdef tcpviz\n# zsh completion for tcpviz (tcpviz completion zsh)\n_tcpviz() {\n  local -a cmds\n  cmds=(\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %q\n", c.Name+":"+strings.ReplaceAll(c.Usage, ":", "\\:"))
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )); then _describe command cmds; return; fi\n  case $words[2] in\n")
	for _, c := range cmds {
		var specs []string
		for _, f := range c.Flags {
			v := valueOf(f)
			for _, sp := range spellings(f) {
				switch {
				case len(v.choices) > 0:
					specs = append(specs, sp+":"+strings.TrimLeft(sp, "-")+":("+strings.Join(v.choices, " ")+")")
				case v.files:
					specs = append(specs, sp+":file:_files")
				case v.takes:
					specs = append(specs, sp+":"+strings.TrimLeft(sp, "-")+": ")
				default:
					specs = append(specs, sp)
				}
			}
		}
		specs = append(specs, "--help")
		fmt.Fprintf(&b, "    %s) _arguments '*:file:_files' %s ;;\n", c.Name, quoteAll(specs))
	}
	b.WriteString("  esac\n}\ncompdef _tcpviz tcpviz\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, " ")
}

func writeFishCompletion(w io.Writer, cmds []*cli.Command) error {
	var b strings.Builder
	b.WriteString("# fish completion for tcpviz (tcpviz completion fish)\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c tcpviz -n __fish_use_subcommand -a %s -d %q\n", c.Name, c.Usage)
		for _, f := range c.Flags {
			line := fmt.Sprintf("complete -c tcpviz -n '__fish_seen_subcommand_from %s'", c.Name)
			for _, n := range f.Names() { // the name, then a letter
				if len(n) == 1 {
					line += " -s " + n
				} else {
					line += " -l " + n
				}
			}
			switch v := valueOf(f); {
			case len(v.choices) > 0:
				line += fmt.Sprintf(" -x -a %q", strings.Join(v.choices, " "))
			case v.files:
				line += " -r -F"
			case v.takes:
				line += " -x"
			}
			if u, ok := f.(cli.DocGenerationFlag); ok {
				line += fmt.Sprintf(" -d %q", u.GetUsage())
			}
			b.WriteString(line + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// manCommand is the hidden `tcpviz man`: the manual page in roff, made
// from the command definitions (make man writes docs/tcpviz.1): section
// 1, placeholders (<name>) kept, with a synopsis, examples and see also.
func manCommand(e *env, app func() *cli.App) *cli.Command {
	return &cli.Command{
		Name:   "man",
		Hidden: true,
		Usage:  "print the manual page (roff)",
		Action: func(*cli.Context) error {
			a := app()
			// The page is made from markdown, where <name> is a tag:
			// escaped, it stays.
			for _, c := range a.Commands {
				c.Usage, c.Description, c.ArgsUsage = manText(c.Usage), manText(c.Description), manText(c.ArgsUsage)
				for _, f := range c.Flags {
					if v := reflect.ValueOf(f); v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
						if u := v.Elem().FieldByName("Usage"); u.IsValid() && u.Kind() == reflect.String && u.CanSet() {
							u.SetString(manText(u.String()))
						}
					}
				}
			}
			s, err := a.ToManWithSection(1)
			if err != nil {
				return err
			}
			s = strings.Replace(s, ".SH SYNOPSIS\ntcpviz\n", ".SH SYNOPSIS\n.B tcpviz\n.I COMMAND\n[\\fIFLAGS\\fP] \\fICAPTURE\\fP|\\fIDIR\\fP ...\n", 1)
			s = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s) + manExamples
			_, err = io.WriteString(e.stdout, s)
			return err
		},
	}
}

// manText escapes what markdown would take for HTML.
func manText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
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
