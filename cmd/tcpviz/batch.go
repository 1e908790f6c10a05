package main

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"tcpviz/charts"
)

// Batch inputs: more paths from a file (as find and xargs produce them),
// and a stable share of the expanded list, so that a job runner
// (Kubernetes indexed Jobs, Slurm arrays, Spark's pipe) splits an archive
// across workers without coordination.

// shardValue is --shard i/n.
type shardValue struct{ i, n int }

func (s *shardValue) Set(v string) error {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || n > 1<<20 || i < 0 || i >= n {
		return fmt.Errorf("%q: want i/n with 0 ≤ i < n, such as 0/4", v)
	}
	s.i, s.n = i, n
	return nil
}

func (s *shardValue) String() string {
	if s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.i, s.n)
}

// batchFlags are --files-from and --shard (noShard: --files-from alone,
// for a command whose one output aggregates every input: sweep).
type batchFlags struct {
	shard     *shardValue
	noShard   bool
	FilesFrom string
	Shard     shardValue // n == 0: no sharding
}

func (f *batchFlags) flags() []cli.Flag {
	f.shard = &shardValue{}
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

// readPaths returns the paths listed in r, one a line (a CRLF line end
// is one). Lines empty or of only white space, and comments (lines that
// start with #), are skipped; nothing else is interpreted: spaces around
// a name belong to it.
func readPaths(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

// filesFrom reads the --files-from list (stdin for "-").
func (f *batchFlags) filesFrom(stdin io.Reader) ([]string, error) {
	if f.FilesFrom == "" {
		return nil, nil
	}
	if f.FilesFrom == "-" {
		return readPaths(stdin)
	}
	file, err := os.Open(f.FilesFrom)
	if err != nil {
		return nil, usagef("--files-from %s: %v", charts.EscapeName(f.FilesFrom), unwrapPathError(err))
	}
	defer file.Close()
	paths, err := readPaths(file)
	if err != nil {
		return nil, usagef("--files-from %s: %v", charts.EscapeName(f.FilesFrom), err)
	}
	return paths, nil
}

// shardOf keeps the inputs of share s: those whose path hashes to s.i
// modulo s.n (FNV-1a of the path as named), whatever their order.
func shardOf(ins []input, s shardValue) []input {
	if s.n <= 1 {
		return ins
	}
	var out []input
	for _, in := range ins {
		h := fnv.New64a()
		h.Write([]byte(in.name))
		if h.Sum64()%uint64(s.n) == uint64(s.i) {
			out = append(out, in)
		}
	}
	return out
}
