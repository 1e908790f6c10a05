package stat

import "slices"

// Median is the median of samples (sorted in place): the middle one, or
// the mean of the two middle ones; false without samples.
func Median(samples []int64) (int64, bool) {
	if len(samples) == 0 {
		return 0, false
	}
	slices.Sort(samples)
	n := len(samples)
	if n%2 == 1 {
		return samples[n/2], true
	}
	return (samples[n/2-1] + samples[n/2]) / 2, true
}
