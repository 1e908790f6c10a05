package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"tcpviz/internal/cmdline"
	"testing"
)

// TestShardNeverOverwritesAnInput: whichever share a --shard run keeps,
// no output it is asked for or derives — -o, --out-dir files, Parquet
// partitions, report folders — may be a capture of the run, its own
// share's or another's: exit 2, every capture left as it was.
func TestShardNeverOverwritesAnInput(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "geo_short.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	// Captures, two of them named as graphs of the others would be.
	names := []string{"a.pcap", "b.pcap", "c.pcap", "d.pcap", "y.pcap", "a-seq-s1.png", "b-seq-s1.png"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Both shares must be non-empty for the case to mean anything.
	all := expandInputs([]string{dir})
	for i := range 2 {
		if len(shardOf(all, cmdline.Share{I: i, N: 2})) == 0 {
			t.Fatalf("share %d/2 of %d captures is empty", i, len(all))
		}
	}
	for _, target := range names {
		out := filepath.Join(dir, target)
		for _, share := range []string{"0/2", "1/2"} {
			for _, args := range [][]string{
				{"summary", "--shard", share, dir, "-o", out},
				{"streams", "--shard", share, dir, "-o", out},
				{"flows", "--shard", share, dir, "-o", out},
			} {
				_, stderr, code := tcpviz(t, nil, args...)
				if code != 2 || !strings.Contains(stderr, "refusing to overwrite an input") {
					t.Errorf("%s: exit %d, %q", strings.Join(args, " "), code, stderr)
				}
			}
		}
	}
	// Graphs into the folder: a.pcap's and b.pcap's are captures of the
	// run, in whichever share; they fail, the others are written.
	for _, share := range []string{"0/2", "1/2"} {
		args := []string{"seq", "--shard", share, "--out-dir", dir, dir}
		_, stderr, code := tcpviz(t, nil, args...)
		kept := shardOf(all, cmdline.Share{I: map[string]int{"0/2": 0, "1/2": 1}[share], N: 2})
		for _, in := range kept {
			if base := filepath.Base(in.path); base == "a.pcap" || base == "b.pcap" {
				if code != 1 || !strings.Contains(stderr, "refusing to overwrite an input") {
					t.Errorf("%s: exit %d, %q", strings.Join(args, " "), code, stderr)
				}
			}
		}
	}
	for _, n := range names {
		got, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s was overwritten (%v)", n, err)
		}
	}
}
