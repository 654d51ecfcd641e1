// Package slicex grows the large struct-of-arrays storage of a world
// (pose pool, particles, chains) by doubling its capacity.
//
// append grows a large slice by about a quarter each time, so a store
// filled one character at a time is copied some five times over while
// 10,000 characters are added (the set-up of the stress run spent half
// its time in memmove). Doubling copies it about twice; World.Trim gives
// the slack back once set-up is done.
package slicex

// Extend returns s lengthened by n zeroed elements, reallocating to at
// least twice the capacity when s has no room.
func Extend[T any](s []T, n int) []T {
	s = Reserve(s, n)
	s = s[:len(s)+n]
	clear(s[len(s)-n:]) // capacity left by a shrink may hold old values
	return s
}

// Reserve returns s with room for n more elements, reallocating to at
// least twice the capacity when it has too little.
func Reserve[T any](s []T, n int) []T {
	need := len(s) + n
	if need <= cap(s) {
		return s
	}
	t := make([]T, len(s), max(need, 2*cap(s)))
	copy(t, s)
	return t
}
