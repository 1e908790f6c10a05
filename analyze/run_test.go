package analyze

import (
	"path/filepath"
	"reflect"
	"testing"

	"tcpviz/internal/capturetest"
)

func TestAddBusy(t *testing.T) {
	var top []busy
	for _, b := range []busy{{Stream: 0, Bytes: 10, Packets: 1}, {Stream: 1, Bytes: 30, Packets: 1}, {Stream: 2, Bytes: 20, Packets: 1}, {Stream: 3, Bytes: 30, Packets: 1}, {Stream: 4, Bytes: 5, Packets: 1}, {Stream: 5, Bytes: 25, Packets: 1}} {
		top = addBusy(top, 3, b)
	}
	want := []busy{{Stream: 1, Bytes: 30, Packets: 1}, {Stream: 3, Bytes: 30, Packets: 1}, {Stream: 5, Bytes: 25, Packets: 1}}
	if !reflect.DeepEqual(top, want) {
		t.Errorf("top 3 = %v, want %v", top, want)
	}
	if got := addBusy(nil, 1, busy{Stream: 7}); len(got) != 1 || got[0].Stream != 7 {
		t.Errorf("first of one: %v", got)
	}
}

// TestLoadBusiest: the busiest connections come with the main one (Busiest), each
// exactly as Load gives it alone.
func TestLoadBusiest(t *testing.T) {
	path := filepath.Join("..", "testdata", "geo_short.pcap")
	open := capturetest.Opener(t, path)
	for _, tt := range []struct {
		name    string
		stream  int
		n       int
		streams []int
	}{
		{"busiest first", -1, 10, []int{1, 0}},
		{"only the main one", -1, 1, []int{1}},
		{"the stream asked for first", 0, 10, []int{0, 1}},
		{"the stream asked for and one more", 0, 1, []int{0, 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Load(open, LoadOptions{Stream: tt.stream, Dir: -1, Busiest: tt.n})
			if err != nil {
				t.Fatal(err)
			}
			ls := append([]*Loaded{l}, l.Others...)
			var got []int
			for _, l := range ls {
				got = append(got, l.Conn.Stream)
			}
			if !reflect.DeepEqual(got, tt.streams) {
				t.Fatalf("streams %v, want %v", got, tt.streams)
			}
			for _, l := range ls {
				alone, err := Load(open, LoadOptions{Stream: l.Conn.Stream, Dir: -1})
				if err != nil {
					t.Fatal(err)
				}
				if l.Dir != alone.Dir || !reflect.DeepEqual(l.Records, alone.Records) || !reflect.DeepEqual(l.Stats, alone.Stats) {
					t.Errorf("stream %d: %d records, direction %v; alone %d records, direction %v (or the statistics differ)",
						l.Conn.Stream, len(l.Records), l.Dir, len(alone.Records), alone.Dir)
				}
			}
		})
	}
	if _, err := Load(open, LoadOptions{Stream: 5, Dir: -1, Busiest: 10}); err == nil || err.Error() != "no stream 5 (the capture has streams 0 to 1)" {
		t.Errorf("missing stream: %v", err)
	}
}
