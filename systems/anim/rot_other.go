//go:build !amd64 || purego || amd64.v3

package anim

import "github.com/go-gl/mathgl/mgl32"

// useSIMDRot is false: accumulateRot runs the Go definitions alone.
const useSIMDRot = false

func addQuats(acc *mgl32.Quat, bones *int32, k0 *mgl32.Quat, n int, w float32)        {}
func nlerpAdd(acc *mgl32.Quat, bones *int32, k0, k1 *mgl32.Quat, n int, a, w float32) {}
