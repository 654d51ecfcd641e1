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
		worldRot[i] = mgl32.Quat{
			W: qw*rw - qx*rx - qy*ry - qz*rz,
			V: mgl32.Vec3{
				qw*rx + qx*rw + qy*rz - qz*ry,
				qw*ry + qy*rw + qz*rx - qx*rz,
				qw*rz + qz*rw + qx*ry - qy*rx,
			},
		}
		// Scaled local offset, rotated by the parent (t = 2 v×x form).
		sx, sy, sz := ps[0], ps[1], ps[2]
		lp, ls := &localPos[i], &localScale[i]
		x, y, z := sx*lp[0], sy*lp[1], sz*lp[2]
		worldScale[i] = mgl32.Vec3{sx * ls[0], sy * ls[1], sz * ls[2]}
		tx := 2 * (qy*z - qz*y)
		ty := 2 * (qz*x - qx*z)
		tz := 2 * (qx*y - qy*x)
		worldPos[i] = mgl32.Vec3{
			pp[0] + x + qw*tx + (qy*tz - qz*ty),
			pp[1] + y + qw*ty + (qz*tx - qx*tz),
			pp[2] + z + qw*tz + (qx*ty - qy*tx),
		}
	}
}
