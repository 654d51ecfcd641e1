package lookat

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// bounded reports whether every value is finite and within ±1e6.
func bounded(vs ...float32) bool {
	for _, v := range vs {
		if !mathx.IsFinite(v) || v > 1e6 || v < -1e6 {
			return false
		}
	}
	return true
}

// FuzzHeadAndEye: any head and eye settings are either rejected by
// NewHead/NewEye with an error or, stepped with finite inputs (targets on
// the head, behind it, far away; non-unit and zero rotations; any dt),
// give finite unit rotations and a finite weight.
func FuzzHeadAndEye(f *testing.F) {
	f.Add(float32(0), float32(0), float32(1), float32(0), float32(1), float32(0), float32(60), float32(8), float32(4),
		float32(-30), float32(30), float32(20),
		float32(0), float32(1.6), float32(0), float32(1), float32(1.6), float32(-2),
		float32(1), float32(0), float32(0), float32(0), float32(1), float32(1.0/60))
	f.Add(float32(1), float32(0), float32(0), float32(1), float32(1e-20), float32(0), float32(0), float32(0), float32(0),
		float32(40), float32(-40), float32(0),
		float32(0), float32(0), float32(0), float32(0), float32(0), float32(0),
		float32(0), float32(0), float32(0), float32(0), float32(-1), float32(0))
	f.Fuzz(func(t *testing.T, fx, fy, fz, ux, uy, uz, maxTurn, speed, weightSpeed,
		minYaw, maxYaw, eyeSpeed,
		hx, hy, hz, tx, ty, tz,
		qw, qx, qy, qz, weight, dt float32) {
		hs := HeadSettings{Forward: mgl32.Vec3{fx, fy, fz}, Up: mgl32.Vec3{ux, uy, uz}, MaxTurnDegrees: maxTurn, Speed: speed, WeightSpeed: weightSpeed}
		// The pitch limits are the yaw limits halved (-90..90 when valid).
		es := EyeSettings{Forward: hs.Forward, Up: hs.Up, MinYawDegrees: minYaw, MaxYawDegrees: maxYaw,
			MinPitchDegrees: minYaw / 2, MaxPitchDegrees: maxYaw / 2, Speed: eyeSpeed}
		head, herr := NewHead(hs)
		eye, eerr := NewEye(es)
		if !bounded(hx, hy, hz, tx, ty, tz, qw, qx, qy, qz, weight) || !mathx.IsFinite(dt) {
			return
		}
		q := mgl32.Quat{W: qw, V: mgl32.Vec3{qx, qy, qz}}
		if herr == nil {
			st := NewHeadState(q)
			in := HeadInput{ParentWorldRot: q, RestLocalRot: q, HeadPos: mgl32.Vec3{hx, hy, hz}, TargetPos: mgl32.Vec3{tx, ty, tz}, Weight: weight}
			var out HeadPose
			for i := 0; i < 3; i++ {
				head.Step(&out, &st, &in, dt)
				if !unitFinite(out.Local) || !unitFinite(out.World) || !unitFinite(st.Rotation) || !mathx.IsFinite(st.Weight) {
					t.Fatalf("head step %d: %+v state %+v for %+v %+v dt %v", i, out, st, hs, in, dt)
				}
			}
		}
		if eerr == nil {
			var st EyeState
			in := EyeInput{ParentWorldRot: q, RestLocalRot: q, Origin: mgl32.Vec3{hx, hy, hz}, TargetPos: mgl32.Vec3{tx, ty, tz}, Weight: weight}
			var out mgl32.Quat
			for i := 0; i < 3; i++ {
				eye.Step(&out, &st, &in, dt)
				if !unitFinite(out) || !mathx.IsFinite(st.Yaw) || !mathx.IsFinite(st.Pitch) {
					t.Fatalf("eye step %d: %v state %+v for %+v %+v dt %v", i, out, st, es, in, dt)
				}
			}
		}
	})
}

func unitFinite(q mgl32.Quat) bool {
	l := q.Len()
	return mathx.QuatFinite(q) && l > 0.999 && l < 1.001
}
