package reassembly

// Reading and decoding run ahead of tracking in a goroutine of their own
// (Scanner.Pipeline): a capture is read on two cores, the decoder's on one
// and the tracker's (and its caller's analysis) on the other. Segments
// cross in batches, so the hand-over costs a channel operation per
// pipeBatch segments.
//
// With Scanner.PipelineTracker the tracker runs in that goroutine too, so
// that the caller's goroutine has only its own work (the analysis). The
// tracker's calls to OnNew and OnRetire then cross in the same batches, in
// order with the segments, and are made in Scan's goroutine: a retired
// connection reaches OnRetire after its last segment, and the tracker no
// longer touches it.

const (
	pipeBatch = 1024 // segments (or tracker events) per batch
	// pipeBatches is how many batches are in flight: 16 (4 MB of
	// segments) let the producer run further ahead of the analysis than
	// 4 did, and summary of the bench capture took 1.15 s instead of 1.30
	// (medians of 8 interleaved runs, 8 batches 1.27 s; peak memory 28 ->
	// 31 MB), on this host at a time when its two vCPUs hand data slowly.
	pipeBatches = 16
)

type segBatch struct {
	segs  []Segment
	conns []*Conn     // with the tracker: the connection of each segment
	evs   []pipeEvent // with the tracker: its calls to OnNew and OnRetire
}

// pipeEvent is a call of the tracker's OnNew or OnRetire, made in the
// producer and replayed by Scan just before segment at of its batch (at
// len(segs): after the last).
type pipeEvent struct {
	at     int
	retire bool
	c      *Conn
}

type pipeline struct {
	full chan *segBatch // decoded, in capture order; closed at the end
	free chan *segBatch // for reuse
	done chan struct{}  // closed by Close: the producer stops

	// Scan's side, which it writes for every segment: on cache lines of
	// their own, apart from the fields the producer reads for every
	// packet (track, aheadTrack), or each write would take the line from
	// the other core and each read take it back (TestPipelineLayout).
	_    [64]byte
	cur  *segBatch
	i    int  // next segment of cur
	ev   int  // next event of cur
	over bool // full was closed and drained
	_    [64]byte

	// With the tracker in the producer (PipelineTracker).
	track    bool
	started  bool
	onNew    func(*Conn) // the caller's hooks, called by Scan
	onRetire func(*Conn)
	fill     *segBatch // the producer's batch being filled
	stopped  bool      // the producer saw done while flushing
	made     int       // batches made (next): at most pipeBatches+1
	// Hooks run in the producer (PipelineTrackerAhead).
	aheadTrack  func(*Conn, *Segment)
	aheadRetire func(*Conn)
}

// Pipeline makes the scanner read and decode in a goroutine of its own,
// ahead of Scan, which then only tracks: call it before the first Scan,
// and Close when done with the scanner (scanning to the end also stops
// the goroutine). Segments, warnings, counts and errors are the same as
// without it. A scanner handing over datagrams (Datagrams) does not
// pipeline.
func (s *Scanner) Pipeline() { s.pipeline(false) }

// PipelineTracker is Pipeline with the tracker in the scanner's goroutine
// too: Scan only hands over what it tracked. The tracker's OnNew and
// OnRetire (set them before the first Scan, and do not change them after)
// are still called in Scan's goroutine, in the same order with the
// segments as without a pipeline. But the tracker runs ahead: of the
// connection Conn returns, only Stream, Client,
// Server, FirstFrame, Handshake and ReusedPorts can be read during Scan
// (the segment carries what else the analysis needs as it was: its
// Stream, Dir, unwrapped numbers, ConnFirstTime, ClientSYNSeen, Duplicate,
// Lone, First);
// the rest only from OnRetire on, when the tracker is done with it.
func (s *Scanner) PipelineTracker() { s.pipeline(true) }

// PipelineTrackerAhead is PipelineTracker with work of the caller's done
// in the tracker's goroutine, so that the two goroutines share it:
// onTrack sees each segment just after it is tracked (before Scan hands
// it over), with its connection as the tracker has it then; onRetire
// sees each connection the tracker retires, before Scan's OnRetire gets
// it. Either may be nil. They run concurrently with Scan and its hooks:
// what they share with them must be synchronised.
func (s *Scanner) PipelineTrackerAhead(onTrack func(*Conn, *Segment), onRetire func(*Conn)) {
	s.pipeline(true)
	if p := s.pipe; p != nil && p.track && !p.started {
		p.aheadTrack, p.aheadRetire = onTrack, onRetire
	}
}

func (s *Scanner) pipeline(track bool) {
	if s.pipe != nil || s.dg != nil { // datagrams are handed over in Scan's goroutine
		return
	}
	p := &pipeline{
		full:  make(chan *segBatch, pipeBatches),
		free:  make(chan *segBatch, pipeBatches+1),
		done:  make(chan struct{}),
		track: track,
	}
	s.pipe = p
	if !track {
		p.started = true
		go s.produce(p)
	}
	// With the tracker, the producer starts at the first Scan, once the
	// caller has set the tracker's hooks.
}

// start takes over the tracker's hooks and starts the producer.
func (s *Scanner) start(p *pipeline) {
	p.started = true
	p.onNew, p.onRetire = s.trk.OnNew, s.trk.OnRetire
	// Within Track: before the segment being tracked, which goes into
	// the batch next (produce).
	s.trk.OnNew = func(c *Conn) { p.event(c, false, len(p.fill.segs)) }
	s.trk.OnRetire = func(c *Conn) { p.event(c, true, len(p.fill.segs)) }
	go s.produce(p)
}

// event records a call of a tracker hook for Scan to replay before
// segment at of the batch being filled.
func (p *pipeline) event(c *Conn, retire bool, at int) {
	if retire && p.aheadRetire != nil {
		p.aheadRetire(c)
	}
	if retire && p.onRetire == nil || !retire && p.onNew == nil || p.stopped {
		return
	}
	p.fill.evs = append(p.fill.evs, pipeEvent{at: at, retire: retire, c: c})
}

// afterEvent records a retirement by Expire or Flush, after the batch's
// last segment; a batch full of them is sent on.
func (p *pipeline) afterEvent(c *Conn) {
	if p.aheadRetire != nil {
		p.aheadRetire(c)
	}
	if p.onRetire == nil || p.stopped {
		return
	}
	p.fill.evs = append(p.fill.evs, pipeEvent{at: len(p.fill.segs), retire: true, c: c})
	if len(p.fill.evs) >= pipeBatch && !p.send() {
		p.stopped = true
	}
}

// send hands the batch being filled to Scan and takes a free one; false
// if Close stopped the pipeline.
func (p *pipeline) send() bool {
	select {
	case p.full <- p.fill:
	case <-p.done:
		p.fill = nil
		return false
	}
	if p.fill = p.next(); p.fill == nil {
		return false
	}
	p.fill.own()
	return true
}

// next is a batch for the producer to fill: one Scan gave back, else a
// new one while fewer than pipeBatches+1 were made, else the first Scan
// gives back; nil once Close stopped the pipeline. Made as needed, a
// capture of a thousand packets makes two or three, not seventeen (5.6
// MB each time: summary -j 64 of small captures held 300 MB, found by
// a tester).
func (p *pipeline) next() *segBatch {
	select {
	case b := <-p.free:
		return b
	default:
	}
	if p.made < pipeBatches+1 {
		p.made++
		b := &segBatch{segs: make([]Segment, 0, pipeBatch)}
		if p.track {
			b.conns = make([]*Conn, 0, pipeBatch)
		}
		return b
	}
	select {
	case b := <-p.free:
		return b
	case <-p.done:
		return nil
	}
}

// own empties a batch taken from the free ones for the producer to fill,
// and writes every line of it once, in one sweep. Scan's core read those
// lines last: written one segment at a time, each store waited for its
// line to come over, in order, and a load of the producer's that the
// stores queued before it could not answer waited behind them all (the
// producer's reads of its scratch segment in Track and the path analysis
// took 0.5 s of the 0.95 s it spent on the bench capture's summary).
// Cleared at once, the lines come over together.
func (b *segBatch) own() {
	clear(b.segs[:cap(b.segs)])
	clear(b.conns[:cap(b.conns)])
	b.segs, b.conns, b.evs = b.segs[:0], b.conns[:0], b.evs[:0]
}

// produce reads and decodes (and tracks) packets into batches until the
// end of the capture or Close.
func (s *Scanner) produce(p *pipeline) {
	defer close(p.full)
	if p.fill = p.next(); p.fill == nil {
		return
	}
	p.fill.own()
	var inTrack func(*Conn) // the hook that records retirements within Track
	if p.track {
		inTrack = s.trk.OnRetire
	}
	// Each segment is decoded and tracked in seg, which stays in this
	// core's cache, and copied into the batch when done: the batch's
	// lines were last read on Scan's core, and writing a field there,
	// then reading it back (as decoding and tracking do), waits each time
	// for the line to come back to this one. (Padded: no other object
	// shares its lines.)
	scratch := new(struct {
		_   [64]byte
		seg Segment
		_   [64]byte
	})
	seg := &scratch.seg
	for {
		b := p.fill
		for len(b.segs) < pipeBatch && len(b.evs) < pipeBatch && s.next() {
			pk := s.r.Packet()
			*seg = Segment{}
			ok, err := s.dec.Decode(pk, seg)
			if err != nil {
				s.warn(errPacket(pk.Number, err))
			}
			if !ok || s.focus != nil && !s.focus.has(seg) {
				continue
			}
			if !p.track {
				b.segs = append(b.segs, *seg)
				continue
			}
			c := s.trk.Track(seg)
			if p.aheadTrack != nil {
				p.aheadTrack(c, seg)
			}
			b.segs = append(b.segs, *seg)
			b.conns = append(b.conns, c)
			if seg.Frame&expireEvery == 0 && s.focus == nil {
				s.trk.OnRetire = p.afterEvent
				s.trk.Expire(seg.Time)
				s.trk.OnRetire = inTrack
				if p.stopped {
					return
				}
				b = p.fill
			}
		}
		if len(b.segs) == 0 && len(b.evs) == 0 {
			break
		}
		if len(b.segs) < pipeBatch && len(b.evs) < pipeBatch {
			break // the end of the capture
		}
		if !p.send() {
			return
		}
	}
	s.dec.Flush()
	if p.track {
		s.trk.OnRetire = p.afterEvent
		s.trk.Flush()
		if p.stopped {
			return
		}
	}
	if b := p.fill; len(b.segs) > 0 || len(b.evs) > 0 {
		select {
		case p.full <- b:
		case <-p.done:
		}
	}
}

// scanPipe is Scan with a pipeline: the next decoded segment, tracked.
func (s *Scanner) scanPipe() bool {
	p := s.pipe
	if !p.started {
		s.start(p)
	}
	s.expireDue() // (without the tracker in the producer)
	for !p.over {
		if b := p.cur; b != nil {
			for p.ev < len(b.evs) && b.evs[p.ev].at <= p.i {
				if e := b.evs[p.ev]; e.retire {
					p.onRetire(e.c)
				} else {
					p.onNew(e.c)
				}
				p.ev++
			}
			if p.i < len(b.segs) {
				seg := &b.segs[p.i] // handed over in place: the batch is Scan's until the next
				s.segp = seg
				if p.track {
					s.cur = b.conns[p.i]
				} else {
					s.cur = s.trk.Track(seg)
					if seg.Frame&expireEvery == 0 && s.focus == nil {
						s.sweep, s.sweepAt = true, seg.Time
					}
				}
				p.i++
				return true
			}
			p.free <- b
			p.cur = nil
		}
		b, ok := <-p.full
		if !ok {
			p.over = true
			break
		}
		p.cur, p.i, p.ev = b, 0, 0
	}
	if !p.track {
		s.trk.Flush()
	}
	return false
}

// Close stops the pipeline's goroutine, if any, and waits for it. The
// scanner must not be used after Close.
func (s *Scanner) Close() {
	p := s.pipe
	if p == nil || p.over || !p.started {
		return
	}
	close(p.done)
	for range p.full { // until the producer has returned
	}
	p.over = true
}
