package ik

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// bounded reports whether every value is finite and within ±1e6, where
// the solver's squared lengths stay finite.
func bounded(vs ...float32) bool {
	for _, v := range vs {
		if !mathx.IsFinite(v) || v > 1e6 || v < -1e6 {
			return false
		}
	}
	return true
}

// FuzzSolveTwoBone: settings that Validate accepts and finite joints,
// targets and hints (coincident, collinear, zero-length, unreachable,
// non-unit rotations) always give finite, unit rotations and finite
// positions.
func FuzzSolveTwoBone(f *testing.F) {
	f.Add(float32(0), float32(0), float32(1), float32(1), float32(1), // mid axis, soften, weight
		float32(0), float32(1), float32(0), float32(0), float32(0.5), float32(0.1), float32(0), float32(0), float32(0), // upper, middle, end
		float32(0.3), float32(0.2), float32(0.1), float32(0), float32(0), float32(1), // target, hint
		float32(1), float32(0), float32(0), float32(0), true, true)
	f.Add(float32(1), float32(0), float32(0), float32(0), float32(2),
		float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0),
		float32(5), float32(5), float32(5), float32(0), float32(0), float32(0),
		float32(0), float32(0), float32(0), float32(0), false, true)
	f.Fuzz(func(t *testing.T, mx, my, mz, soften, weight,
		ux, uy, uz, bx, by, bz, ex, ey, ez,
		tx, ty, tz, hx, hy, hz,
		qw, qx, qy, qz float32, useHint, useRot bool) {
		s := TwoBoneSettings{MidAxis: mgl32.Vec3{mx, my, mz}, Soften: soften, Weight: weight}
		if s.Validate() != nil {
			return
		}
		if !bounded(ux, uy, uz, bx, by, bz, ex, ey, ez, tx, ty, tz, hx, hy, hz, qw, qx, qy, qz) {
			return
		}
		q := mgl32.Quat{W: qw, V: mgl32.Vec3{qx, qy, qz}}
		in := TwoBoneInput{
			UpperPos: mgl32.Vec3{ux, uy, uz}, MiddlePos: mgl32.Vec3{bx, by, bz}, EndPos: mgl32.Vec3{ex, ey, ez},
			UpperRot: q, MiddleRot: mgl32.QuatIdent(), EndRot: q,
			Target: mgl32.Vec3{tx, ty, tz}, TargetRot: q, UseTargetRot: useRot,
			Hint: mgl32.Vec3{hx, hy, hz}, UseHint: useHint,
		}
		var out TwoBoneResult
		SolveTwoBone(&out, &s, &in)
		for _, r := range []mgl32.Quat{out.UpperRot, out.MiddleRot, out.EndRot} {
			if !mathx.QuatFinite(r) {
				t.Fatalf("non-finite rotation %v for %+v %+v", r, s, in)
			}
			if l := r.Len(); l < 0.999 || l > 1.001 {
				t.Fatalf("rotation %v of length %v for %+v %+v", r, l, s, in)
			}
		}
		if !mathx.Vec3Finite(out.MiddlePos) || !mathx.Vec3Finite(out.EndPos) {
			t.Fatalf("non-finite positions %v %v for %+v %+v", out.MiddlePos, out.EndPos, s, in)
		}
		if l := LocalRotation(q, out.UpperRot); !mathx.QuatFinite(l) {
			t.Fatalf("LocalRotation(%v, %v) = %v", q, out.UpperRot, l)
		}
	})
}
