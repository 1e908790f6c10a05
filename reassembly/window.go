package reassembly

import (
	"errors"
	"io"
	"runtime"
	"sync"
)

// window is the part of a capture read but not yet consumed, buf[pos:end],
// from which pcap's and pcapng's readers take their records as slices: a
// record stays valid until the next fill. It reads from r itself, or, when
// ahead is set, takes the blocks a goroutine of its own read (readAhead).
type window struct {
	r        io.Reader
	buf      []byte // buf[pos:end] is read but not yet consumed
	pos, end int
	rerr     error // the error that ended the input, kept until buf is drained

	// Reading ahead: buf is a block of ahead's (block), or, when a
	// record runs from one block into the next, stitch, a copy of the
	// first block's end followed by what the record needs of next (from
	// nextAt on). Other records are not copied.
	ahead  *readAhead
	block  []byte
	next   []byte
	nextAt int
	stitch []byte
}

// fill makes at least k bytes available in buf[pos:end]. It returns fewer
// only when the input has no more: then the error that ended it (io.EOF
// at a clean end).
func (w *window) fill(k int) error {
	if w.end-w.pos >= k {
		return nil
	}
	if w.ahead != nil {
		return w.fillAhead(k)
	}
	if w.pos > 0 { // move what is left to the front
		w.end = copy(w.buf, w.buf[w.pos:w.end])
		w.pos = 0
	}
	if len(w.buf) < k+pcapBlockSize {
		// Start small (a short file costs little), rounded up to 64 KiB
		// so that records of varying lengths do not each ask for a new
		// buffer, and double up to the block size beyond the record.
		w.grow((k+min(max(2*len(w.buf), 64<<10), pcapBlockSize)+0xffff)&^0xffff, k)
	}
	for w.end < k {
		if w.rerr != nil {
			return w.rerr
		}
		if w.end == len(w.buf) {
			w.grow(2*len(w.buf), k)
		}
		m, err := readSome(w.r, w.buf[w.end:])
		w.end += m
		w.rerr = err
	}
	return nil
}

// readSome reads into b until a read gives bytes or an error; a reader
// that gives neither 100 times in a row fails with io.ErrNoProgress, as
// bufio's does.
func readSome(r io.Reader, b []byte) (int, error) {
	for range 100 {
		if m, err := r.Read(b); m > 0 || err != nil {
			return m, err
		}
	}
	return 0, io.ErrNoProgress
}

// grow makes buf size bytes long, but not beyond twice what it holds or
// 1 MiB, whichever is more, nor beyond k plus a block and 64 KiB: it grows
// with what was read, not with what a record claims, so a damaged length
// costs no memory the file does not fill.
func (w *window) grow(size, k int) {
	size = min(size, max(2*w.end, 1<<20), k+pcapBlockSize+64<<10)
	if size <= len(w.buf) {
		return
	}
	nb := make([]byte, size)
	copy(nb, w.buf[:w.end])
	w.buf = nb
}

// fillAhead is fill from the blocks read ahead.
func (w *window) fillAhead(k int) error {
	for w.end-w.pos < k {
		if w.pos == w.end {
			// Nothing left: go on in the block that follows.
			w.ahead.release(w.block)
			w.block = nil
			if w.next == nil {
				if w.rerr != nil {
					return w.rerr
				}
				w.next, w.nextAt, w.rerr = w.ahead.get()
				continue
			}
			w.block, w.buf, w.pos, w.end = w.next, w.next, w.nextAt, len(w.next)
			w.next = nil
			continue
		}
		if w.block != nil { // a record runs into the next block: copy its start
			w.stitch = append(w.stitch[:0], w.buf[w.pos:w.end]...)
			w.ahead.release(w.block)
			w.block = nil
			w.buf, w.pos, w.end = w.stitch, 0, len(w.stitch)
		} else if w.pos > 0 {
			w.end = copy(w.stitch, w.stitch[w.pos:w.end])
			w.pos = 0
		}
		if w.next == nil {
			if w.rerr != nil {
				return w.rerr
			}
			w.next, w.nextAt, w.rerr = w.ahead.get()
			continue
		}
		m := min(k-w.end, len(w.next)-w.nextAt)
		w.stitch = append(w.stitch[:w.end], w.next[w.nextAt:w.nextAt+m]...)
		w.buf, w.end = w.stitch, w.end+m
		if w.nextAt += m; w.nextAt == len(w.next) {
			w.ahead.release(w.next)
			w.next = nil
		}
	}
	return nil
}

// decompressed is the window to read the capture from when w holds it
// compressed and dec decompresses it. Read ahead, dec decompresses on a
// goroutine of its own too (reading w there), and rd's closer stops both;
// end, if set, releases what dec holds, once nothing reads it.
func (w *window) decompressed(dec io.Reader, rd *Reader, end func()) *window {
	if w.ahead == nil {
		if end != nil {
			stop := rd.closer
			rd.closer = func() { end(); stop() }
		}
		return &window{r: dec}
	}
	a := startReadAhead(dec)
	stop := rd.closer
	rd.closer = func() {
		a.stop()
		stop() // ends a's read of w, if it waits for a block
		<-a.exited
		if end != nil {
			end()
		}
	}
	return &window{ahead: a}
}

// Read reads from the window (for the readers that take an io.Reader:
// decompression, snoop).
func (w *window) Read(p []byte) (int, error) {
	if w.end == w.pos && len(p) > 0 {
		if err := w.fill(1); err != nil {
			return 0, err
		}
	}
	n := copy(p, w.buf[w.pos:w.end])
	w.pos += n
	return n, nil
}

// readAhead reads r on a goroutine of its own, a block at a time, so that
// the system calls' copy of the file runs on another core than the
// decoding. Blocks go round: read, handed over in order (full), given back
// once consumed (free); at most aheadBlocks exist.
type readAhead struct {
	full   chan aheadBlock
	free   chan []byte
	done   chan struct{}
	once   sync.Once
	exited chan struct{} // closed when the goroutine returns
}

type aheadBlock struct {
	b   []byte
	err error
}

// pcapBlockSize is how much a window reading in place asks for at once,
// beyond the record it needs.
const pcapBlockSize = 2 * readBufferSize

const (
	aheadBlocks    = 4
	aheadBlockSize = 256 << 10
)

// readsAhead says whether reading ahead can help: when Go code may run on
// more than one core.
func readsAhead() bool { return runtime.GOMAXPROCS(0) > 1 }

func startReadAhead(r io.Reader) *readAhead {
	a := &readAhead{
		full:   make(chan aheadBlock, aheadBlocks),
		free:   make(chan []byte, aheadBlocks),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	for range aheadBlocks {
		a.free <- nil // allocated when first used
	}
	go a.run(r)
	return a
}

func (a *readAhead) run(r io.Reader) {
	defer close(a.exited)
	last := 0
	for {
		var b []byte
		select {
		case b = <-a.free:
		case <-a.done:
			return
		}
		if b == nil {
			// Twice what the last read gave, from 64 KB up to a block:
			// a small input (or its end) takes small blocks.
			b = make([]byte, min(aheadBlockSize, max(64<<10, 2*last)))
		}
		m, err := readSome(r, b)
		last = m
		a.full <- aheadBlock{b[:m], err} // never blocks: as many places as blocks
		if err != nil {
			return
		}
	}
}

// get returns the next block read, at nextAt 0, and the error that ended
// the input after it, if one did; a block with no bytes comes back as nil.
func (a *readAhead) get() ([]byte, int, error) {
	var blk aheadBlock
	select {
	case blk = <-a.full:
	case <-a.done:
		return nil, 0, errReadStopped
	}
	if len(blk.b) == 0 {
		a.release(blk.b)
		return nil, 0, blk.err
	}
	return blk.b, 0, blk.err
}

// errReadStopped ends the reading of a window whose reading was stopped.
var errReadStopped = errors.New("reading stopped")

// release gives block b back to be read into again; it never blocks: at
// most aheadBlocks blocks go round.
func (a *readAhead) release(b []byte) {
	if b != nil {
		a.free <- b[:cap(b)]
	}
}

// stop ends the reading goroutine (at once, or after the read it is in).
func (a *readAhead) stop() { a.once.Do(func() { close(a.done) }) }
