//go:build race

package gltfrig

// raceOn: the race detector changes what the runtime allocates.
const raceOn = true
