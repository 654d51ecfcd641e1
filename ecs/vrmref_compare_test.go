package sway_test

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// swayPoints are the points tailPoints names, read from sway's pose: a
// virtual tail through the bone's world transform from sway.
func swayPoints(ref *vrmRef, skel *sway.Skeleton, pose sway.PoseView) []v3d {
	var pts []v3d
	for _, n := range ref.names {
		p := pose.WorldPos[skel.Index(n)]
		pts = append(pts, v3d{float64(p[0]), float64(p[1]), float64(p[2])})
	}
	for _, s := range ref.springs {
		j := s.joints[len(s.joints)-1]
		if len(ref.childrenOf(j.bone)) == 0 {
			b := skel.Index(ref.names[j.bone])
			w := refOf(sway.Transform{Pos: pose.WorldPos[b], Rot: pose.WorldRot[b], Scale: pose.WorldScale[b]})
			pts = append(pts, w.point(j.tail))
		}
	}
	return pts
}

// corpusCompare steps sway and the reference frames frames along the walk
// and returns the largest distance between their points, where and when.
func corpusCompare(t *testing.T, r *sway.Rig, frames int) (ref *vrmRef, worst float64, at string, frame int, later, swing float64) {
	run := newCorpusRun(t, r, 1)
	ref, err := newVRMRef(r, corpusRoot(0))
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < frames; k++ {
		pose := run.step(t, k)
		ref.step(corpusRoot(k), float64(corpusDt))
		names, want := ref.tailPoints()
		got := swayPoints(ref, run.skel, pose)
		// How far the springs swing from the rest pose under this
		// frame's root: the comparison means little if nothing moves.
		rest := ref.compose(refOf(corpusRoot(k)), ref.rest)
		for i := range ref.names {
			swing = max(swing, rLen(rSub(want[i], rest[i].pos)))
		}
		for i := range want {
			d := rLen(rSub(got[i], want[i]))
			if d > worst || d != d {
				worst, at, frame = d, names[i], k
			}
			if k >= 30 {
				later = max(later, d)
			}
		}
	}
	return ref, worst, at, frame, later, swing
}

// sway and the float64 reference agree on every corpus file to 1e-4 m:
// every bone's world position and every 0.x virtual tail, every frame of
// the ten-second walk (with -short, the six seconds of walking). The walk
// puts the extensions to work: every extended collider (inside or plane)
// pushes some tail and every kind of joint limit a file has moves some
// tail, in the reference.
func TestVRMReferenceAgreesOnCorpus(t *testing.T) {
	frames := corpusFrames
	if testing.Short() {
		frames = int(corpusStop * 60) // the walk, to the stop
	}
	for _, c := range gltfrig.Corpus() {
		t.Run(c.Name, func(t *testing.T) {
			r := loadCorpusRig(t, c)
			ref, worst, at, frame, later, swing := corpusCompare(t, r, frames)
			t.Logf("largest deviation %.3g m (%s, frame %d), %.3g m from frame 30 on; the springs swing up to %.3g m from rest", worst, at, frame, later, swing)
			if swing < 0.02 {
				t.Errorf("the springs hardly swing (%.3g m): the comparison shows little", swing)
			}
			for i, col := range r.Colliders {
				if (col.Shape.Bound == collide.Inside || col.Shape.Kind == collide.Plane) && ref.hits[i] == 0 {
					t.Errorf("extended collider %d (%+v on %s) never pushes a tail: the comparison does not cover it", i, col.Shape, col.Bone)
				}
			}
			for _, s := range r.Springs {
				for _, j := range s.Joints {
					if k := j.Limit.Kind; k != spring.NoLimit && ref.limited[k] == 0 {
						t.Errorf("no %s limit ever moves a tail (spring %s): the comparison does not cover it", limitName(k), s.Name)
					}
				}
			}
			if !(worst <= 1e-4) {
				t.Errorf("sway and the reference differ by %.3g m at %s, frame %d", worst, at, frame)
			}
		})
	}
}

// sway steps the hand-worked rig to the hand-worked numbers (see
// TestVRMRefHandWorked): the tail after one and two steps of gravity, and
// the first step's tail pushed out of a sphere.
func TestVRMHandWorkedInSway(t *testing.T) {
	for _, c := range []struct {
		collider bool
		want     []v3d
	}{
		{false, []v3d{{0.09863939238, 0.98356010127, 0}, {0.09213640792, 0.96112993008, 0}}},
		{true, []v3d{{0.09948401711, 0.98985454090, 0}}},
	} {
		r := handRig()
		if c.collider {
			r.Colliders = []sway.RigCollider{{Bone: "base", Shape: collide.NewSphere(mgl32.Vec3{0.1, 0.95, 0}, 0.03)}}
			r.Springs[0].Colliders = []int{0}
			r.Springs[0].Joints[0].HitRadius = 0.01
		}
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		e, err := w.AddRig(r, sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		skel, _ := w.Skeleton(e)
		for k, want := range c.want {
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
			p, _ := w.BoneWorld(e, skel.Index("j1"))
			wantNear(t, fmt.Sprintf("collider %v, step %d", c.collider, k+1), v3d{float64(p.Pos[0]), float64(p.Pos[1]), float64(p.Pos[2])}, want, 1e-6)
		}
		w.Close()
	}
}

// sway steps the hand-worked limits and extended colliders of
// TestVRMRefExtensionsHandWorked to the same first tail.
func TestVRMExtensionsHandWorkedInSway(t *testing.T) {
	for _, c := range append(handLimitCases(), handColliderCases()...) {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		e, err := w.AddRig(c.rig(), sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		skel, _ := w.Skeleton(e)
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		p, _ := w.BoneWorld(e, skel.Index("j1"))
		wantNear(t, c.name, v3d{float64(p.Pos[0]), float64(p.Pos[1]), float64(p.Pos[2])}, c.want, 1e-6)
		w.Close()
	}
}
