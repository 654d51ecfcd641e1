package anim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Clips that animate different bones: a bone no clip animates is the rest
// pose exactly, a bone one clip leaves to rest blends that clip's rest
// with the other's keys, as Sample and BlendPoses give.
func TestEvaluatePartialTracks(t *testing.T) {
	const bones = 4
	turn := func(deg float64, axis mgl32.Vec3) []mgl32.Quat {
		q := mgl32.QuatRotate(float32(deg*math.Pi/180), axis)
		return []mgl32.Quat{q, q}
	}
	a := mustClip(t, ClipDesc{SampleRate: 30, KeyCount: 2, Loop: true, BoneCount: bones, Tracks: []TrackDesc{
		{Bone: 1, Rotations: turn(80, mgl32.Vec3{0, 1, 0}), Translations: []mgl32.Vec3{{1, 0, 0}, {1, 0, 0}}},
	}})
	b := mustClip(t, ClipDesc{SampleRate: 30, KeyCount: 2, Loop: true, BoneCount: bones, Tracks: []TrackDesc{
		{Bone: 2, Rotations: turn(-60, mgl32.Vec3{1, 0, 0}), Scales: []mgl32.Vec3{{2, 2, 2}, {2, 2, 2}}},
		{Bone: 3, Rotations: turn(30, mgl32.Vec3{0, 0, 1})},
	}})
	s, err := NewBlendSpace(BlendSpaceDesc{Kind: Kind1D, Clips: []*Clip{a, b}, Thresholds: []float32{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	rest := restPose(bones)
	for _, x := range []float32{0.3, 0.5, 0.9} {
		dst := MakePose(bones)
		if !s.Evaluate(dst, new(Scratch), Input{Param: mgl32.Vec2{x, 0}, Times: []float32{0, 0}}, rest) {
			t.Fatal("Evaluate returned false")
		}
		pa, pb, want := MakePose(bones), MakePose(bones), MakePose(bones)
		a.Sample(pa, rest, 0)
		b.Sample(pb, rest, 0)
		BlendPoses(want, []Pose{pa, pb}, []float32{1 - x, x}, rest)
		if dst.Rot[0] != rest.Rot[0] || dst.Pos[0] != rest.Pos[0] || dst.Scale[0] != rest.Scale[0] {
			t.Fatalf("x=%v: bone 0, animated by no clip, is not the rest pose exactly", x)
		}
		for bone := 1; bone < bones; bone++ {
			if !quatNear(dst.Rot[bone], want.Rot[bone], 1e-6) || !vecNear(dst.Pos[bone], want.Pos[bone], 1e-6) ||
				!vecNear(dst.Scale[bone], want.Scale[bone], 1e-6) {
				t.Fatalf("x=%v bone %d: %v %v %v, want %v %v %v", x, bone, dst.Rot[bone], dst.Pos[bone], dst.Scale[bone],
					want.Rot[bone], want.Pos[bone], want.Scale[bone])
			}
		}
		// Bone 1's translation is the weighted mix of clip a's (1,0,0) and
		// the rest pose's (0,0.2,0): not the rest pose.
		if wantPos := (mgl32.Vec3{1 - x, 0.2 * x, 0}); !vecNear(dst.Pos[1], wantPos, 1e-6) {
			t.Fatalf("x=%v: bone 1 at %v, want %v", x, dst.Pos[1], wantPos)
		}
	}
	// Direct weights short of one: the live bones take the rest pose's
	// remainder, the others stay at rest.
	d, err := NewBlendSpace(BlendSpaceDesc{Kind: KindDirect, Clips: []*Clip{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	dst := MakePose(bones)
	d.Evaluate(dst, new(Scratch), Input{Direct: []float32{0.25, 0}, Times: []float32{0, 0}}, rest)
	if want := (mgl32.Vec3{0.25, 0.15, 0}); !vecNear(dst.Pos[1], want, 1e-6) || dst.Pos[0] != rest.Pos[0] {
		t.Fatalf("remainder: bone 1 at %v, want %v", dst.Pos[1], want)
	}
}
