package reassembly

import (
	"errors"
	"slices"
)

// IP fragment reassembly for datagrams that are not TCP (TCP fragments
// are counted and skipped, as before). Like Wireshark, a datagram is
// complete once fragments cover it from offset 0 to the end the last
// fragment (more-fragments clear) gives; it is then handed over at the
// packet that completed it. Unlike Wireshark, coverage counts bytes on the
// wire, so header-only captures still yield the datagram, with what was
// captured of its start.
//
// Memory is bounded whatever the input: at most fragMaxPending datagrams
// wait, holding at most fragMaxBytes of captured bytes in all and
// fragMaxParts fragments each; a datagram waits at most fragTimeout of
// capture time (Linux's ipfrag_time). What exceeds a bound is dropped,
// oldest first, and counted as incomplete.
const (
	fragMaxPending = 4096
	fragMaxBytes   = 16 << 20
	fragMaxParts   = 256
	fragTimeout    = 30e9
	fragPartCost   = 64 // bytes charged per fragment besides its data
	ipMaxDatagram  = 65535
)

type fragKey struct {
	src, dst [16]byte
	id       uint32
	proto    uint8
	version  uint8
}

type fragPart struct {
	off, end int    // wire bytes [off, end) of the datagram's payload
	data     []byte // captured bytes from off (possibly fewer than end-off)
}

type fragEntry struct {
	key        fragKey
	firstFrame int64
	firstTime  int64
	total      int // payload length, once the last fragment is seen; else -1
	parts      []fragPart
	cost       int
	done       bool // completed or dropped
}

type fragTable struct {
	pending map[fragKey]*fragEntry
	queue   []*fragEntry // in order of first fragment; done entries are skipped
	head    int
	bytes   int
	buf     []byte // the last reassembled payload
	stats   *DatagramStats
}

var (
	errFragTooLong = errors.New("ip fragment: ends beyond 65535 bytes")
	errFragEmpty   = errors.New("ip fragment: no payload")
)

// add files one fragment. When it completes its datagram, add returns
// the captured prefix of the datagram's payload, its length on the wire
// and the number of fragments; n is 0 while fragments are missing.
func (t *fragTable) add(ip *ipPacket, p *Packet) (payload []byte, left, n int, err error) {
	f := ip.frag
	end := f.offset + ip.left
	if end > ipMaxDatagram {
		return nil, 0, 0, errFragTooLong
	}
	if ip.left == 0 && f.more {
		return nil, 0, 0, errFragEmpty
	}
	if t.pending == nil {
		t.pending = make(map[fragKey]*fragEntry)
	}
	t.expire(p.Time)
	key := fragKey{src: ip.src.As16(), dst: ip.dst.As16(), id: f.id, proto: ip.proto, version: ip.version}
	e := t.pending[key]
	if e == nil {
		if len(t.pending) >= fragMaxPending {
			t.dropOldest()
		}
		e = &fragEntry{key: key, firstFrame: p.Number, firstTime: p.Time, total: -1}
		t.pending[key] = e
		t.queue = append(t.queue, e)
	}
	if len(e.parts) >= fragMaxParts {
		t.drop(e)
		return nil, 0, 0, nil
	}
	if !f.more {
		e.total = end
	}
	part := fragPart{off: f.offset, end: end}
	if len(ip.payload) > 0 {
		part.data = append([]byte(nil), ip.payload...)
	}
	cost := len(part.data) + fragPartCost
	e.parts = append(e.parts, part)
	e.cost += cost
	t.bytes += cost
	for t.bytes > fragMaxBytes {
		t.dropOldest()
	}
	if e.done || e.total < 0 || !e.complete() {
		return nil, 0, 0, nil
	}
	payload = t.assemble(e)
	n = len(e.parts)
	t.remove(e)
	return payload, e.total, n, nil
}

// complete reports whether the parts cover [0, total) on the wire.
func (e *fragEntry) complete() bool {
	slices.SortStableFunc(e.parts, func(a, b fragPart) int { return a.off - b.off })
	covered := 0
	for _, p := range e.parts {
		if p.off > covered {
			return false
		}
		covered = max(covered, p.end)
	}
	return covered >= e.total
}

// assemble copies the captured bytes of e's parts (sorted by complete)
// into the table's buffer, from offset 0 up to the first byte that was
// not captured. Where fragments overlap, the earlier offset's bytes win.
func (t *fragTable) assemble(e *fragEntry) []byte {
	t.buf = t.buf[:0]
	for _, p := range e.parts {
		have := len(t.buf)
		if p.off > have {
			break // a hole in what was captured
		}
		if skip := have - p.off; skip < len(p.data) {
			t.buf = append(t.buf, p.data[skip:]...)
		}
	}
	if len(t.buf) > e.total {
		t.buf = t.buf[:e.total]
	}
	return t.buf
}

// expire drops datagrams whose first fragment is older than fragTimeout.
func (t *fragTable) expire(now int64) {
	for t.head < len(t.queue) {
		e := t.queue[t.head]
		if !e.done && now-e.firstTime <= fragTimeout {
			return
		}
		if !e.done {
			t.drop(e)
		}
		t.queue[t.head] = nil
		t.head++
	}
	t.compact()
}

func (t *fragTable) dropOldest() {
	for t.head < len(t.queue) {
		e := t.queue[t.head]
		t.queue[t.head] = nil
		t.head++
		if !e.done {
			t.drop(e)
			break
		}
	}
	t.compact()
}

// drop gives up on e: an incomplete datagram.
func (t *fragTable) drop(e *fragEntry) {
	t.stats.Incomplete++
	if t.stats.FirstIncomplete == 0 || e.firstFrame < t.stats.FirstIncomplete {
		t.stats.FirstIncomplete = e.firstFrame
	}
	t.remove(e)
}

func (t *fragTable) remove(e *fragEntry) {
	e.done = true
	t.bytes -= e.cost
	e.parts = nil
	if t.pending[e.key] == e {
		delete(t.pending, e.key)
	}
}

// compact reclaims the queue's head once most of it is spent.
func (t *fragTable) compact() {
	if t.head > 1024 && t.head*2 > len(t.queue) {
		n := copy(t.queue, t.queue[t.head:])
		clear(t.queue[n:])
		t.queue, t.head = t.queue[:n], 0
	}
}

// flush ends the capture: every datagram still waiting is incomplete.
func (t *fragTable) flush() {
	for _, e := range t.queue[t.head:] {
		if e != nil && !e.done {
			t.drop(e)
		}
	}
	t.queue, t.head = nil, 0
}
