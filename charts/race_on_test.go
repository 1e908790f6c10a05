//go:build race

package charts

// raceDetector is true when the tests run with -race, which makes large
// inputs slow.
const raceDetector = true
