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

// Quantile is the q-quantile (0 ≤ q ≤ 1) of sorted samples, the nearest
// rank's: the smallest sample at least a fraction q of them do not
// exceed. 0 without samples.
func Quantile(sorted []int64, q float64) int64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	k := int(q*float64(n)+0.999999999) - 1
	return sorted[min(max(k, 0), n-1)]
}
