//go:build !race

package reassembly

const raceEnabled = false
