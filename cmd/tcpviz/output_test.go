package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"tcpviz/charts"
	"tcpviz/internal/golden"
)

func TestSafeNamesStayInTheOutputDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"../../etc/passwd", "..", "/abs/path.png", "a/../../b", "c:\\x", "fe80::1%eth0-seq.png", "\x00\x1b[31m.png", ""} {
		p, err := charts.OutputPath(dir, name)
		if err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || strings.HasPrefix(rel, "..") || strings.ContainsAny(rel, "/\\\x00\x1b") || rel == "." {
			t.Errorf("%q became %q (relative %q): not a plain file name inside the output directory", name, p, rel)
		}
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	os.WriteFile(path, []byte("old\n"), 0o644)
	// A failing writer leaves the old file and no temporary file behind.
	err := writeAtomic(path, nil, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("disk on fire")
	})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("old file changed to %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := writeAtomic(path, nil, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("file holds %q", b)
	}
	// Writing over an input is refused, also through another name for it.
	in := filepath.Join(dir, "in.pcap")
	os.WriteFile(in, []byte("capture"), 0o644)
	link := filepath.Join(dir, "link.pcap")
	os.Link(in, link)
	for _, target := range []string{in, link} {
		err := writeAtomic(target, []input{{name: in, path: in}}, func(w io.Writer) error { return nil })
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("writing over %s: %v, want a usage error", target, err)
		}
	}
	if b, _ := os.ReadFile(in); string(b) != "capture" {
		t.Errorf("input overwritten: %q", b)
	}
}

// TestOutDirNotADirectory: an --out-dir that is a file, a symbolic link,
// a FIFO or a path through a file is a usage error before any input is
// read (exit 2, one line naming it; the missing input is never looked
// at), whichever command, and nothing is written.
func TestOutDirNotADirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("file", []byte("x"), 0o644)
	os.Symlink(t.TempDir(), "link")
	syscall.Mkfifo("fifo", 0o644)
	for out, want := range map[string]string{
		"file":        "tcpviz: --out-dir file: a file, not a directory\n",
		"file/sub/x":  "tcpviz: --out-dir file/sub/x: file is not a directory\n",
		"link":        "tcpviz: --out-dir link: a symbolic link: name the directory itself\n",
		"fifo":        "tcpviz: --out-dir fifo: not a directory\n",
		"./file/\x1b": "tcpviz: --out-dir ./file/\\x1b: file is not a directory\n",
	} {
		for _, args := range [][]string{
			{"report", "--out-dir", out, "missing.pcap"},
			{"seq", "--out-dir", out, "missing.pcap"},
			{"compare", "--out-dir", out, "missing.pcap", "missing.pcap"},
			{"summary", "--format", "parquet", "--out-dir", out, "missing.pcap"},
			{"streams", "missing.pcap", "--out-dir=" + out},
		} {
			stdout, stderr, code := tcpviz(t, nil, args...)
			if code != 2 || stdout != "" || stderr != want {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, stdout, stderr, want)
			}
		}
	}
	if names := dirNames(t, dir); len(names) != 3 {
		t.Errorf("the folder holds %q", names)
	}
}

// fullDisk fails every write to an output whose name matches (a full
// disk) after a few bytes, as the file system says it.
type fullDisk struct {
	f    *os.File
	left int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= d.left {
		d.left -= len(p)
		return d.f.Write(p)
	}
	n, _ := d.f.Write(p[:d.left])
	d.left = 0
	return n, &fs.PathError{Op: "write", Path: d.f.Name(), Err: syscall.ENOSPC}
}

// TestFailedWritesLeaveNothing: when the disk fills (an injected write
// error), report, Parquet partitions, graphs and -o tables leave nothing
// the failed run made — no file, no temporary file, no folder or
// partition it created — and keep what was there before; the run exits 1
// with one line naming the output, not its temporary file.
func TestFailedWritesLeaveNothing(t *testing.T) {
	capture, err := filepath.Abs(demoCapture)
	if err != nil {
		t.Fatal(err)
	}
	full := func(match string) {
		writeHook = func(path string, f *os.File) io.Writer {
			if strings.Contains(filepath.Base(path), match) {
				return &fullDisk{f: f, left: 100}
			}
			return f
		}
	}
	defer func() { writeHook = nil }()
	for _, tc := range []struct {
		name    string
		match   string   // the output that fails
		before  []string // files there before, kept as they were
		args    []string // OUT is the output folder
		failing string   // the output named in the error
	}{
		{"report, last file", "index.html", nil, []string{"report", "--out-dir", "OUT/new/r", capture}, "OUT/new/r/geo_short-report/index.html"},
		{"report, a picture", "tput.png", nil, []string{"report", "--out-dir", "OUT", capture}, "OUT/geo_short-report/tput.png"},
		{"report over an earlier one", "summary.csv", []string{"geo_short-report/seq.png", "geo_short-report/notes.txt"},
			[]string{"report", "--out-dir", "OUT", capture}, "OUT/geo_short-report/summary.csv"},
		{"parquet partitions", "part-0", nil, []string{"summary", "--format", "parquet", "--out-dir", "OUT/parts", capture}, "part-0.parquet"},
		{"parquet, earlier partition", "part-0", []string{"parts/old/part-0.parquet"}, []string{"summary", "--format", "parquet", "--out-dir", "OUT/parts", capture}, "part-0.parquet"},
		{"graph", "seq", nil, []string{"seq", "--width", "200", "--height", "200", "--out-dir", "OUT/a/b", capture}, "OUT/a/b/geo_short-seq-s1.png"},
		{"table file", "t.csv", nil, []string{"summary", "-o", "OUT/t.csv", capture}, "OUT/t.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, b := range tc.before {
				writeFile(t, filepath.Join(dir, b), []byte(b))
			}
			before := dirNames(t, dir)
			args := slices.Clone(tc.args)
			for i := range args {
				args[i] = strings.ReplaceAll(args[i], "OUT", dir)
			}
			full(tc.match)
			stdout, stderr, code := tcpviz(t, nil, args...)
			writeHook = nil
			if code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, ": no space left on device\n") ||
				!strings.Contains(stderr, strings.ReplaceAll(tc.failing, "OUT", dir)) || strings.Contains(stderr, ".tmp") {
				t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			if after := dirNames(t, dir); !slices.Equal(after, before) {
				t.Errorf("the folder holds %q, had %q", after, before)
			}
			for _, b := range tc.before {
				if got, _ := os.ReadFile(filepath.Join(dir, b)); string(got) != b {
					t.Errorf("%s changed: %q", b, got)
				}
			}
		})
	}
}

// TestStdinFileNotOverwritten: standard input redirected from a file
// (tcpviz window -o F - < F) is an input: -o onto it is refused, the file
// kept, whatever its name says.
func TestStdinFileNotOverwritten(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv") // a capture, named as the output
	data, err := os.ReadFile(filepath.Join(golden.Testdata(), "lossy_sll2.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"window", "-o", in, "-"}, {"summary", "-o", in, "-"}} {
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := run(append([]string{"tcpviz"}, cmd...), f, &out, &errb)
		f.Close()
		if code != 2 || !strings.Contains(errb.String(), "refusing to overwrite an input") {
			t.Errorf("%v: exit %d, %q", cmd, code, errb.String())
		}
		if got, _ := os.ReadFile(in); !bytes.Equal(got, data) {
			t.Fatalf("%v: the input was overwritten", cmd)
		}
	}
}

// TestOutputSetCommitFails: a rename that fails when a report folder is
// committed is said, naming the output (the error was built from the
// emptied set: an index out of range).
func TestOutputSetCommitFails(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, ".index.html.tmp1")
	if err := os.WriteFile(tmp, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "index.html")
	// A directory that is not empty: no file is renamed over it.
	if err := os.MkdirAll(filepath.Join(out, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := &outputSet{tmps: []string{tmp}, paths: []string{out}}
	if err := o.commit(); err == nil || !strings.HasPrefix(err.Error(), out+": ") {
		t.Fatalf("commit: %v, want an error naming %s", err, out)
	}
}

// TestOutputOverInputRefusedFirst: io, sweep, join and ladder refuse an
// -o that names an input before reading anything (exit 2, one line), as
// the graphs, compare and the tables do; they read every input first,
// then refused (a missing input's error and ladder's warnings said
// before it).
func TestOutputOverInputRefusedFirst(t *testing.T) {
	dir := t.TempDir()
	capture := filepath.Join(dir, "c.pcap")
	b, err := os.ReadFile(filepath.Join(golden.Testdata(), "geo_short.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(capture, b, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pcap")
	pic := filepath.Join(dir, "cap.png") // a capture, whatever its name says
	if err := os.WriteFile(pic, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"io", "-f", "csv", "-o", capture, capture, missing},
		{"sweep", "--rows", "proto", "-f", "csv", "-o", capture, capture, missing},
		{"join", "-f", "csv", "-o", capture, capture, missing},
		{"ladder", "-o", pic, pic},
	} {
		_, stderr, code := tcpviz(t, nil, args...)
		out := args[slices.Index(args, "-o")+1]
		if code != 2 || stderr != "tcpviz: "+out+": refusing to overwrite an input\n" {
			t.Errorf("%s: exit %d, %q; want 2 and the refusal alone", args[0], code, stderr)
		}
	}
	for _, in := range []string{capture, pic} {
		if after, _ := os.ReadFile(in); !bytes.Equal(after, b) {
			t.Errorf("%s was changed", in)
		}
	}
}

// TestOutputOverListRefused: the --manifest and the --files-from lists
// the inputs came from are never written over: summary --manifest
// runs.csv -o runs.csv replaced the experiment's parameters with the
// table (found by the tester).
func TestOutputOverListRefused(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "runs.csv")
	list := filepath.Join(dir, "runs.txt")
	lists := map[string][]byte{
		manifest: []byte("file,delay\n" + demoCapture + ",10\n"),
		list:     []byte(demoCapture + "\n"),
	}
	for _, args := range [][]string{
		{"summary", "--manifest", manifest, "-f", "csv", "-o", manifest},
		{"sweep", "--manifest", manifest, "--rows", "delay", "-f", "csv", "-o", manifest},
		{"streams", "--files-from", list, "-f", "csv", "-o", list},
		{"summary", "--files-from", list, "--shard", "0/2", "-f", "csv", "-o", list},
	} {
		for path, b := range lists {
			writeFile(t, path, b)
		}
		_, stderr, code := tcpviz(t, nil, args...)
		out := args[slices.Index(args, "-o")+1]
		if code != 2 || stderr != "tcpviz: "+out+": refusing to overwrite an input\n" {
			t.Errorf("%q: exit %d, %q; want 2 and the refusal alone", args, code, stderr)
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(after, lists[out]) {
			t.Errorf("%s was changed", out)
		}
	}
}

// TestOutputFolderMade: every command that takes -o writes into a folder
// that does not exist yet (made, as compare and ladder made it; the
// tables, io, sweep, join and the graphs failed with "no such file or
// directory", the graphs after reading the capture) and into one that
// is there through a symbolic link (as the tables wrote; compare and
// ladder refused it after reading the capture).
func TestOutputFolderMade(t *testing.T) {
	mid := filepath.Join(golden.Testdata(), "truth-mid", "gt_mid_two_links")
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	// A folder named through one missing (found by the tester: every -o
	// of gone/../made/x failed, renaming into made a temporary file
	// written there, as if gone were there).
	sep := string(filepath.Separator)
	through := t.TempDir() + sep + "gone" + sep + ".." + sep + "made"
	for _, dir := range []string{filepath.Join(t.TempDir(), "new", "sub"), link, through} {
		for _, c := range []struct {
			file string
			args []string
		}{
			{"seq.png", []string{"seq", demoCapture}},
			{"tput.csv", []string{"tput", demoCapture}},
			{"streams.csv", []string{"streams", demoCapture}},
			{"summary.csv", []string{"summary", demoCapture}},
			{"flows.json", []string{"flows", demoCapture}},
			{"packets.csv", []string{"packets", demoCapture}},
			{"io.csv", []string{"io", demoCapture}},
			{"sweep.csv", []string{"sweep", "--rows", "proto", demoCapture}},
			{"join.csv", []string{"join", mid + ".tx.pcap.gz", mid + ".rx.pcap.gz"}},
			{"compare.png", []string{"compare", demoCapture}},
			{"ladder.png", []string{"ladder", demoCapture}},
		} {
			out := dir + sep + c.file
			stdout, stderr, code := tcpviz(t, nil, append(c.args, "-o", out)...)
			if st, err := os.Stat(out); code != 0 || err != nil || st.Size() == 0 || !strings.Contains(stdout+stderr, out+"\n") {
				t.Errorf("%s -o %s: exit %d, %v, %q", c.args[0], out, code, err, stderr)
			}
		}
	}
}

// TestOutputAndOutDirExclusive: -o and --out-dir given together are a
// usage error for every command that takes both, as for the tables: the
// graph commands, compare and ladder wrote to -o and ignored --out-dir
// (found by the tester: seq -o q.png --out-dir never, exit 0).
func TestOutputAndOutDirExclusive(t *testing.T) {
	dir := t.TempDir()
	geo := filepath.Join("..", "..", "testdata", "geo_short.pcap")
	for _, args := range [][]string{
		{"seq", geo},
		{"cwnd", geo},
		{"compare", geo, filepath.Join("..", "..", "testdata", "geo_pep_short.pcap")},
		{"ladder", geo},
		{"summary", geo},
	} {
		out := filepath.Join(dir, args[0]+".png")
		if args[0] == "summary" {
			out = filepath.Join(dir, "s.csv")
		}
		_, stderr, code := tcpviz(t, nil, append(args, "-o", out, "--out-dir", filepath.Join(dir, "never"))...)
		if code != 2 || !strings.Contains(stderr, "-o and --out-dir exclude each other") {
			t.Errorf("%s -o --out-dir: exit %d, stderr %q; want 2 and the one line", args[0], code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s written", args[0], out)
		}
	}
}

// TestLadderEmptyWindow: a time window past the connection's end is
// exit 1 with one line, as the graph commands say it; the ladder wrote
// an empty figure (or a CSV of its header alone), exit 0.
func TestLadderEmptyWindow(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{"l.png", "l.csv"} {
		p := filepath.Join(dir, out)
		_, stderr, code := tcpviz(t, nil, "ladder", "--from", "100", "-o", p, demoCapture)
		if code != 1 || !strings.Contains(stderr, "nothing to draw in the window asked for") {
			t.Errorf("ladder --from 100 -o %s: exit %d, %q; want nothing to draw", out, code, stderr)
		}
		if _, err := os.Stat(p); err == nil {
			t.Errorf("ladder --from 100 wrote %s", out)
		}
	}
	if _, stderr, code := tcpviz(t, nil, "ladder", "--from", "1", "--to", "3", "-o", filepath.Join(dir, "w.csv"), demoCapture); code != 0 {
		t.Errorf("ladder --from 1 --to 3: exit %d, %q", code, stderr)
	}
}
