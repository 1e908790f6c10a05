package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"tcpviz/charts"
)

// writeAtomic writes a file through a temporary file in the same directory
// and a rename, so a reader never sees a half-written output and a failed
// or interrupted run leaves no partial file. It refuses to write over any
// of the inputs.
func writeAtomic(path string, inputs []input, write func(io.Writer) error) error {
	tmp, err := writeTemp(path, inputs, write)
	if err != nil {
		return err
	}
	defer temps.remove(tmp) // only forgets it after a successful rename
	if err := temps.rename(tmp, path); err != nil {
		return fmt.Errorf("%s: %w", charts.EscapeName(path), unwrapPathError(err))
	}
	return nil
}

// writeTemp writes what will be path into a temporary file beside it
// (registered in temps) and returns its name; on failure nothing is left.
// Errors name path, never the temporary file.
func writeTemp(path string, inputs []input, write func(io.Writer) error) (string, error) {
	if err := refuseInput(path, inputs); err != nil {
		return "", err
	}
	if err := refuseSpecial(path); err != nil {
		return "", err
	}
	tmp, err := temps.create(folderOf(path), charts.TempPattern(filepath.Base(path)))
	if err != nil {
		return "", fmt.Errorf("%s: %w", charts.EscapeName(path), unwrapPathError(err))
	}
	failed := func(err error) (string, error) {
		tmp.Close()
		temps.remove(tmp.Name())
		return "", fmt.Errorf("%s: %w", charts.EscapeName(path), tempError(err, tmp.Name()))
	}
	var w io.Writer = tmp
	if writeHook != nil {
		w = writeHook(path, tmp)
	}
	if err := write(w); err != nil {
		return failed(err)
	}
	if err := tmp.Close(); err != nil {
		return failed(err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return failed(err)
	}
	return tmp.Name(), nil
}

// folderOf is the folder path is in as the system reaches it, its text
// before the last element: "sub/../new" for "sub/../new/x.png", where
// filepath.Dir says "new" (sub must be made too, and a temporary file in
// "new" would not rename to the path when sub is missing or a link).
func folderOf(path string) string {
	dir, _ := filepath.Split(path)
	if d := strings.TrimRight(dir, string(filepath.Separator)); d != "" {
		return d
	}
	if dir != "" {
		return dir[:1] // the root
	}
	return "."
}

// writeHook, when set (by tests), wraps the file an output is written
// to: a write that fails (a full disk) is injected there.
var writeHook func(path string, f *os.File) io.Writer

// tempError is err with the temporary file's name taken out: "write
// .x.png.tmp123: no space left on device" is "no space left on device",
// said of the output.
func tempError(err error, tmp string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == tmp {
		return pe.Err
	}
	return err
}

// outputSet writes several files as one output (a report folder): each
// to a temporary file beside it, all renamed to their names by commit
// only once every one was written. A run that fails before (abort, or
// simply no commit) leaves none of them, and the files that were there
// before untouched. Safe for concurrent writes.
type outputSet struct {
	inputs []input // no output may overwrite one
	mu     sync.Mutex
	tmps   []string
	paths  []string
}

// write writes path's content into the set.
func (o *outputSet) write(path string, write func(io.Writer) error) error {
	tmp, err := writeTemp(path, o.inputs, write)
	if err != nil {
		return err
	}
	o.mu.Lock()
	o.tmps, o.paths = append(o.tmps, tmp), append(o.paths, path)
	o.mu.Unlock()
	return nil
}

// commit renames every file of the set to its name, in the order written
// (the last one, an index, appears last); a failed rename removes the
// files not yet renamed.
func (o *outputSet) commit() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, tmp := range o.tmps {
		if err := temps.rename(tmp, o.paths[i]); err != nil {
			for _, left := range o.tmps[i:] {
				temps.remove(left)
			}
			path := o.paths[i] // before the set is emptied
			o.tmps, o.paths = nil, nil
			return fmt.Errorf("%s: %w", charts.EscapeName(path), unwrapPathError(err))
		}
	}
	o.tmps, o.paths = nil, nil
	return nil
}

// names are the files of the set not yet committed, relative to dir, in
// name order.
func (o *outputSet) names(dir string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, len(o.paths))
	for i, p := range o.paths {
		out[i], _ = filepath.Rel(dir, p)
	}
	slices.Sort(out) // not the order the writers finished in, another at each run
	return out
}

// removeStale removes from folder dir the files an earlier run listed
// there (old: names relative to dir, one a line) that this run did not
// write again (written), so that the folder holds what this run wrote
// and what others put there: only a regular file inside dir, reached
// through no symbolic link, never an input; a subfolder it leaves empty
// goes too.
func removeStale(dir, old string, written []string, inputs []input) {
	for _, name := range strings.Split(old, "\n") {
		name = filepath.Clean(filepath.FromSlash(name))
		if !filepath.IsLocal(name) || slices.Contains(written, name) {
			continue
		}
		path := filepath.Join(dir, name)
		if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() || refuseInput(path, inputs) != nil {
			continue
		}
		sub, trusted := filepath.Dir(path), true
		for d := sub; d != filepath.Clean(dir) && trusted; d = filepath.Dir(d) {
			st, err := os.Lstat(d)
			trusted = err == nil && st.IsDir() // not a symbolic link
		}
		if trusted && os.Remove(path) == nil && sub != filepath.Clean(dir) {
			os.Remove(sub) // only if empty
		}
	}
}

// abort removes the files of the set not committed.
func (o *outputSet) abort() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, tmp := range o.tmps {
		temps.remove(tmp)
	}
	o.tmps, o.paths = nil, nil
}

// temps are the temporary files of the run (spools and outputs being
// written): a SIGINT or SIGTERM removes them before tcpviz exits.
var temps = &tempFiles{names: map[string]bool{}}

// tempFiles is a set of temporary files to remove on a signal. Creating,
// renaming and removing one hold the lock, so a signal never finds a file
// half registered.
type tempFiles struct {
	mu     sync.Mutex
	names  map[string]bool
	closed bool // removeAll ran: no more temporary files
}

var errInterrupted = errors.New("interrupted")

// create makes a temporary file, as os.CreateTemp, and registers it.
func (t *tempFiles) create(dir, pattern string) (*os.File, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errInterrupted
	}
	f, err := os.CreateTemp(dir, pattern)
	if err == nil {
		t.names[f.Name()] = true
	}
	return f, err
}

// rename moves a temporary file to its final name and forgets it.
func (t *tempFiles) rename(tmp, path string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errInterrupted
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	delete(t.names, tmp)
	return nil
}

// remove deletes a temporary file, if still registered, and forgets it.
func (t *tempFiles) remove(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names[name] {
		os.Remove(name)
		delete(t.names, name)
	}
}

// removeAll deletes every temporary file; none is made afterwards.
func (t *tempFiles) removeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for name := range t.names {
		os.Remove(name)
		delete(t.names, name)
	}
}

// cleanOnSignal removes the temporary files and exits 130 on SIGINT, 143
// on SIGTERM (128 + the signal, as a shell reports it).
func cleanOnSignal(stderr io.Writer) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-ch
		temps.removeAll()
		code := 130
		if sig == syscall.SIGTERM {
			code = 143
		}
		fmt.Fprintf(stderr, "tcpviz: %s: temporary files removed\n", sig)
		os.Exit(code)
	}()
}

// guarded is what an output of this run must not overwrite: ins and
// every other input of the run (a --shard run reads a share of them, and
// must not write over the others either), and the captures joined with
// any (A+B: B).
func (e *env) guarded(ins []input) []input {
	out := ins
	if len(e.runInputs) > 0 {
		out = append(out[:len(out):len(out)], e.runInputs...)
	}
	for _, in := range out {
		out = append(out[:len(out):len(out)], in.others()...)
	}
	// Standard input redirected from a file (tcpviz … - < F): F is an
	// input too, by what the file is, whatever -o calls it.
	if f, ok := e.stdin.(*os.File); ok && slices.ContainsFunc(ins, func(in input) bool { return in.path == "" }) {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			out = append(out[:len(out):len(out)], input{name: "-", path: fmt.Sprintf("/dev/fd/%d", f.Fd())})
		}
	}
	return out
}

// refuseInput returns an error when path names one of the inputs.
func refuseInput(path string, inputs []input) error {
	out, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	outInfo, statErr := os.Stat(path)
	for _, in := range inputs {
		if in.path == "" {
			continue
		}
		p, err := filepath.Abs(in.path)
		if err == nil && p == out {
			return usagef("%s: refusing to overwrite an input", path)
		}
		if statErr == nil {
			if inInfo, err := os.Stat(in.path); err == nil && os.SameFile(inInfo, outInfo) {
				return usagef("%s: refusing to overwrite an input", path)
			}
		}
	}
	return nil
}

// refuseSpecial returns an error when path exists and is not a regular
// file: an output never replaces a symlink, a device node, a FIFO or a
// directory it did not create.
func refuseSpecial(path string) error {
	st, err := os.Lstat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		what = "a symbolic link"
	case st.IsDir():
		what = "a directory"
	case st.Mode()&(os.ModeDevice|os.ModeCharDevice) != 0:
		what = "a device"
	}
	return usagef("%s: refusing to write over %s", charts.EscapeName(path), what)
}

// makeDir creates directory dir (its parents as needed) for outputs. An
// existing dir must be a real directory, not a symbolic link to one. The
// directories it makes are remembered in made.
func makeDir(dir string, made *madeDirs) error {
	if st, err := os.Lstat(dir); err == nil {
		if st.Mode()&os.ModeSymlink != 0 || !st.IsDir() {
			return fmt.Errorf("%s: refusing to write into it: not a directory this run can trust (a symbolic link or a file)", charts.EscapeName(dir))
		}
		return nil
	}
	// The levels missing, the deepest first.
	var missing []string
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil || p == filepath.Dir(p) {
			break
		}
		missing = append(missing, p)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		made.add(missing) // those made before the failure
		return fmt.Errorf("%s: %w", charts.EscapeName(dir), unwrapPathError(err))
	}
	made.add(missing)
	return nil
}

// madeDirs are the directories a run made for its outputs: those left
// empty when it ends (every output in them failed) are removed, so that a
// failed run leaves no empty folder or partition behind. A nil *madeDirs
// remembers nothing.
type madeDirs struct {
	mu   sync.Mutex
	dirs []string
}

func (m *madeDirs) add(dirs []string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.dirs = append(m.dirs, dirs...)
	m.mu.Unlock()
}

// removeEmpty removes the directories made that are empty, the deepest
// first (a parent made for a child is removed after it); one that holds
// anything stays (os.Remove removes only an empty directory).
func (m *madeDirs) removeEmpty() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	dirs := slices.Clone(m.dirs)
	slices.SortFunc(dirs, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	for _, d := range slices.Compact(dirs) {
		os.Remove(d)
	}
	m.dirs = nil
}

// checkOutDir is the usage error, before any input is read, of an
// --out-dir that cannot hold outputs: an existing file, device or FIFO,
// a symbolic link (makeDir would refuse it once the inputs are read), or
// a path through a file. A folder that does not exist yet is fine (the
// run makes it); one that cannot be looked at is left to the write.
func checkOutDir(dir string) error {
	st, err := os.Lstat(dir)
	switch {
	case err == nil && st.Mode()&os.ModeSymlink != 0:
		return usagef("--out-dir %s: a symbolic link: name the directory itself", charts.EscapeName(dir))
	case err == nil && st.Mode().IsRegular():
		return usagef("--out-dir %s: a file, not a directory", charts.EscapeName(dir))
	case err == nil && !st.IsDir():
		return usagef("--out-dir %s: not a directory", charts.EscapeName(dir))
	case err == nil:
		return nil
	}
	// The nearest ancestor that exists must be a directory (through any
	// symbolic links: only the last element is the run's to trust).
	for p := filepath.Dir(filepath.Clean(dir)); ; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil {
			if !st.IsDir() {
				return usagef("--out-dir %s: %s is not a directory", charts.EscapeName(dir), charts.EscapeName(p))
			}
			return nil
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// refuseReportDirs returns a usage error, before anything is read, when a
// report folder the run would write (<outDir>/<base>-report for each
// input) is a symbolic link or not a directory, or holds an input: its
// files could overwrite it. all are every input of the run (see
// env.guarded).
func refuseReportDirs(ins, all []input, bases []string, outDir string) error {
	for i, in := range ins {
		if in.err != nil {
			continue
		}
		dir, err := charts.OutputPath(outDir, bases[i]+"-report")
		if err != nil {
			return err
		}
		dirInfo, err := os.Lstat(dir)
		if err != nil {
			continue // made by the run: no input in it
		}
		if !dirInfo.IsDir() {
			if err := refuseSpecial(dir); err != nil {
				return err
			}
			return usagef("%s: refusing to write over a file: the report folder's name", charts.EscapeName(dir))
		}
		for _, other := range all {
			if other.path == "" || other.err != nil {
				continue
			}
			if st, err := os.Stat(filepath.Dir(other.path)); err == nil && os.SameFile(st, dirInfo) {
				return usagef("%s: refusing to overwrite an input: it is in the report folder %s", charts.EscapeName(other.name), charts.EscapeName(dir))
			}
		}
	}
	return nil
}

// figureOrTable is what -o asks of a command whose output is one table
// or one figure (sweep, io): a figure for .png .svg .pdf (figure set),
// the table's format otherwise (charts.TableTarget.FigureOrTable).
func (f *tableOutFlags) figureOrTable(cmd string, tf *tableFlags, tty bool) (figure charts.GraphFormat, format charts.TableFormat, err error) {
	figure, format, err = charts.TableTarget{Output: f.Output, Dir: f.OutDir, Terminal: tty}.FigureOrTable(cmd, tf.Format)
	if err != nil {
		return "", "", usagef("%v", err)
	}
	return figure, format, nil
}

// writeOutput writes an output of a command: to standard output (no -o,
// or -), or to the file out names (never over an input; its name printed
// on said, unless nil), in its directory: one that is missing is made
// (makeDir), one that is there is written into, as named.
func (e *env) writeOutput(out string, ins []input, said io.Writer, write func(io.Writer) error) error {
	if out == "" || out == "-" {
		return write(e.stdout)
	}
	if _, err := os.Stat(folderOf(out)); err != nil {
		if err := makeDir(folderOf(out), e.made); err != nil {
			return err
		}
	}
	if err := writeAtomic(out, e.guarded(ins), write); err != nil {
		return err
	}
	if said != nil {
		fmt.Fprintln(said, charts.EscapeName(out))
	}
	return nil
}

// refuseOutput is the usage error, before any input is read, of an -o
// that names an input or is no regular file ("-": standard output).
func refuseOutput(out string, guarded []input) error {
	if out == "" || out == "-" {
		return nil
	}
	if err := refuseInput(out, guarded); err != nil {
		return err
	}
	return refuseSpecial(out)
}
