// Package words says counts and lists in English, the same way in the
// engine's sentences (diagnoses, errors) and in the commands' messages.
package words

import (
	"strconv"
	"strings"
)

// Plural formats a count with a noun: "1 packet", "2 packets".
func Plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

// Or joins words as "a, b or c".
func Or(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
