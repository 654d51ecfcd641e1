package anim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// walkTurnClip is a one-second loop on a two-bone skeleton (hips, spine)
// whose hips walk 1.2 m along model +Z and turn 90 degrees about +Y,
// both linearly in time, while they bob 5 cm and roll 5 degrees:
// translation (0, 1 + 0.05 sin 2πt, 1.2t), rotation yaw(90°t)·roll(5° sin 2πt).
// 121 keys, so the yaw is linear to 1e-7 between keys.
func walkTurnClip(t *testing.T, metres, degrees float32, keys int, seconds float32) *Clip {
	t.Helper()
	rot := make([]mgl32.Quat, keys)
	pos := make([]mgl32.Vec3, keys)
	for k := range keys {
		u := float64(k) / float64(keys-1)
		s := float32(math.Sin(2 * math.Pi * u))
		rot[k] = mgl32.QuatRotate(mgl32.DegToRad(degrees*float32(u)), mgl32.Vec3{0, 1, 0}).
			Mul(mgl32.QuatRotate(mgl32.DegToRad(5*s), mgl32.Vec3{0, 0, 1}))
		pos[k] = mgl32.Vec3{0, 1 + 0.05*s, metres * float32(u)}
	}
	c, err := NewClip(ClipDesc{Name: "walkturn", SampleRate: float32(keys-1) / seconds, KeyCount: keys, Loop: true, BoneCount: 2,
		Tracks: []TrackDesc{{Bone: 0, Rotations: rot, Translations: pos}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func hipsRest() Pose {
	rest := MakePose(2)
	rest.Pos[0] = mgl32.Vec3{0, 1, 0}
	rest.Pos[1] = mgl32.Vec3{0, 0.2, 0}
	return rest
}

// rootPlayer plays space in place from bone 0 of the hips skeleton.
type rootPlayer struct {
	space *BlendSpace
	dst   Pose
	rest  Pose
	p     Player
	r     RootMotion
	// the character's root, moved by each delta: root ∘ delta
	pos mgl32.Vec3
	rot mgl32.Quat
}

func newRootPlayer(t *testing.T, clips ...*Clip) *rootPlayer {
	t.Helper()
	th := make([]float32, len(clips))
	for i := range th {
		th[i] = float32(i)
	}
	s, err := NewBlendSpace(BlendSpaceDesc{Kind: Kind1D, Clips: clips, Thresholds: th})
	if err != nil {
		t.Fatal(err)
	}
	return &rootPlayer{space: s, dst: MakePose(2), rest: hipsRest(), p: Player{Speed: 1},
		r: RootMotion{Mode: RootInPlace, Bone: int32(s.RootBone())}, rot: mgl32.QuatIdent()}
}

func (rp *rootPlayer) step(t *testing.T, dt float32) RootDelta {
	t.Helper()
	from := rp.p.Phase
	if !rp.space.Play(rp.dst, &rp.p, dt, rp.rest) {
		t.Fatal("Play failed")
	}
	if !rp.space.InPlace(rp.dst, &rp.p, &rp.r, from, dt, rp.rest, IdentityFrame(), mgl32.QuatIdent()) {
		t.Fatal("InPlace failed")
	}
	d := rp.r.Delta
	rp.pos = rp.pos.Add(rp.rot.Rotate(d.Pos))
	rp.rot = rp.rot.Mul(yawQuat(float64(d.Yaw))).Normalize()
	return d
}

// heading returns the root's yaw in degrees.
func heading(q mgl32.Quat) float64 {
	return yawOf(q, mgl32.QuatIdent()) * 180 / math.Pi
}

func near64(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func checkDelta(t *testing.T, what string, d RootDelta, x, z, yawDeg float64) {
	t.Helper()
	if !near64(float64(d.Pos[0]), x, 2e-5) || d.Pos[1] != 0 || !near64(float64(d.Pos[2]), z, 2e-5) ||
		!near64(float64(mgl32.RadToDeg(d.Yaw)), yawDeg, 1e-3) {
		t.Errorf("%s: delta %v, yaw %.5f°; want (%.6f, 0, %.6f), %.5f°", what, d.Pos, mgl32.RadToDeg(d.Yaw), x, z, yawDeg)
	}
}

// In place, the hips stay over the root, facing where the cycle starts,
// at the height and with the roll the clip gives them.
func TestInPlaceHoldsTheRootBone(t *testing.T) {
	rp := newRootPlayer(t, walkTurnClip(t, 1.2, 90, 121, 1))
	for f := 1; f <= 90; f++ {
		rp.step(t, 1.0/60)
		u := float64(rp.p.Phase)
		s := math.Sin(2 * math.Pi * u)
		pos, rot := rp.dst.Pos[0], rp.dst.Rot[0]
		roll := mgl32.QuatRotate(mgl32.DegToRad(float32(5*s)), mgl32.Vec3{0, 0, 1})
		if !near64(float64(pos[0]), 0, 1e-6) || !near64(float64(pos[2]), 0, 1e-6) || !near64(float64(pos[1]), 1+0.05*s, 1e-5) ||
			!near64(math.Abs(float64(rot.Dot(roll))), 1, 1e-6) {
			t.Fatalf("frame %d (phase %.4f): hips at %v rot %v; want (0, %.5f, 0) and the roll alone %v", f, u, pos, rot, 1+0.05*s, roll)
		}
	}
}

// The deltas of one cycle move the root by the cycle's motion at any frame
// rate: 1.2 m forward and a quarter turn; two cycles continue along the
// turned heading, to (1.2, 0, 1.2) facing 180 degrees.
func TestRootDeltaOverCyclesAnyFrameRate(t *testing.T) {
	for _, hz := range []int{30, 60, 144} {
		rp := newRootPlayer(t, walkTurnClip(t, 1.2, 90, 121, 1))
		dt := 1 / float32(hz)
		if d := rp.step(t, 0); d != (RootDelta{}) || !rp.r.Started {
			t.Fatalf("%d Hz: the first frame gave %v, started %v", hz, d, rp.r.Started)
		}
		for f := 1; f <= hz; f++ {
			d := rp.step(t, dt)
			if hz == 60 && f == 31 { // phase 0.5 to 0.5+1/60: 1.5° and 2 cm along the heading 45° ago
				checkDelta(t, "60 Hz, phase 0.5", d, -0.02*math.Sin(math.Pi/4), 0.02*math.Cos(math.Pi/4), 1.5)
			}
		}
		if p := rp.pos; !near64(float64(p[0]), 0, 1e-4) || p[1] != 0 || !near64(float64(p[2]), 1.2, 1e-4) || !near64(heading(rp.rot), 90, 1e-2) {
			t.Errorf("%d Hz, one cycle: root at %v heading %.4f°; want (0, 0, 1.2) at 90°", hz, p, heading(rp.rot))
		}
		for range hz {
			rp.step(t, dt)
		}
		if p := rp.pos; !near64(float64(p[0]), 1.2, 2e-4) || !near64(float64(p[2]), 1.2, 2e-4) || !near64(math.Abs(heading(rp.rot)), 180, 2e-2) {
			t.Errorf("%d Hz, two cycles: root at %v heading %.4f°; want (1.2, 0, 1.2) at 180°", hz, p, heading(rp.rot))
		}
	}
}

// Over a wrap the delta is (end - previous) + (current - start), not the
// jump back: from phase 0.9 to 0.1 the hips go 0.12 m along +Z heading
// 81°..90°, then 0.12 m along the new cycle's +Z, which is the old +X:
// in the frame of heading 81°, R(-81°)·(0.12, 0.12), and 18°. Played
// backwards from 0.1 to 0.9 it is exactly that motion undone.
func TestRootDeltaAcrossTheWrap(t *testing.T) {
	c81, s81 := math.Cos(81*math.Pi/180), math.Sin(81*math.Pi/180)
	wantX, wantZ := c81*0.12-s81*0.12, s81*0.12+c81*0.12 // R(-81°)·(0.12, 0.12) = (-0.0997505, 0.1372947)
	if !near64(wantX, -0.0997505, 1e-7) || !near64(wantZ, 0.1372947, 1e-7) {
		t.Fatalf("hand numbers (%.7f, %.7f)", wantX, wantZ)
	}
	rp := newRootPlayer(t, walkTurnClip(t, 1.2, 90, 121, 1))
	rp.p.Phase = 0.9
	rp.step(t, 0)
	checkDelta(t, "forward over the wrap", rp.step(t, 0.2), wantX, wantZ, 18)
	if !near64(float64(rp.p.Phase), 0.1, 1e-6) {
		t.Fatalf("phase %v, want 0.1", rp.p.Phase)
	}
	// Backwards: the inverse, R(18°)·-(wantX, wantZ) turned back by -18°.
	rp.p.Speed = -1
	inv := rigid2{18 * math.Pi / 180, wantX, wantZ}.inv() // (-18°, (0.137295, -0.099751))
	if !near64(inv.x, 0.137295, 1e-6) || !near64(inv.z, -0.099751, 1e-6) {
		t.Fatalf("hand numbers of the inverse (%.6f, %.6f)", inv.x, inv.z)
	}
	checkDelta(t, "backwards over the wrap", rp.step(t, 0.2), inv.x, inv.z, -18)
	// Three cycles and a fifth in one frame: the whole cycle three times.
	rp.p.Speed, rp.p.Phase = 1, 0
	rp.step(t, 0)
	rp.pos, rp.rot = mgl32.Vec3{}, mgl32.QuatIdent()
	rp.step(t, 3.2)
	// Three quarter turns along 1.2 m each: (0,0,1.2) → (1.2,0,1.2) → (1.2,0,0);
	// then 0.2 of a cycle (0.24 m along +Z turned 270°, i.e. -X) and 18° more.
	if p := rp.pos; !near64(float64(p[0]), 1.2-0.24, 1e-4) || !near64(float64(p[2]), 0, 1e-4) || !near64(heading(rp.rot), -72, 1e-2) {
		t.Errorf("3.2 cycles in one frame: root at %v heading %.3f°; want (0.96, 0, 0) at -72°", p, heading(rp.rot))
	}
}

// No time, no motion: a paused frame reports no delta and the pose stays
// in place; the first frame after a restart reports its motion as any
// frame does (9 degrees in 0.1 s of a 90-degree-a-second clip).
func TestRootDeltaPausedAndRestarted(t *testing.T) {
	rp := newRootPlayer(t, walkTurnClip(t, 1.2, 90, 121, 1))
	rp.step(t, 0)
	rp.step(t, 0.1)
	if d := rp.step(t, 0); d != (RootDelta{}) {
		t.Errorf("paused: %v", d)
	}
	rp.r.Restart()
	if d := rp.step(t, 0.1); !near64(float64(mgl32.RadToDeg(d.Yaw)), 9, 1e-3) {
		t.Errorf("first frame after a restart: yaw %v°, want 9°", mgl32.RadToDeg(d.Yaw))
	}
	if d := rp.step(t, 0.1); !near64(float64(mgl32.RadToDeg(d.Yaw)), 9, 1e-3) {
		t.Errorf("the frame after: yaw %v°, want 9°", mgl32.RadToDeg(d.Yaw))
	}
}

// A blend moves the root by its clips' motions weighted: a 1 s walk of
// 1.2 m and a 0.5 s run of 2 m at 50/50 cycle in 0.75 s and cover 1.6 m
// in a cycle (2.133 m/s). Changing the weights alone moves nothing.
func TestRootDeltaOfABlend(t *testing.T) {
	walk := walkTurnClip(t, 1.2, 0, 121, 1)
	run := walkTurnClip(t, 2, 0, 61, 0.5)
	rp := newRootPlayer(t, walk, run)
	rp.p.Param = mgl32.Vec2{0.5, 0}
	rp.p.Target = rp.p.Param
	rp.step(t, 0)
	for range 45 {
		rp.step(t, 1.0/60)
	}
	if p := rp.pos; !near64(float64(p[2]), 1.6, 1e-4) || !near64(float64(p[0]), 0, 1e-6) || !near64(float64(rp.p.Phase), 0, 1e-5) && !near64(float64(rp.p.Phase), 1, 1e-5) {
		t.Errorf("50/50 walk and run over 45 frames: root at %v, phase %v; want (0, 0, 1.6) and a whole cycle", p, rp.p.Phase)
	}
	// Speed 0: the weights swing from walk to run and back, nothing moves.
	rp.p.Speed = 0
	for f := range 30 {
		rp.p.Target = mgl32.Vec2{float32(f%2) * 1, 0}
		if d := rp.step(t, 1.0/60); d != (RootDelta{}) {
			t.Fatalf("frame %d: weights alone moved the root by %v", f, d)
		}
	}
}

// A root bone under a rotated and scaled parent (an exporter's Z-up
// armature at 1/100 scale) gives the motion in model space: the same
// deltas as the clip authored in model space.
func TestRootDeltaUnderATransformedParent(t *testing.T) {
	plain := walkTurnClip(t, 1.2, 90, 121, 1)
	zUp := mgl32.QuatRotate(-math.Pi/2, mgl32.Vec3{1, 0, 0}) // armature: its +Z is model +Y
	toArm := zUp.Conjugate()
	rot := make([]mgl32.Quat, plain.keys)
	pos := make([]mgl32.Vec3, plain.keys)
	for k := range rot {
		rot[k] = toArm.Mul(plain.rot[k])
		pos[k] = toArm.Rotate(plain.pos[k]).Mul(100)
	}
	arm, err := NewClip(ClipDesc{Name: "armature", SampleRate: 120, KeyCount: plain.keys, Loop: true, BoneCount: 2,
		Tracks: []TrackDesc{{Bone: 1, Rotations: rot, Translations: pos}}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewBlendSpace(BlendSpaceDesc{Kind: Kind1D, Clips: []*Clip{arm}, Thresholds: []float32{0}})
	if err != nil {
		t.Fatal(err)
	}
	if s.RootBone() != 1 {
		t.Fatalf("RootBone() = %d, want the hips (1)", s.RootBone())
	}
	rest := MakePose(2)
	rest.Rot[0], rest.Scale[0] = zUp, mgl32.Vec3{0.01, 0.01, 0.01}
	rest.Pos[1], rest.Rot[1] = mgl32.Vec3{0, 0, 100}, toArm // upright in model space
	parents := []int32{-1, 0}
	dst := MakePose(2)
	ref := newRootPlayer(t, plain)
	p := Player{Speed: 1}
	r := RootMotion{Mode: RootInPlace, Bone: 1}
	restRot := zUp.Mul(rest.Rot[1])
	for f := range 40 {
		dt := float32(1.0 / 30)
		if f == 0 {
			dt = 0
		}
		want := ref.step(t, dt)
		from := p.Phase
		s.Play(dst, &p, dt, rest)
		s.InPlace(dst, &p, &r, from, dt, rest, ParentFrame(dst, parents, 1), restRot)
		if !near64(float64(r.Delta.Pos[0]), float64(want.Pos[0]), 1e-5) || !near64(float64(r.Delta.Pos[2]), float64(want.Pos[2]), 1e-5) ||
			!near64(float64(r.Delta.Yaw), float64(want.Yaw), 1e-5) {
			t.Fatalf("frame %d: delta %v under the armature, %v in model space", f, r.Delta, want)
		}
		model := ParentFrame(dst, parents, 1)
		hips := model.Pos.Add(model.Rot.Rotate(mgl32.Vec3{0.01 * dst.Pos[1][0], 0.01 * dst.Pos[1][1], 0.01 * dst.Pos[1][2]}))
		if !near64(float64(hips[0]), 0, 1e-5) || !near64(float64(hips[2]), 0, 1e-5) || !near64(float64(hips[1]), float64(ref.dst.Pos[0][1]), 1e-5) {
			t.Fatalf("frame %d: hips at %v in model space, want (0, %v, 0)", f, hips, ref.dst.Pos[0][1])
		}
	}
}

func TestRootMotionZeroAllocs(t *testing.T) {
	rp := newRootPlayer(t, walkTurnClip(t, 1.2, 90, 121, 1), walkTurnClip(t, 2, 30, 61, 0.5))
	rp.p.Target = mgl32.Vec2{0.4, 0}
	rp.step(t, 0)
	parents := []int32{-1, 0}
	if n := testing.AllocsPerRun(100, func() {
		from := rp.p.Phase
		rp.space.Play(rp.dst, &rp.p, 0.3, rp.rest)
		rp.space.InPlace(rp.dst, &rp.p, &rp.r, from, 0.3, rp.rest, ParentFrame(rp.dst, parents, 1), mgl32.QuatIdent())
	}); n != 0 {
		t.Errorf("%v allocations per frame", n)
	}
}

// AsAuthored leaves the pose and the delta alone.
func TestAsAuthoredDoesNothing(t *testing.T) {
	rp := newRootPlayer(t, walkTurnClip(t, 1.2, 90, 121, 1))
	rp.r.Mode = RootAsAuthored
	rp.p.Phase = 0.3
	from := rp.p.Phase
	rp.space.Play(rp.dst, &rp.p, 0.1, rp.rest)
	before := rp.dst.Pos[0]
	if rp.space.InPlace(rp.dst, &rp.p, &rp.r, from, 0.1, rp.rest, IdentityFrame(), mgl32.QuatIdent()) || rp.dst.Pos[0] != before || rp.r != (RootMotion{Bone: rp.r.Bone}) {
		t.Fatal("InPlace acted on an AsAuthored character")
	}
}
