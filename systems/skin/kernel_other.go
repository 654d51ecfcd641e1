//go:build !amd64 || purego

package skin

import "github.com/go-gl/mathgl/mgl32"

// matrices is the Go kernel on this platform.
func matrices(dst []mgl32.Mat4, pos []mgl32.Vec3, rot []mgl32.Quat, scale []mgl32.Vec3, joints []int32, inv []mgl32.Mat4) int {
	return matricesGo(dst, pos, rot, scale, joints, inv)
}
