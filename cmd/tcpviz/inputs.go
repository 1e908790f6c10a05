package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"tcpviz/charts"
	"tcpviz/internal/cmdline"
	"tcpviz/reassembly"
)

// input is one capture to read: a file, or standard input ("-").
type input struct {
	name    string // as shown to the user and written in the file column
	path    string // "" for standard input
	regular bool   // a regular file, which can be read more than once
	// err, when set, is why the argument or the file found in a directory
	// cannot be read (named): it fails on its own, the others are read.
	// With usage set it is the usage error of a CAPTURE#N whose number is
	// out of range, refused before anything is read (exit 2, as -s's).
	err   error
	usage bool
	// udp is set for CAPTURE#udp (the busiest UDP flow) or CAPTURE#udpN:
	// graphs draw that UDP flow (udpFlow, -1 for the busiest).
	udp     bool
	udpFlow int
	// stream is set for CAPTURE#N: that connection (tcp.stream N) of the
	// capture, for every command (a table's rows, a graph, a report).
	stream    int
	hasStream bool
	// joined, when set, holds the other captures of A.pcap+B.pcap
	// (report): the same transfer captured elsewhere, joined with this
	// one (path: A.pcap). A pointer: inputs stay comparable.
	joined *[]input
}

// others are the captures joined with in (none for a plain input).
func (in input) others() []input {
	if in.joined == nil {
		return nil
	}
	return *in.joined
}

// display is the input's name fit for a message or a title: standard
// input said so, control characters escaped.
func (in input) display() string { return charts.Named{Name: in.name, Path: in.path}.Display() }

// named is the input as the user named it, in a message: display with
// CAPTURE#N's stream (CAPTURE#udpN's name keeps its suffix).
func (in input) named() string { return in.naming().Given() }

// expandInputs turns command-line arguments into captures: files as named,
// directories walked recursively keeping only files (and links to files)
// that start like a capture, "-" for standard input. An argument or a file that cannot be
// read, a subdirectory that cannot be listed and a directory without a
// capture become inputs holding their error, in their place: they fail
// alone, naming their exact path, and the rest of the walk goes on.
func expandInputs(args []string) []input {
	var out []input
	failed := func(p string, err error) input {
		return input{name: p, path: p, err: fmt.Errorf("%s: %w", charts.EscapeName(p), unwrapPathError(err))}
	}
	outOfRange := func(p, what string) input {
		in := failed(p, fmt.Errorf("%s number out of range", what))
		in.usage = true
		return in
	}
	for _, a := range args {
		if a == "-" {
			out = append(out, input{name: "-"})
			continue
		}
		st, err := os.Stat(a)
		base, n, udp, suffixed, nerr := cmdline.CaptureSuffix(a)
		if err == nil || !suffixed {
			base = ""
		}
		if fst, ferr := os.Stat(base); base != "" && ferr == nil && !fst.IsDir() {
			switch {
			case nerr != nil && udp:
				out = append(out, outOfRange(a, "flow"))
			case nerr != nil:
				out = append(out, outOfRange(a, "stream"))
			case udp:
				out = append(out, input{name: a, path: base, regular: fst.Mode().IsRegular(), udp: true, udpFlow: n})
			default:
				out = append(out, input{name: base, path: base, regular: fst.Mode().IsRegular(), stream: n, hasStream: true})
			}
			continue
		}
		if err != nil && strings.Contains(a, "+") {
			if in, ok := joinedInput(a); ok {
				out = append(out, in)
				continue
			}
			if in, ok := joinedInput(base); ok && !udp { // A+B#N: stream N of A
				if nerr != nil {
					out = append(out, outOfRange(a, "stream"))
					continue
				}
				in.stream, in.hasStream = n, true
				out = append(out, in)
				continue
			}
		}
		if err != nil {
			out = append(out, failed(a, err))
			continue
		}
		if !st.IsDir() {
			out = append(out, input{name: a, path: a, regular: st.Mode().IsRegular()})
			continue
		}
		var found []input
		root := a
		if lst, err := os.Lstat(a); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			root += string(filepath.Separator) // a link to a folder, named: walked as the folder
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				// A directory that cannot be listed (reported after its
				// first call) or an entry that vanished: named, and the
				// walk goes on with what could be listed.
				found = append(found, failed(p, err))
				return nil
			}
			if !d.Type().IsRegular() && !linkedFile(p, d) {
				return nil
			}
			if ok, err := looksLikeCapture(p); err != nil {
				found = append(found, failed(p, err))
			} else if ok {
				found = append(found, input{name: p, path: p, regular: true})
			}
			return nil
		})
		if len(found) == 0 {
			found = append(found, input{name: a, path: a, err: fmt.Errorf("%s: no capture found in the directory", charts.EscapeName(a))})
		}
		// In natural order: sweep_10ms before sweep_100ms.
		sort.Slice(found, func(i, j int) bool { return charts.NaturalLess(found[i].name, found[j].name) })
		out = append(out, found...)
	}
	return out
}

// earlierSame gives, for each input, the first one before it that is
// the same file (os.SameFile: named twice, or through a symbolic link
// and its target) and alike says is the same input, -1 for none.
func earlierSame(ins []input, alike func(a, b input) bool) []int {
	out := make([]int, len(ins))
	sts := make([]os.FileInfo, len(ins))
	for i, in := range ins {
		out[i] = -1
		if in.err != nil || in.path == "" {
			continue
		}
		if sts[i], _ = os.Stat(in.path); sts[i] == nil {
			continue
		}
		for j := range i {
			if sts[j] != nil && os.SameFile(sts[j], sts[i]) && alike(ins[j], in) {
				out[i] = j
				break
			}
		}
	}
	return out
}

// linkedFile tells a symbolic link to a regular file, which a folder's
// walk takes as the file (a folder of links to the runs of a study);
// links to folders are not followed (no loops).
func linkedFile(p string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// unwrapPathError is err without the path an os call added (the output's
// own name says it, never a temporary file's): a PathError's or a failed
// rename's LinkError's.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// looksLikeCapture reports whether the file at p is a capture we can read,
// looking through compression: one that starts like a capture but whose
// header is damaged counts (reading it will say what is wrong). A file
// that cannot be opened is an error: it might be a capture.
func looksLikeCapture(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 8)
	n, err := io.ReadFull(f, head)
	if n == 0 && err != nil && err != io.EOF {
		return false, err
	}
	if !reassembly.Sniff(head[:n]) {
		return false, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false, err
	}
	_, err = reassembly.NewReader(f)
	return err == nil || !errors.Is(err, reassembly.ErrNotCapture), nil
}

// source is an input ready to be read, once or several times: a regular
// file is opened again for each pass; anything else (standard input, a
// pipe, a FIFO, /dev/stdin, a process substitution) is read exactly once,
// into a temporary file when more than one pass is needed. close releases
// what it opened.
type source struct {
	in    input
	stdin io.Reader
	path  string // what open reads: the file, or the spool ("" to read stdin once)
	files []*os.File
	reads []*reassembly.Reader // what open returned, closed before the files
	spool string
	bar   *progress // counts the bytes read, or nil
	// stop, when set, ends every read once it says true: the output
	// failed.
	stop func() bool
}

// errOutputFailed ends a read whose output has failed.
var errOutputFailed = errors.New("not read further: the output failed")

// stoppable ends r's reads once stop says true.
type stoppable struct {
	r    io.Reader
	stop func() bool
}

func (s stoppable) Read(p []byte) (int, error) {
	if s.stop() {
		return 0, errOutputFailed
	}
	return s.r.Read(p)
}

// newSource prepares in for reading; passes is how many times it will be
// read (1 or 2). A non-regular input read twice is spooled, after its
// first bytes were checked to start a capture. With a single input and a
// terminal on stderr, a progress bar counts the bytes read.
func (e *env) newSource(in input, passes int) (*source, error) {
	if in.err != nil {
		return nil, in.err
	}
	s := &source{in: in, stdin: e.stdin, path: in.path}
	if e.single && e.stderrTTY {
		s.bar = e.byteProgress(in, passes)
	}
	if in.regular || passes < 2 {
		return s, nil
	}
	var r io.Reader = e.stdin
	if in.path != "" {
		f, err := os.Open(in.path)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("%s: %w", in.display(), unwrapPathError(err))
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(s.counted(r))
	head, _ := br.Peek(8)
	if !reassembly.Sniff(head) {
		s.close()
		if len(head) == 0 {
			return nil, fmt.Errorf("%s: empty: %w", in.display(), reassembly.ErrNotCapture)
		}
		return nil, fmt.Errorf("%s: %w", in.display(), reassembly.ErrNotCapture)
	}
	tmp, err := temps.create("", "tcpviz-spool-*")
	if err != nil {
		s.close()
		return nil, fmt.Errorf("%s: spooling to a temporary file: %w", in.display(), unwrapPathError(err))
	}
	s.spool, s.path = tmp.Name(), tmp.Name()
	s.stdin = nil
	_, err = io.Copy(tmp, br)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.close()
		return nil, fmt.Errorf("%s: spooling to a temporary file: %w", in.display(), unwrapPathError(err))
	}
	return s, nil
}

// counted is r, counting the bytes read on the progress bar if there is
// one; without a bar r itself, so nothing is slowed down.
func (s *source) counted(r io.Reader) io.Reader {
	if s.bar == nil {
		return r
	}
	return &countingReader{r: r, bar: s.bar}
}

// open starts one pass over the capture. Errors do not name the input:
// the caller does (prefixErr), as it names the errors of the pass.
func (s *source) open() (*reassembly.Reader, error) {
	var r io.Reader
	if s.path == "" {
		if s.stdin == nil {
			return nil, errors.New("already read")
		}
		r, s.stdin = bufio.NewReader(s.counted(s.stdin)), nil
	} else {
		f, err := os.Open(s.path)
		if err != nil {
			return nil, unwrapPathError(err)
		}
		s.files = append(s.files, f)
		r = f
		if s.spool == "" {
			r = s.counted(f)
		}
	}
	if s.stop != nil {
		r = stoppable{r, s.stop}
	}
	// A regular file (or the spool) is read ahead: its reads end soon,
	// and one in progress when the reader is closed reads a file closed
	// or about to be. Standard input, a pipe or a FIFO is read in place:
	// a read of it may wait for ever, and nothing reads it once the
	// command has returned.
	if !s.in.regular && s.spool == "" {
		return reassembly.NewReader(r)
	}
	rd, err := reassembly.NewReaderAhead(r)
	if err == nil {
		s.reads = append(s.reads, rd)
	}
	return rd, err
}

// close closes what open opened, removes the spool and clears the
// progress bar.
func (s *source) close() {
	for _, r := range s.reads {
		r.Close()
	}
	s.reads = nil
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
	if s.spool != "" {
		temps.remove(s.spool)
		s.spool = ""
	}
	s.bar.finish()
}

// naming is in as the names derived from it, and the wording of its
// flow, see it.
func (in input) naming() charts.Named {
	n := charts.Named{Name: in.name, Path: in.path, Stream: in.stream, HasStream: in.hasStream,
		UDP: in.udp, UDPFlow: in.udpFlow, Failed: in.err != nil}
	for _, j := range in.others() {
		n.Joined = append(n.Joined, j.path)
	}
	return n
}

// namings are ins as the names derived from them see them.
func namings(ins []input) []charts.Named {
	out := make([]charts.Named, len(ins))
	for i, in := range ins {
		out[i] = in.naming()
	}
	return out
}

// joinedInput reads A.pcap+B.pcap[+C.pcap...] as A.pcap joined with the
// others, when every part is a regular file.
func joinedInput(a string) (input, bool) {
	parts := strings.Split(a, "+")
	var ins []input
	for _, p := range parts {
		st, err := os.Stat(p)
		if p == "" || err != nil || !st.Mode().IsRegular() {
			return input{}, false
		}
		ins = append(ins, input{name: p, path: p, regular: true})
	}
	in := ins[0]
	others := ins[1:]
	in.name, in.joined = a, &others
	return in, true
}
