//go:build amd64 && !purego

package fk

import "github.com/go-gl/mathgl/mgl32"

// rootTransform is the root's transform laid out for runOrderSSE: pos at
// byte 0, rot at 12, scale at 28.
type rootTransform struct {
	pos   mgl32.Vec3
	rot   mgl32.Quat
	scale mgl32.Vec3
}

// runOrderSSE computes the bones order[0:m] of a skeleton of n bones with
// SSE, one bone's x, y, z (and w) per vector (kernel_amd64.s), in the Go
// kernel's sequence of operations, so bit for bit alike. It returns -1,
// or the position in order of the first bone out of [0, n) or whose
// parent is not stored before it (which a validated skeleton never has),
// leaving that bone and those after it to compute.
//
//go:noescape
func runOrderSSE(worldPos *mgl32.Vec3, worldRot *mgl32.Quat, worldScale *mgl32.Vec3, parents *int32,
	localPos *mgl32.Vec3, localRot *mgl32.Quat, localScale *mgl32.Vec3, root *rootTransform,
	order *int32, m, n int) int

// runOrder checks the lengths as the Go kernel does and runs the SSE
// kernel; a bad index, or a parent stored after its bone, is left to the
// Go kernel (which panics on a bad index, as before).
func runOrder(worldPos []mgl32.Vec3, worldRot []mgl32.Quat, worldScale []mgl32.Vec3,
	parents []int32, localPos []mgl32.Vec3, localRot []mgl32.Quat, localScale []mgl32.Vec3,
	rootPos mgl32.Vec3, rootRot mgl32.Quat, rootScale mgl32.Vec3, order []int32) {
	n := len(parents)
	localPos, localRot, localScale = localPos[:n], localRot[:n], localScale[:n]
	worldPos, worldRot, worldScale = worldPos[:n], worldRot[:n], worldScale[:n]
	if len(order) == 0 {
		return
	}
	if n == 0 {
		runOrderGo(worldPos, worldRot, worldScale, parents, localPos, localRot, localScale,
			rootPos, rootRot, rootScale, order)
		return
	}
	root := rootTransform{rootPos, rootRot, rootScale}
	k := runOrderSSE(&worldPos[0], &worldRot[0], &worldScale[0], &parents[0],
		&localPos[0], &localRot[0], &localScale[0], &root, &order[0], len(order), n)
	if k >= 0 {
		runOrderGo(worldPos, worldRot, worldScale, parents, localPos, localRot, localScale,
			rootPos, rootRot, rootScale, order[k:])
	}
}
