// Package batch hands items from one goroutine to another in batches, so
// that making them takes one core and using them another: a table's rows
// made by the analysis and written by a writer, a connection's records
// and the graphs drawn of them. The hand-over costs a channel operation
// per batch, not per item. InOrder does work on many goroutines and hands
// the results on in order (a command's inputs, read in parallel).
package batch

import "fmt"

const size, batches = 1024, 4

// Handoff runs do on a goroutine of its own over the items given to it,
// in the order given.
type Handoff[R any] struct {
	full, free chan []R
	cur        []R
	done       chan struct{}
	err        error // do's first error, or its panic; read after done
}

// New starts a Handoff: do is called on each item (a panic in it is an
// error naming what it was doing); after do's first error the items are
// dropped, and failed, if set, is called at once on do's goroutine.
func New[R any](do func(*R) error, failed func(), what string) *Handoff[R] {
	h := &Handoff[R]{full: make(chan []R, batches), free: make(chan []R, batches+1), done: make(chan struct{})}
	for range batches + 1 {
		h.free <- make([]R, 0, size)
	}
	go func() {
		defer close(h.done)
		for b := range h.full {
			h.run(b, do, failed, what)
			h.free <- b[:0] // after a failure too: Add never waits for ever
		}
	}()
	h.cur = <-h.free
	return h
}

func (h *Handoff[R]) run(b []R, do func(*R) error, failed func(), what string) {
	defer func() {
		if r := recover(); r != nil && h.err == nil {
			h.err = fmt.Errorf("internal error %s: %v (a bug in tcpviz: please report it)", what, r)
			if failed != nil {
				failed()
			}
		}
	}()
	for i := range b {
		if h.err != nil {
			return
		}
		if h.err = do(&b[i]); h.err != nil && failed != nil {
			failed()
		}
	}
}

// Add hands *r over (a copy: r may be reused at once).
func (h *Handoff[R]) Add(r *R) {
	h.room()
	h.cur = append(h.cur, *r)
}

// Next is the item to fill in place, zero: it is handed over as it is
// when Next, Add or Finish is called again.
func (h *Handoff[R]) Next() *R {
	h.room()
	var zero R
	h.cur = append(h.cur, zero)
	return &h.cur[len(h.cur)-1]
}

// room sends the batch on once it is full.
func (h *Handoff[R]) room() {
	if len(h.cur) == cap(h.cur) {
		h.full <- h.cur
		h.cur = <-h.free
		// Written at once: the other goroutine's core read these items
		// last, and items written one at a time each wait for their
		// lines to come over, and hold up this core's loads behind them
		// (reassembly's segBatch.own measures it).
		clear(h.cur[:cap(h.cur)])
	}
}

// Finish waits for every item to be done and returns do's first error.
func (h *Handoff[R]) Finish() error {
	if len(h.cur) > 0 {
		h.full <- h.cur
	}
	close(h.full)
	<-h.done
	return h.err
}
