// Package stat holds the order statistics the analysis stages share.
package stat
