package main

import (
	"io"
	"reflect"

	"github.com/urfave/cli/v2"

	"tcpviz/internal/cmdline"
)

// describe is cmds as completion sees them (cmdline.Command): each flag's
// names, whether it takes a value, its choices, whether it names files.
func describe(cmds []*cli.Command) []cmdline.Command {
	var out []cmdline.Command
	for _, c := range cmds {
		d := cmdline.Command{Name: c.Name, Usage: c.Usage}
		for _, f := range c.Flags {
			fd := cmdline.Flag{Names: f.Names()}
			if _, ok := f.(*cli.BoolFlag); !ok {
				fd.Takes = true
				if g, ok := f.(*cli.GenericFlag); ok {
					if c, ok := g.Value.(*cmdline.Choice); ok {
						fd.Choices = c.Choices
					}
				}
				switch f.Names()[0] {
				case "output", "out-dir", "manifest", "files-from", "table":
					fd.Files = true
				}
			}
			if u, ok := f.(cli.DocGenerationFlag); ok {
				fd.Usage, fd.Described = u.GetUsage(), true
			}
			d.Flags = append(d.Flags, fd)
		}
		out = append(out, d)
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
				return cmdline.WriteBash(e.stdout, describe(visible))
			case "zsh":
				return cmdline.WriteZsh(e.stdout, describe(visible))
			case "fish":
				return cmdline.WriteFish(e.stdout, describe(visible))
			default:
				return usagef("completion: %q: want bash, zsh or fish", sh)
			}
		},
	}
}

// manCommand is the hidden `tcpviz man`: the manual page in roff, made
// from the command definitions (make man writes docs/tcpviz.1): section
// 1, placeholders (<name>) kept, with a synopsis, examples and see also
// (cmdline.FinishMan).
func manCommand(e *env, app func() *cli.App) *cli.Command {
	return &cli.Command{
		Name:   "man",
		Hidden: true,
		Usage:  "print the manual page (roff)",
		Action: func(*cli.Context) error {
			a := app()
			for _, c := range a.Commands {
				c.Usage, c.Description, c.ArgsUsage = cmdline.ManText(c.Usage), cmdline.ManText(c.Description), cmdline.ManText(c.ArgsUsage)
				for _, f := range c.Flags {
					if v := reflect.ValueOf(f); v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
						if u := v.Elem().FieldByName("Usage"); u.IsValid() && u.Kind() == reflect.String && u.CanSet() {
							u.SetString(cmdline.ManText(u.String()))
						}
					}
				}
			}
			s, err := a.ToManWithSection(1)
			if err != nil {
				return err
			}
			_, err = io.WriteString(e.stdout, cmdline.FinishMan(s))
			return err
		},
	}
}
