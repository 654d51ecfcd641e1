//go:build !race

package gltfrig

const raceOn = false
