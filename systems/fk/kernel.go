package fk

import "github.com/go-gl/mathgl/mgl32"

// runOrderGo is RunOrder in Go: the kernel where there is no assembly
// one, and the definition the assembly one follows operation for
// operation (TestKernelsMatchReferenceBitForBit).
func runOrderGo(worldPos []mgl32.Vec3, worldRot []mgl32.Quat, worldScale []mgl32.Vec3,
	parents []int32, localPos []mgl32.Vec3, localRot []mgl32.Quat, localScale []mgl32.Vec3,
	rootPos mgl32.Vec3, rootRot mgl32.Quat, rootScale mgl32.Vec3, order []int32) {
	n := len(parents)
	localPos, localRot, localScale = localPos[:n], localRot[:n], localScale[:n]
	worldPos, worldRot, worldScale = worldPos[:n], worldRot[:n], worldScale[:n]
	for _, i := range order {
		pp, pr, ps := &rootPos, &rootRot, &rootScale
		if p := parents[i]; p >= 0 {
			pp, pr, ps = &worldPos[p], &worldRot[p], &worldScale[p]
		}
		qw, qx, qy, qz := pr.W, pr.V[0], pr.V[1], pr.V[2]
		lr := &localRot[i]
		rw, rx, ry, rz := lr.W, lr.V[0], lr.V[1], lr.V[2]
		// Each product is converted to float32 before it is summed, so that
		// Go does not fuse the two (GOAMD64=v3, arm64): the SIMD kernel
		// rounds every product, and the results are the same bits in every
		// build.
		worldRot[i] = mgl32.Quat{
			W: float32(qw*rw) - float32(qx*rx) - float32(qy*ry) - float32(qz*rz),
			V: mgl32.Vec3{
				float32(qw*rx) + float32(qx*rw) + float32(qy*rz) - float32(qz*ry),
				float32(qw*ry) + float32(qy*rw) + float32(qz*rx) - float32(qx*rz),
				float32(qw*rz) + float32(qz*rw) + float32(qx*ry) - float32(qy*rx),
			},
		}
		// Scaled local offset, rotated by the parent (t = 2 v×x form).
		sx, sy, sz := ps[0], ps[1], ps[2]
		lp, ls := &localPos[i], &localScale[i]
		x, y, z := float32(sx*lp[0]), float32(sy*lp[1]), float32(sz*lp[2])
		worldScale[i] = mgl32.Vec3{sx * ls[0], sy * ls[1], sz * ls[2]}
		tx := 2 * (float32(qy*z) - float32(qz*y))
		ty := 2 * (float32(qz*x) - float32(qx*z))
		tz := 2 * (float32(qx*y) - float32(qy*x))
		worldPos[i] = mgl32.Vec3{
			pp[0] + x + float32(qw*tx) + (float32(qy*tz) - float32(qz*ty)),
			pp[1] + y + float32(qw*ty) + (float32(qz*tx) - float32(qx*tz)),
			pp[2] + z + float32(qw*tz) + (float32(qx*ty) - float32(qy*tx)),
		}
	}
}
