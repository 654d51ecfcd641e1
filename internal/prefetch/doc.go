// Package prefetch asks the processor to start loading memory a caller
// reads soon, while it still works on other data: for the systems that
// visit thousands of characters' records in turn, each too far from the
// last for the hardware's own prefetcher to guess.
package prefetch
