//go:build !amd64 || purego

package fk

import "github.com/go-gl/mathgl/mgl32"

// runOrder is the Go kernel on this platform. (A function, not a variable
// holding runOrderGo: a call through a variable lets the slices escape,
// and callers pass arrays on their stacks.)
func runOrder(worldPos []mgl32.Vec3, worldRot []mgl32.Quat, worldScale []mgl32.Vec3,
	parents []int32, localPos []mgl32.Vec3, localRot []mgl32.Quat, localScale []mgl32.Vec3,
	rootPos mgl32.Vec3, rootRot mgl32.Quat, rootScale mgl32.Vec3, order []int32) {
	runOrderGo(worldPos, worldRot, worldScale, parents, localPos, localRot, localScale,
		rootPos, rootRot, rootScale, order)
}
