package slab

import (
	"runtime"
	"sync/atomic"
)

// Table finds values (uint32, such as indexes in a Slab) by a 64-bit
// hash, by open addressing (linear probing) in one array of 8-byte slots
// outside the Go heap (see mapChunk): a million values take 16 MB, where
// a Go map[uint64]uint32 takes about 30 and the garbage collector's heap
// goal doubles that. Values of equal hashes may be stored: the caller
// tells them apart (Find's eq). It grows by rehashing into an array
// twice as large once three quarters are used; Delete shifts the probe
// sequence back, leaving no tombstones.
type Table struct {
	slots []tableSlot // len: a power of two, or 0
	mem   *tableMem   // slots' memory, freed by release or a cleanup
	n     int
}

// tableSlot is a slot: the low 32 bits of a value's hash (where its
// probe starts, and a fingerprint) and 1 + the value (0: empty).
type tableSlot struct {
	hash uint32
	v1   uint32
}

// tableMem is the memory of a Table's slots: mapped outside the heap
// where the platform allows, unmapped once (release, or the cleanup once
// the Table is dropped).
type tableMem struct {
	unmap func()
}

const minTable = 1 << 10

// MaxTable is the largest number of values a Table holds.
const MaxTable = 1 << 30

// newTableMem returns n zeroed slots and their memory.
func newTableMem(n int) ([]tableSlot, *tableMem) {
	v, unmap := mapChunk[tableSlot](n)
	if v == nil {
		return make([]tableSlot, n), &tableMem{}
	}
	var done atomic.Bool
	once := func() {
		if done.CompareAndSwap(false, true) {
			unmap()
		}
	}
	m := &tableMem{unmap: once}
	runtime.AddCleanup(m, func(f func()) { f() }, once)
	return v, m
}

// release frees m's memory now; its slots must not be used after.
func (m *tableMem) release() {
	if m != nil && m.unmap != nil {
		m.unmap()
	}
}

// Len returns how many values the table holds.
func (t *Table) Len() int { return t.n }

// Insert adds v under hash h (whether or not a value of h is there).
func (t *Table) Insert(h uint64, v uint32) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	t.put(tableSlot{uint32(h), v + 1})
	t.n++
}

// put stores s in the first empty slot of its probe sequence.
func (t *Table) put(s tableSlot) {
	mask := uint32(len(t.slots) - 1)
	i := s.hash & mask
	for t.slots[i].v1 != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// grow rehashes the values into twice as many slots.
func (t *Table) grow() {
	if t.n >= MaxTable {
		panic("slab: Table full")
	}
	old, oldMem := t.slots, t.mem
	t.slots, t.mem = newTableMem(max(minTable, 2*len(old)))
	for _, s := range old {
		if s.v1 != 0 {
			t.put(s)
		}
	}
	runtime.KeepAlive(old)
	oldMem.release()
}

// Find returns the value under hash h for which eq is true, probing the
// values of hash h in turn.
func (t *Table) Find(h uint64, eq func(v uint32) bool) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := uint32(len(t.slots) - 1)
	for i := uint32(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.v1 == 0 {
			return 0, false
		}
		if s.hash == uint32(h) && eq(s.v1-1) {
			return s.v1 - 1, true
		}
	}
}

// Delete removes value v stored under hash h, and reports whether it was
// there. The values after it in its run move back to where their probes
// find them (no tombstones).
func (t *Table) Delete(h uint64, v uint32) bool {
	if t.n == 0 {
		return false
	}
	mask := uint32(len(t.slots) - 1)
	i := uint32(h) & mask
	for t.slots[i] != (tableSlot{uint32(h), v + 1}) {
		if t.slots[i].v1 == 0 {
			return false
		}
		i = (i + 1) & mask
	}
	// Backward shift: j scans the run after the hole at i; a value moves
	// into the hole unless its home lies cyclically in (i, j].
	for j := (i + 1) & mask; t.slots[j].v1 != 0; j = (j + 1) & mask {
		home := t.slots[j].hash & mask
		if (j-home)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = tableSlot{}
	t.n--
	return true
}

// All calls f with every value, in no particular order. f must not
// change the table.
func (t *Table) All(f func(v uint32)) {
	for _, s := range t.slots {
		if s.v1 != 0 {
			f(s.v1 - 1)
		}
	}
}

// Reset empties the table and frees its memory.
func (t *Table) Reset() {
	mem := t.mem
	*t = Table{}
	mem.release()
}
