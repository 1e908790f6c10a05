// Package cmdline is the words and grammar of tcpviz's command line that
// are neither flag declarations nor files (cmd/tcpviz keeps those; this
// package knows no flag library): from a plain description of the
// commands, the shell completion scripts and the finishing of the manual
// page; the version line, flag spellings, the rewording of flag errors
// and the command nearest a typo; the grammar of a capture's suffix
// (CAPTURE#N, CAPTURE#udpN), of a --files-from list and of a --shard
// share; and the flag values that are words (a choice, a list).
package cmdline

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Command is a command as completion sees it.
type Command struct {
	Name, Usage string
	Flags       []Flag
}

// Flag is a flag as completion sees it.
type Flag struct {
	Names     []string // the name, then its aliases
	Takes     bool     // takes a value (not a switch)
	Choices   []string // the values it allows, if a fixed set
	Files     bool     // its value is a file or directory
	Usage     string
	Described bool // Usage is its description
}

// Dash is a flag's name as typed: --name, or -n for a letter.
func Dash(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// spellings are a flag's spellings: --name, -n.
func (f Flag) spellings() []string {
	var out []string
	for _, n := range f.Names {
		out = append(out, Dash(n))
	}
	return out
}

func names(cmds []Command) []string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.Name)
	}
	return out
}

// WriteBash writes the bash completion script of tcpviz's cmds.
func WriteBash(w io.Writer, cmds []Command) error {
	var b strings.Builder
	b.WriteString("# bash completion for tcpviz (tcpviz completion bash)\n_tcpviz() {\n")
	b.WriteString("  local cur=${COMP_WORDS[COMP_CWORD]}\n")
	fmt.Fprintf(&b, "  if [[ $COMP_CWORD -eq 1 ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); return; fi\n", strings.Join(append(names(cmds), "--help", "--version"), " "))
	b.WriteString("  local prev=${COMP_WORDS[COMP_CWORD-1]}\n  case \"${COMP_WORDS[1]} $prev\" in\n")
	for _, c := range cmds {
		for _, f := range c.Flags {
			if len(f.Choices) > 0 {
				for _, sp := range f.spellings() {
					fmt.Fprintf(&b, "    %q) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", c.Name+" "+sp, strings.Join(f.Choices, " "))
				}
			}
		}
	}
	b.WriteString("  esac\n")
	b.WriteString("  if [[ $cur == -* ]]; then\n    case ${COMP_WORDS[1]} in\n")
	for _, c := range cmds {
		names := []string{"--help"}
		for _, f := range c.Flags {
			names = append(names, f.spellings()...)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "      %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", c.Name, strings.Join(names, " "))
	}
	b.WriteString("    esac\n    return\n  fi\n  COMPREPLY=($(compgen -f -- \"$cur\"))\n}\ncomplete -o filenames -F _tcpviz tcpviz\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteZsh writes the zsh completion script of tcpviz's cmds.
func WriteZsh(w io.Writer, cmds []Command) error {
	var b strings.Builder
	b.WriteString("#compdef tcpviz\n# zsh completion for tcpviz (tcpviz completion zsh)\n_tcpviz() {\n  local -a cmds\n  cmds=(\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %q\n", c.Name+":"+strings.ReplaceAll(c.Usage, ":", "\\:"))
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )); then _describe command cmds; return; fi\n  case $words[2] in\n")
	for _, c := range cmds {
		var specs []string
		for _, f := range c.Flags {
			for _, sp := range f.spellings() {
				switch {
				case len(f.Choices) > 0:
					specs = append(specs, sp+":"+strings.TrimLeft(sp, "-")+":("+strings.Join(f.Choices, " ")+")")
				case f.Files:
					specs = append(specs, sp+":file:_files")
				case f.Takes:
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

// WriteFish writes the fish completion script of tcpviz's cmds.
func WriteFish(w io.Writer, cmds []Command) error {
	var b strings.Builder
	b.WriteString("# fish completion for tcpviz (tcpviz completion fish)\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c tcpviz -n __fish_use_subcommand -a %s -d %q\n", c.Name, c.Usage)
		for _, f := range c.Flags {
			line := fmt.Sprintf("complete -c tcpviz -n '__fish_seen_subcommand_from %s'", c.Name)
			for _, n := range f.Names { // the name, then a letter
				if len(n) == 1 {
					line += " -s " + n
				} else {
					line += " -l " + n
				}
			}
			switch {
			case len(f.Choices) > 0:
				line += fmt.Sprintf(" -x -a %q", strings.Join(f.Choices, " "))
			case f.Files:
				line += " -r -F"
			case f.Takes:
				line += " -x"
			}
			if f.Described {
				line += fmt.Sprintf(" -d %q", f.Usage)
			}
			b.WriteString(line + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
