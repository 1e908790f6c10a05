package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestSafeNamesStayInTheOutputDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"../../etc/passwd", "..", "/abs/path.png", "a/../../b", "c:\\x", "fe80::1%eth0-seq.png", "\x00\x1b[31m.png", ""} {
		p, err := outputPath(dir, name)
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
