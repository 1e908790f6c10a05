// Package stat holds the order statistic the analysis stages share: the
// median.
package stat
