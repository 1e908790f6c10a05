package reassembly

// Reading and decoding run ahead of tracking in a goroutine of their own
// (Scanner.Pipeline): a capture is read on two cores, the decoder's on one
// and the tracker's (and its caller's analysis) on the other. Segments
// cross in batches, so the hand-over costs a channel operation per
// pipeBatch segments.

const (
	pipeBatch   = 1024 // segments per batch
	pipeBatches = 4    // batches in flight
)

type segBatch struct{ segs []Segment }

type pipeline struct {
	full chan *segBatch // decoded, in capture order; closed at the end
	free chan *segBatch // for reuse
	done chan struct{}  // closed by Close: the producer stops
	cur  *segBatch
	i    int
	over bool // full was closed and drained
}

// Pipeline makes the scanner read and decode in a goroutine of its own,
// ahead of Scan, which then only tracks: call it before the first Scan,
// and Close when done with the scanner (scanning to the end also stops
// the goroutine). Segments, warnings, counts and errors are the same as
// without it. A scanner handing over datagrams (Datagrams) does not
// pipeline.
func (s *Scanner) Pipeline() {
	if s.pipe != nil || s.dg != nil { // datagrams are handed over in Scan's goroutine
		return
	}
	p := &pipeline{
		full: make(chan *segBatch, pipeBatches),
		free: make(chan *segBatch, pipeBatches+1),
		done: make(chan struct{}),
	}
	for range pipeBatches + 1 {
		p.free <- &segBatch{segs: make([]Segment, 0, pipeBatch)}
	}
	s.pipe = p
	go s.produce(p)
}

// produce reads and decodes packets into batches until the end of the
// capture or Close.
func (s *Scanner) produce(p *pipeline) {
	defer close(p.full)
	for {
		var b *segBatch
		select {
		case b = <-p.free:
		case <-p.done:
			return
		}
		b.segs = b.segs[:0]
		for len(b.segs) < pipeBatch && s.r.Next() {
			pk := s.r.Packet()
			b.segs = append(b.segs, Segment{})
			ok, err := s.dec.Decode(pk, &b.segs[len(b.segs)-1])
			if err != nil {
				s.warn(errPacket(pk.Number, err))
			}
			if !ok {
				b.segs = b.segs[:len(b.segs)-1]
			}
		}
		if len(b.segs) == 0 {
			return
		}
		select {
		case p.full <- b:
		case <-p.done:
			return
		}
	}
}

// scanPipe is Scan with a pipeline: the next decoded segment, tracked.
func (s *Scanner) scanPipe() bool {
	p := s.pipe
	for !p.over {
		if p.cur != nil && p.i < len(p.cur.segs) {
			s.seg = p.cur.segs[p.i]
			p.i++
			s.cur = s.trk.Track(&s.seg)
			if s.seg.Frame&expireEvery == 0 {
				s.trk.Expire(s.seg.Time)
			}
			return true
		}
		if p.cur != nil {
			p.free <- p.cur
			p.cur = nil
		}
		b, ok := <-p.full
		if !ok {
			p.over = true
			break
		}
		p.cur, p.i = b, 0
	}
	s.trk.Flush()
	return false
}

// Close stops the pipeline's goroutine, if any, and waits for it. The
// scanner must not be used after Close.
func (s *Scanner) Close() {
	p := s.pipe
	if p == nil || p.over {
		return
	}
	close(p.done)
	for range p.full { // until the producer has returned
	}
	p.over = true
}
