package main

// Hostile inputs and hostile surroundings (issue 11): pipes read once,
// signals, partial results, long names, full disks, terminals. Each case
// builds its inputs; FIFO, /dev/fd and permission cases need Linux, the
// signal and /dev/stdin cases run the built command.

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tcpviz/charts"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// tcpvizBinary builds the command once per test run, into a directory
// anyone may read (the permission cases run it as another user).
func tcpvizBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "tcpviz-bin-*")
		if binErr != nil {
			return
		}
		os.Chmod(binDir, 0o755)
		binPath = filepath.Join(binDir, "tcpviz")
		out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New(string(out))
		}
	})
	if binErr != nil {
		t.Fatalf("building tcpviz: %v", binErr)
	}
	return binPath
}

// runBinary runs the built command; cmd, if set, adjusts it first.
func runBinary(t *testing.T, stdin io.Reader, adjust func(*exec.Cmd), args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, tcpvizBinary(t), args...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if adjust != nil {
		adjust(cmd)
	}
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("tcpviz %q: still running after 60 s", args)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// publicDir is a temporary directory another user may enter.
func publicDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "tcpviz-hostile-*")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(d, 0o755)
	t.Cleanup(func() {
		filepath.WalkDir(d, func(p string, de os.DirEntry, err error) error {
			if de != nil && de.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(d)
	})
	return d
}

// tcpvizUnprivileged runs the command line as a user the file modes bind:
// in-process when the tests are not run by root, else the built command
// as nobody.
func tcpvizUnprivileged(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	if os.Geteuid() != 0 {
		return tcpviz(t, nil, args...)
	}
	return runBinary(t, nil, func(c *exec.Cmd) {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}, args...)
}

func demoBytes(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(demoCapture)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// smallBytes is the demo capture cut after its first 80 records (both
// connections, 80 packets): graphs of it are quick to draw, and the
// pictures of these tests are drawn at the smallest size (tiny) to keep
// `make test` fast.
func smallBytes(t *testing.T) []byte {
	t.Helper()
	b := demoBytes(t)
	if binary.LittleEndian.Uint32(b) != 0xa1b2c3d4 {
		t.Fatal("demo capture is not a little-endian pcap")
	}
	off := 24
	for range 80 {
		off += 16 + int(binary.LittleEndian.Uint32(b[off+8:]))
	}
	return b[:off]
}

var tiny = []string{"--width", "100", "--height", "100"}

// withTiny is args with the picture flags of tiny after the command.
func withTiny(args ...string) []string {
	return append(append([]string{args[0]}, tiny...), args[1:]...)
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// csvRows counts the data rows of CSV output with a header.
func csvRows(s string) int { return max(strings.Count(s, "\n")-1, 0) }

// checkOneLine fails unless stderr is exactly one line holding each of
// want, without a stack trace.
func checkOneLine(t *testing.T, stderr string, want ...string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q lacks %q", stderr, w)
		}
	}
	if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
		t.Errorf("stack trace: %s", stderr)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return nil
	})
	return names
}

// runWithin runs the command line in-process, failing the test if it has
// not returned after d (a hang on a pipe).
func runWithin(t *testing.T, d time.Duration, args ...string) (string, string, int) {
	t.Helper()
	type result struct {
		out, err string
		code     int
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(append([]string{"tcpviz"}, args...), bytes.NewReader(nil), &out, &errb)
		done <- result{out.String(), errb.String(), code}
	}()
	select {
	case r := <-done:
		return r.out, r.err, r.code
	case <-time.After(d):
		t.Fatalf("tcpviz %q: no result after %v (reading a pipe twice?)", args, d)
		return "", "", 0
	}
}

// Item 1: a FIFO and a process substitution (/dev/fd/N) are opened once,
// also by the commands that read a capture twice.
func TestHostilePipesReadOnce(t *testing.T) {
	data := smallBytes(t)
	for _, args := range [][]string{withTiny("seq", "-o", "OUT/seq.png"), withTiny("report", "--out-dir", "OUT"), {"summary"}} {
		t.Run(args[0]+"/fifo", func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "capture.pcap")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			go func() {
				// Opened for writing once: a second open for reading would
				// wait for a writer forever.
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					return
				}
				f.Write(data)
				f.Close()
			}()
			t.Cleanup(func() { // unblock the writer should tcpviz never open it
				if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			})
			a := append([]string{}, args...)
			for i := range a {
				a[i] = strings.ReplaceAll(a[i], "OUT", dir)
			}
			stdout, stderr, code := runWithin(t, 30*time.Second, append(a, fifo)...)
			if code != 0 || stderr != "" || stdout == "" {
				t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
			}
		})
		if args[0] == "report" {
			continue // the FIFO case is enough for the slowest command
		}
		t.Run(args[0]+"/dev-fd", func(t *testing.T) {
			dir := t.TempDir()
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			go func() { w.Write(data); w.Close() }()
			path := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
			if _, err := os.Stat(path); err != nil {
				t.Skip("no /dev/fd here")
			}
			a := append([]string{}, args...)
			for i := range a {
				a[i] = strings.ReplaceAll(a[i], "OUT", dir)
			}
			stdout, stderr, code := runWithin(t, 30*time.Second, append(a, path)...)
			if code != 0 || stderr != "" || stdout == "" {
				t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
			}
		})
	}
}

// A pipe named twice (- and /dev/stdin, or /dev/fd/N twice; compare's
// too) is a usage error naming both: two reads split its bytes, and each
// said its part was a damaged capture (compare drew what one read) (found by the tester: cat x.pcap | tcpviz summary
// /dev/stdin - said "/dev/stdin: not a capture file" and "standard
// input: packet 641: truncated record").
func TestHostilePipeNamedTwice(t *testing.T) {
	data := smallBytes(t)
	for _, line := range [][]string{
		{"summary", "DEV", "DEV#0"},
		{"summary", "-", "DEV#0"}, // standard input and its /dev/fd name
		{"compare", "DEV", "DEV#0", "-o", "OUT"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() { w.Write(data); w.Close() }()
		dev := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
		if _, err := os.Stat(dev); err != nil {
			r.Close()
			t.Skip("no /dev/fd here")
		}
		args := []string{"tcpviz"}
		for _, a := range line {
			a = strings.Replace(a, "DEV", dev, 1)
			args = append(args, strings.Replace(a, "OUT", filepath.Join(t.TempDir(), "c.png"), 1))
		}
		var out, errb bytes.Buffer
		code := runEnv(newEnv(r, &out, &errb), args)
		r.Close()
		want := args[2] + " and " + dev + " are one pipe, read once: name it once\n"
		if code != 2 || !strings.HasSuffix(errb.String(), want) || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %d bytes; want exit 2 and %q", args[1:], code, errb.String(), out.Len(), want)
		}
	}
}

// Item 1: `cat x.pcap | tcpviz seq /dev/stdin` reads the pipe once.
func TestHostileDevStdinPipe(t *testing.T) {
	if _, err := os.Stat("/dev/stdin"); err != nil {
		t.Skip("no /dev/stdin")
	}
	out := filepath.Join(t.TempDir(), "seq.png")
	// exec feeds a non-*os.File stdin through a pipe.
	stdout, stderr, code := runBinary(t, struct{ io.Reader }{bytes.NewReader(smallBytes(t))}, nil, withTiny("seq", "-o", out, "/dev/stdin")...)
	if code != 0 || stderr != "" || strings.TrimSpace(stdout) != out {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// zeros is an endless standard input of zero bytes that counts what was
// read of it.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// Item 7: `tcpviz seq - < /dev/zero` checks the first bytes before it
// spools anything: it fails at once, naming standard input, and leaves
// TMPDIR empty.
func TestHostileZeroStdinCheckedBeforeSpooling(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, args := range [][]string{{"seq", "-o", filepath.Join(tmp, "x.png"), "-"}, {"report", "--out-dir", tmp, "-"}, {"streams", "-"}} {
		z := &zeros{}
		var out, errb bytes.Buffer
		code := run(append([]string{"tcpviz"}, args...), z, &out, &errb)
		if code != 1 {
			t.Errorf("%q: exit %d, want 1", args, code)
		}
		checkOneLine(t, errb.String(), "standard input: not a capture file")
		if z.n > 2<<20 {
			t.Errorf("%q: read %d bytes of zeros before giving up", args, z.n)
		}
		if names := dirNames(t, tmp); len(names) != 0 {
			t.Errorf("%q: left %v in TMPDIR", args, names)
		}
	}
	// The real thing, with the built command.
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip("no /dev/zero")
	}
	defer f.Close()
	_, stderr, code := runBinary(t, f, func(c *exec.Cmd) { c.Env = append(os.Environ(), "TMPDIR="+tmp) }, "seq", "-")
	if code != 1 {
		t.Errorf("seq - < /dev/zero: exit %d", code)
	}
	checkOneLine(t, stderr, "standard input: not a capture file")
	if names := dirNames(t, tmp); len(names) != 0 {
		t.Errorf("left %v in TMPDIR", names)
	}
}

// Item 7: SIGINT and SIGTERM while standard input is being spooled remove
// the spool from TMPDIR; the exit status is 128 + the signal.
func TestHostileSignalsRemoveTemporaries(t *testing.T) {
	data := demoBytes(t)
	for _, sig := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(sig.sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(tcpvizBinary(t), "seq", "-o", filepath.Join(tmp, "out.png"), "-")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// Half the capture, and the pipe stays open: tcpviz is spooling.
			w.Write(data[:len(data)/2])
			deadline := time.Now().Add(20 * time.Second)
			for len(dirNames(t, tmp)) == 0 {
				if time.Now().After(deadline) {
					t.Fatal("no spool file appeared in TMPDIR")
				}
				time.Sleep(10 * time.Millisecond)
			}
			cmd.Process.Signal(sig.sig)
			err = cmd.Wait()
			w.Close()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != sig.code {
				t.Errorf("exit %v, want %d (stderr %q)", err, sig.code, errb.String())
			}
			if names := dirNames(t, tmp); len(names) != 0 {
				t.Errorf("left %v in TMPDIR", names)
			}
			checkOneLine(t, errb.String(), "temporary files removed")
		})
	}
}

// Item 7: an output being written is a registered temporary (what the
// signal handler removes), and is forgotten once renamed or failed.
func TestWriteAtomicRegistersItsTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.png")
	registered := func() []string {
		temps.mu.Lock()
		defer temps.mu.Unlock()
		var out []string
		for n := range temps.names {
			if filepath.Dir(n) == dir {
				out = append(out, n)
			}
		}
		return out
	}
	for _, fail := range []bool{false, true} {
		var during []string
		writeAtomic(path, nil, func(w io.Writer) error {
			during = registered()
			if fail {
				return errors.New("boom")
			}
			return nil
		})
		if len(during) != 1 || !strings.HasPrefix(filepath.Base(during[0]), ".out.png.tmp") {
			t.Errorf("while writing, registered %v", during)
		}
		if after := registered(); len(after) != 0 {
			t.Errorf("after writing, still registered %v", after)
		}
	}
	// What a signal does: the temporary goes, and no other is made.
	r := &tempFiles{names: map[string]bool{}}
	f, err := r.create(dir, ".x.tmp*")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	r.removeAll()
	if _, err := os.Stat(f.Name()); !os.IsNotExist(err) {
		t.Errorf("%s not removed", f.Name())
	}
	if _, err := r.create(dir, ".y.tmp*"); err == nil {
		t.Error("a temporary file was made after removeAll")
	}
}

// Item 8: one input failing never discards the others; the failing path
// is named exactly.
func TestHostilePartialResults(t *testing.T) {
	dir := publicDir(t)
	data := smallBytes(t)
	v := filepath.Join(dir, "v.pcap")
	writeFile(t, v, data)
	missing := filepath.Join(dir, "missing.pcap")

	stdout, stderr, code := tcpviz(t, nil, "streams", v, missing)
	if code != 1 || csvRows(stdout) != 2 {
		t.Errorf("streams v missing: exit %d, %d rows:\n%s", code, csvRows(stdout), stdout)
	}
	checkOneLine(t, stderr, missing+": no such file or directory")

	// A graph of the good input is still written.
	stdout, stderr, code = tcpviz(t, nil, withTiny("seq", "--out-dir", filepath.Join(dir, "out"), missing, v)...)
	if code != 1 || !strings.HasSuffix(strings.TrimSpace(stdout), "v-seq-s1.png") {
		t.Errorf("seq missing v: exit %d, stdout %q", code, stdout)
	}
	checkOneLine(t, stderr, missing)

	// "--" anywhere ends the flags, and is not an input.
	stdout, stderr, code = tcpviz(t, nil, "streams", v, "--", v)
	if code != 0 || stderr != "" || csvRows(stdout) != 4 {
		t.Errorf("streams v -- v: exit %d, stderr %q, %d rows", code, stderr, csvRows(stdout))
	}
	stdout, _, code = tcpviz(t, nil, "streams", v, "--format", "json", "--", v)
	if code != 0 || !strings.HasPrefix(stdout, "[") {
		t.Errorf("flags before --: exit %d, stdout %q", code, stdout)
	}
}

// TestSymbolicLinkInputs: links are read as what they point at. A folder
// of symbolic links to the runs of a study is walked as the runs (they
// were skipped: only regular files were taken), a link to a folder inside
// it is not followed, and a dangling link is passed over like any file
// that is no capture; a link to a folder named on the command line is
// walked as the folder (it said "no capture found in the directory").
// Each gives the rows of what it points at, under the link's name.
func TestSymbolicLinkInputs(t *testing.T) {
	dir := t.TempDir()
	capture, err := filepath.Abs("../../testdata/geo_short.pcap")
	if err != nil {
		t.Fatal(err)
	}
	folder, err := filepath.Abs("../../testdata/udp")
	if err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	for _, l := range [][2]string{
		{capture, filepath.Join(runs, "run1.pcap")},
		{filepath.Dir(capture), filepath.Join(runs, "data")},
		{filepath.Join(dir, "gone"), filepath.Join(runs, "dangling.pcap")},
		{folder, filepath.Join(dir, "latest")},
	} {
		if err := os.MkdirAll(filepath.Dir(l[1]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ target, link, named string }{
		{capture, filepath.Join(runs, "run1.pcap"), runs},                    // a folder of links
		{folder, filepath.Join(dir, "latest"), filepath.Join(dir, "latest")}, // a link to a folder
	} {
		direct, _, code := tcpviz(t, nil, "streams", "-f", "csv", c.target)
		if code != 0 {
			t.Fatalf("streams of %s: exit %d", c.target, code)
		}
		got, stderr, code := tcpviz(t, nil, "streams", "-f", "csv", c.named)
		if want := strings.ReplaceAll(direct, c.target, c.link); code != 0 || stderr != "" || got != want {
			t.Errorf("streams of %s: exit %d, %q\n%s\nwant the rows of %s under the link's name:\n%s", c.named, code, stderr, got, c.target, want)
		}
	}
}

// Item 8 and the exit codes: inside a directory, an unlistable
// subdirectory and an unreadable capture are each named exactly (exit 1)
// and the rest of the walk goes on; a directory without a capture says so
// in one line (exit 1).
func TestHostileDirectoryWalk(t *testing.T) {
	dir := publicDir(t)
	data := smallBytes(t)
	root := filepath.Join(dir, "caps")
	writeFile(t, filepath.Join(root, "a.pcap"), data)
	writeFile(t, filepath.Join(root, "sub", "b.pcap"), data)
	writeFile(t, filepath.Join(root, "z", "c.pcap"), data)
	writeFile(t, filepath.Join(root, "locked", "d.pcap"), data)
	writeFile(t, filepath.Join(root, "secret.pcap"), data)
	writeFile(t, filepath.Join(root, "notes.txt"), []byte("not a capture\n"))
	os.Chmod(filepath.Join(root, "locked"), 0o311) // enter, not list
	os.Chmod(filepath.Join(root, "secret.pcap"), 0o200)

	stdout, stderr, code := tcpvizUnprivileged(t, "streams", root)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if got := csvRows(stdout); got != 6 {
		t.Errorf("%d rows, want 6 (a, sub/b, z/c):\n%s", got, stdout)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 2 ||
		!strings.HasPrefix(lines[0], "tcpviz: "+filepath.Join(root, "locked")+": permission denied") ||
		!strings.HasPrefix(lines[1], "tcpviz: "+filepath.Join(root, "secret.pcap")+": permission denied") {
		t.Errorf("stderr should name the locked directory and the unreadable capture, in walk order:\n%s", stderr)
	}

	empty := filepath.Join(dir, "empty")
	writeFile(t, filepath.Join(empty, "readme.txt"), []byte("nothing here\n"))
	for _, args := range [][]string{{"streams", empty}, {"summary", empty}, {"seq", empty}} {
		stdout, stderr, code := tcpviz(t, nil, args...)
		if code != 1 || csvRows(stdout) != 0 {
			t.Errorf("%q: exit %d, stdout %q", args, code, stdout)
		}
		checkOneLine(t, stderr, empty+": no capture found")
	}
	// With a capture beside it, the capture is read and the run fails.
	stdout, stderr, code = tcpviz(t, nil, "streams", empty, filepath.Join(root, "a.pcap"))
	if code != 1 || csvRows(stdout) != 2 {
		t.Errorf("empty dir + capture: exit %d, stdout %q", code, stdout)
	}
	checkOneLine(t, stderr, empty+": no capture found")
}

// Items 10/11: a capture name of 240 characters or more: the outputs and
// their temporary files stay within NAME_MAX; nothing fails.
func TestHostileLongCaptureNames(t *testing.T) {
	data := smallBytes(t)
	for _, n := range []int{240, 250} {
		dir := t.TempDir()
		name := strings.Repeat("x", n-len(".pcap")) + ".pcap"
		in := filepath.Join(dir, name)
		writeFile(t, in, data)
		cmds := [][]string{withTiny("seq", "--out-dir", dir, in)}
		if n == 240 {
			cmds = append(cmds, withTiny("report", "--out-dir", dir, in))
		}
		for _, args := range cmds {
			stdout, stderr, code := tcpviz(t, nil, args...)
			if code != 0 || stderr != "" {
				t.Errorf("%d characters, %s: exit %d, stderr %q", n, args[0], code, stderr)
				continue
			}
			out := strings.TrimSpace(stdout)
			if _, err := os.Stat(out); err != nil {
				t.Errorf("%d characters, %s: %v", n, args[0], err)
			}
		}
		for _, p := range dirNames(t, dir) {
			for _, elem := range strings.Split(p, string(filepath.Separator)) {
				if len(elem) > charts.NameMax {
					t.Errorf("%d bytes in a name: %s", len(elem), elem)
				}
			}
			if strings.Contains(p, ".tmp") {
				t.Errorf("temporary file left: %s", p)
			}
		}
	}
	for _, base := range []string{strings.Repeat("é", 200), strings.Repeat("y", 300) + "-seq-s1.png"} {
		if p := charts.TempPattern(base); len(p)+20-1 > charts.NameMax || !strings.HasSuffix(p, ".tmp*") {
			t.Errorf("temporary pattern of %d bytes: %q", len(base), p)
		}
		if s := charts.ShortName(base, charts.NameMax); len(s) > charts.NameMax || !utf8Valid(s) {
			t.Errorf("shortName: %d bytes, %q", len(s), s)
		}
	}
	a, b := charts.ShortName(strings.Repeat("a", 300)+"1-seq.png", 255), charts.ShortName(strings.Repeat("a", 300)+"2-seq.png", 255)
	if a == b || !strings.HasSuffix(a, "1-seq.png") {
		t.Errorf("shortened names %q and %q", a, b)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// Exit codes: a write error on standard output fails the run (exit 1),
// said in one line.
func TestHostileStdoutFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	dir := t.TempDir()
	small := filepath.Join(dir, "small.pcap")
	writeFile(t, small, smallBytes(t))
	for _, args := range [][]string{
		{"summary", small},
		{"streams", "--format", "json", small},
		withTiny("report", "--out-dir", dir, small),
		{"seq", "-o", "-", small},
		{"--help"},
	} {
		var errb bytes.Buffer
		code := run(append([]string{"tcpviz"}, args...), nil, full, &errb)
		if code != 1 {
			t.Errorf("%q > /dev/full: exit %d, want 1", args, code)
		}
		checkOneLine(t, errb.String(), "tcpviz: standard output: no space left on device")
	}
}

// Exit codes: refusing to overwrite an input inside a report folder, or
// to write into a report folder that is a symbolic link or a file, is a
// usage error (exit 2) before anything is read or written.
func TestHostileReportRefusesBeforeReading(t *testing.T) {
	data := smallBytes(t)
	t.Run("input in the report folder", func(t *testing.T) {
		dir := t.TempDir()
		v := filepath.Join(dir, "v.pcap")
		writeFile(t, v, data)
		inside := filepath.Join(dir, "v-report", "index.html")
		writeFile(t, inside, data)
		stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, v, inside)
		if code != 2 || stdout != "" {
			t.Errorf("exit %d, stdout %q", code, stdout)
		}
		checkOneLine(t, stderr, inside+": refusing to overwrite an input")
		if names := dirNames(t, filepath.Join(dir, "v-report")); len(names) != 1 {
			t.Errorf("report folder holds %v", names)
		}
	})
	t.Run("symlinked report folder", func(t *testing.T) {
		dir, target := t.TempDir(), t.TempDir()
		v := filepath.Join(dir, "v.pcap")
		writeFile(t, v, data)
		os.Symlink(target, filepath.Join(dir, "v-report"))
		stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, v)
		if code != 2 || stdout != "" {
			t.Errorf("exit %d, stdout %q", code, stdout)
		}
		checkOneLine(t, stderr, "v-report: refusing to write over a symbolic link")
		if names := dirNames(t, target); len(names) != 0 {
			t.Errorf("wrote %v through the link", names)
		}
	})
	t.Run("-o over a symlink or a device", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "target.png")
		writeFile(t, target, []byte("keep"))
		link := filepath.Join(dir, "link.png")
		os.Symlink(target, link)
		specials := []string{link}
		fifo := filepath.Join(dir, "fifo.png")
		if syscall.Mkfifo(fifo, 0o600) == nil {
			specials = append(specials, fifo)
		}
		dev := filepath.Join(dir, "null.png")
		if syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) == nil { // as root: /dev/null's numbers
			specials = append(specials, dev)
		}
		for _, o := range specials {
			_, stderr, code := tcpviz(t, nil, "seq", "-o", o, demoCapture)
			if code != 2 {
				t.Errorf("-o %s: exit %d", o, code)
			}
			checkOneLine(t, stderr, o+": refusing to write over")
		}
		if b, _ := os.ReadFile(target); string(b) != "keep" {
			t.Errorf("target changed")
		}
		if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("link replaced")
		}
	})
}

// Items 2-5, done on main, checked: derived names unique per run, compare
// inputs keyed by position.
func TestHostileDerivedNamesAndCompare(t *testing.T) {
	data := smallBytes(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a", "x.pcap"), filepath.Join(dir, "b", "x.pcap")
	writeFile(t, a, data)
	writeFile(t, b, data)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	xgz := filepath.Join(dir, "a", "x.pcap.gz")
	writeFile(t, xgz, gz.Bytes())
	for _, args := range [][]string{{"seq", a, b}, {"seq", a, xgz}, {"report", a, b}} {
		out := t.TempDir()
		stdout, stderr, code := tcpviz(t, nil, withTiny(append([]string{args[0], "--out-dir", out}, args[1:]...)...)...)
		paths := strings.Fields(stdout)
		if code != 0 || stderr != "" || len(paths) != 2 || paths[0] == paths[1] {
			t.Errorf("%q: exit %d, stderr %q, outputs %q", args, code, stderr, paths)
		}
	}
	// The same capture named twice would write one name twice: refused
	// before reading.
	_, stderr, code := tcpviz(t, nil, "seq", "--out-dir", t.TempDir(), a, a)
	if code != 2 {
		t.Errorf("seq a a: exit %d", code)
	}
	checkOneLine(t, stderr, "name each capture once")

	for _, args := range [][]string{{a + "#0", a + "#1"}, {a, a}} {
		out := filepath.Join(t.TempDir(), "cmp.png")
		stdout, stderr, code := tcpviz(t, nil, withTiny(append([]string{"compare", "-o", out}, args...)...)...)
		if code != 0 || csvRows(stdout) != 2 {
			t.Errorf("compare %q: exit %d, stderr %q, stdout:\n%s", args, code, stderr, stdout)
		}
	}
}

// Messages: no arguments, an unknown command or flag: one line on stderr,
// nothing on stdout, exit 2; names with newlines and ESC are escaped.
func TestHostileUsageAndNames(t *testing.T) {
	for _, args := range [][]string{{}, {"bogus"}, {"streams", "--bogus", demoCapture}, {"seq", "--width"}, {"--bogus"}} {
		stdout, stderr, code := tcpviz(t, nil, args...)
		if code != 2 || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q", args, code, stdout)
		}
		checkOneLine(t, stderr)
	}
	dir := t.TempDir()
	evil := filepath.Join(dir, "a\nb\x1b[31mred.pcap")
	for _, args := range [][]string{{"streams", evil}, {"seq", "-o", filepath.Join(dir, "out.png"), evil}} {
		_, stderr, code := tcpviz(t, nil, args...)
		if code == 0 {
			t.Errorf("%q: exit 0", args)
		}
		checkOneLine(t, stderr, `a\nb\x1b[31mred.pcap`)
		if strings.Contains(stderr, "\x1b") {
			t.Errorf("raw ESC on stderr: %q", stderr)
		}
	}
	writeFile(t, evil, []byte("junk that is not a capture"))
	_, stderr, _ := tcpviz(t, nil, "streams", evil)
	checkOneLine(t, stderr, `a\nb\x1b[31mred.pcap: not a capture file`)
}

// Messages: an unsupported pcap or pcapng version is worded one way.
func TestHostileVersionErrors(t *testing.T) {
	dir := t.TempDir()
	pcap := demoBytes(t)
	ng, err := os.ReadFile("../../testdata/v6_short.pcapng")
	if err != nil {
		t.Fatal(err)
	}
	with := func(b []byte, off int, bo binary.ByteOrder, major, minor uint16) []byte {
		c := bytes.Clone(b)
		bo.PutUint16(c[off:], major)
		bo.PutUint16(c[off+2:], minor)
		return c
	}
	ngOrder := binary.ByteOrder(binary.LittleEndian)
	if binary.BigEndian.Uint32(ng[8:]) == 0x1a2b3c4d {
		ngOrder = binary.BigEndian
	}
	pcapOrder := binary.ByteOrder(binary.BigEndian)
	if binary.LittleEndian.Uint32(pcap) == 0xa1b2c3d4 {
		pcapOrder = binary.LittleEndian
	}
	want := regexp.MustCompile(`^tcpviz: \S+: (pcap|pcapng) header: unsupported version \d+\.\d+\n$`)
	for _, c := range []struct {
		name string
		data []byte
		gap  bool // worded otherwise by reassembly today
	}{
		{"v3.pcap", with(pcap, 4, pcapOrder, 3, 0), false},
		{"v2.5.pcap", with(pcap, 4, pcapOrder, 2, 5), false},
		{"v2.pcapng", with(ng, 12, ngOrder, 2, 0), false},
		{"v1.1.pcapng", with(ng, 12, ngOrder, 1, 1), true},
	} {
		p := filepath.Join(dir, c.name)
		writeFile(t, p, c.data)
		_, stderr, code := tcpviz(t, nil, "streams", p)
		if code != 1 {
			t.Errorf("%s: exit %d", c.name, code)
		}
		if !want.MatchString(stderr) {
			if c.gap {
				t.Logf("%s: reassembly words it %q (to reword there: pcapgo's ErrNgVersionMismatch for a minor version)", c.name, stderr)
				continue
			}
			t.Errorf("%s: %q, want the form %s", c.name, stderr, want)
		}
	}
}

// screen is what a terminal shows after s: a carriage return goes back to
// the start of the line and what follows overwrites it; colour codes take
// no room. The lines are returned without trailing spaces, empty ones
// dropped.
func screen(s string) []string {
	s = regexp.MustCompile("\x1b\\[[0-9;]*[a-zA-Z]").ReplaceAllString(s, "")
	var lines []string
	var line []rune
	col := 0
	flush := func() {
		if l := strings.TrimRight(string(line), " "); l != "" {
			lines = append(lines, l)
		}
		line, col = nil, 0
	}
	for _, r := range s {
		switch r {
		case '\n':
			flush()
		case '\r':
			col = 0
		default:
			if col < len(line) {
				line[col] = r
			} else {
				line = append(line, r)
			}
			col++
		}
	}
	flush()
	return lines
}

// runTTY runs the command line with stderr taken for a terminal.
func runTTY(t *testing.T, color bool, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runEnv(&env{stdin: bytes.NewReader(stdin), stdout: &out, stderr: &errb, stderrTTY: true, color: color}, append([]string{"tcpviz"}, args...))
	return out.String(), errb.String(), code
}

// Progress on a terminal: with several inputs the bar of files done is
// cleared before a warning or an error is printed; with one input a bar
// counts its bytes, and is gone at the end. NO_COLOR: no colour codes.
// Not on a terminal: no bar at all.
func TestHostileProgressOnATerminal(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pcap")
	writeFile(t, junk, []byte("not a capture at all"))
	small := filepath.Join(dir, "small.pcap")
	writeFile(t, small, smallBytes(t))
	_, stderr, code := runTTY(t, false, nil, "streams", "--jobs", "1", junk, small, small)
	if code != 1 || !strings.Contains(stderr, "captures") {
		t.Fatalf("exit %d, no bar on stderr %q", code, stderr)
	}
	lines := screen(stderr)
	if len(lines) != 1 || lines[0] != "tcpviz: "+junk+": not a capture file (pcap, pcapng, snoop, or gzip/zstd of one)" {
		t.Errorf("the terminal shows %q", lines)
	}

	for _, color := range []bool{false, true} {
		out := filepath.Join(dir, "seq.png")
		stdout, stderr, code := runTTY(t, color, nil, withTiny("seq", "-o", out, demoCapture)...)
		if code != 0 || strings.TrimSpace(stdout) != out {
			t.Fatalf("exit %d, stdout %q", code, stdout)
		}
		if !strings.Contains(stderr, "reading "+demoCapture) || !regexp.MustCompile(`\(\d+/\d+ kB`).MatchString(stderr) {
			t.Errorf("no byte count on stderr: %q", stderr)
		}
		if lines := screen(stderr); len(lines) != 0 {
			t.Errorf("the bar is left on the terminal: %q", lines)
		}
		if hasEsc := strings.Contains(stderr, "\x1b"); hasEsc != color {
			t.Errorf("colour %v, escape codes %v: %q", color, hasEsc, stderr)
		}
	}
	// Standard input, spooled for two passes: its size unknown, the bytes
	// are counted.
	stdout, stderr, code := runTTY(t, false, smallBytes(t), withTiny("seq", "-o", filepath.Join(dir, "in.png"), "-")...)
	if code != 0 || stdout == "" || !strings.Contains(stderr, "reading standard input (") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if lines := screen(stderr); len(lines) != 0 {
		t.Errorf("the bar is left on the terminal: %q", lines)
	}
	t.Setenv("NO_COLOR", "1")
	_, stderr, _ = tcpviz(t, nil, withTiny("seq", "-o", filepath.Join(dir, "b.png"), small)...)
	if stderr != "" {
		t.Errorf("not a terminal, yet stderr %q", stderr)
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{ writes int }

func (f *failingWriter) Write([]byte) (int, error) {
	f.writes++
	return 0, errors.New("no space left on device")
}

// TestWriteFailureStopsReading: once the output fails, the inputs left
// are not read (their warnings are not printed: only the write's error
// is, one line) and no row is written after the failure; exit 1, in
// CSV, NDJSON and JSON (packets writes its rows on a goroutine of its
// own, the other tables as each input is done, in input order).
func TestWriteFailureStopsReading(t *testing.T) {
	capture := demoCapture
	warns := "../../testdata/adversarial" // every capture there warns
	for _, args := range [][]string{
		{"packets", "-f", "csv", capture, warns},
		{"packets", "-f", "ndjson", capture, capture, warns},
		{"summary", "-j", "2", "-f", "ndjson", capture, warns, warns},
		{"streams", "-j", "1", "-f", "json", capture, warns},
	} {
		var errb bytes.Buffer
		w := &failingWriter{}
		code := run(append([]string{"tcpviz"}, args...), nil, w, &errb)
		if code != 1 {
			t.Errorf("%q: exit %d, want 1", args, code)
		}
		checkOneLine(t, errb.String(), "tcpviz: standard output: no space left on device")
		if w.writes > 2 {
			t.Errorf("%q: %d writes tried after the first failed", args, w.writes-1)
		}
	}
}
