package main

import (
	"fmt"
	"io"
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

// commandFlags lists, per command, its flag spellings (--name and -n).
func commandFlags(cmds []*cli.Command) map[string][]string {
	out := map[string][]string{}
	for _, c := range cmds {
		var names []string
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				if len(n) == 1 {
					names = append(names, "-"+n)
				} else {
					names = append(names, "--"+n)
				}
			}
		}
		names = append(names, "--help")
		sort.Strings(names)
		out[c.Name] = names
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
	b.WriteString("  if [[ $cur == -* ]]; then\n    case ${COMP_WORDS[1]} in\n")
	flags := commandFlags(cmds)
	for _, c := range cmds {
		fmt.Fprintf(&b, "      %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", c.Name, strings.Join(flags[c.Name], " "))
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
	flags := commandFlags(cmds)
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s) _arguments '*:file:_files' %s ;;\n", c.Name, quoteAll(flags[c.Name]))
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
			long, short := "", ""
			for _, n := range f.Names() {
				if len(n) == 1 {
					short = n
				} else {
					long = n
				}
			}
			line := fmt.Sprintf("complete -c tcpviz -n '__fish_seen_subcommand_from %s'", c.Name)
			if long != "" {
				line += " -l " + long
			}
			if short != "" {
				line += " -s " + short
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
// from the command definitions (make man writes docs/tcpviz.1).
func manCommand(e *env, app func() *cli.App) *cli.Command {
	return &cli.Command{
		Name:   "man",
		Hidden: true,
		Usage:  "print the manual page (roff)",
		Action: func(*cli.Context) error {
			s, err := app().ToMan()
			if err != nil {
				return err
			}
			_, err = io.WriteString(e.stdout, s)
			return err
		},
	}
}
