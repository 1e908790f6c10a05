package main

import (
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"tcpviz/charts"
	"tcpviz/internal/cmdline"
)

// Batch inputs: more paths from a file (as find and xargs produce them),
// and a stable share of the expanded list, so that a job runner
// (Kubernetes indexed Jobs, Slurm arrays, Spark's pipe) splits an archive
// across workers without coordination.

// batchFlags are --files-from and --shard (noShard: --files-from alone,
// for a command whose one output aggregates every input: sweep).
type batchFlags struct {
	shard     *cmdline.Share
	noShard   bool
	FilesFrom string
	Shard     cmdline.Share // n == 0: no sharding
}

func (f *batchFlags) flags() []cli.Flag {
	f.shard = &cmdline.Share{}
	fl := []cli.Flag{
		&cli.StringFlag{Name: "files-from", Usage: "read more inputs from FILE, one path a line (- for standard input); blank lines and lines that start with # are skipped (write ./#name for a file whose name starts with #)"},
		&cli.GenericFlag{Name: "shard", Value: f.shard, Usage: "process only share i of n of the inputs (after directories are walked), split by a hash of each path: stable, no coordination needed (an empty share exits 0)"},
	}
	if f.noShard {
		return fl[:1]
	}
	return fl
}

func (f *batchFlags) parse(c *cli.Context) error {
	f.FilesFrom, f.Shard = c.String("files-from"), *f.shard
	if c.IsSet("files-from") && f.FilesFrom == "" {
		return usagef("--files-from: want a file name, or - for standard input")
	}
	return nil
}

// filesFrom reads the --files-from list (stdin for "-").
func (f *batchFlags) filesFrom(stdin io.Reader) ([]string, error) {
	if f.FilesFrom == "" {
		return nil, nil
	}
	if f.FilesFrom == "-" {
		return cmdline.ReadPaths(stdin)
	}
	file, err := os.Open(f.FilesFrom)
	if err != nil {
		return nil, usagef("--files-from %s: %v", charts.EscapeName(f.FilesFrom), unwrapPathError(err))
	}
	defer file.Close()
	paths, err := cmdline.ReadPaths(file)
	if err != nil {
		return nil, usagef("--files-from %s: %v", charts.EscapeName(f.FilesFrom), err)
	}
	return paths, nil
}

// shardOf keeps the inputs of share s (cmdline.Share.Holds: by their
// paths as named), whatever their order.
func shardOf(ins []input, s cmdline.Share) []input {
	if s.N <= 1 {
		return ins
	}
	var out []input
	for _, in := range ins {
		if s.Holds(in.name) {
			out = append(out, in)
		}
	}
	return out
}
