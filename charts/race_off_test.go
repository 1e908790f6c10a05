//go:build !race

package charts

const raceDetector = false
