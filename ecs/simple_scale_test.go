package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// earringCharacter returns a world with one character at root whose hips
// have the local scale k and every translation below them divided by k,
// so that its world pose is the same for any k; the earring's simple
// spring is 3 cm long in the world whatever k is.
func earringCharacter(t *testing.T, k float32, root sway.Transform, s sway.SimpleSpringSettings) (*sway.World, arche.Entity, *sway.Skeleton) {
	t.Helper()
	hips := sway.Bone("hips", "", mgl32.Vec3{0, 1, 0})
	hips.Scale = mgl32.Vec3{k, k, k}
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "twin", Bones: []sway.BoneDesc{
		hips,
		sway.Bone("head", "hips", mgl32.Vec3{0, 0.6 / k, 0}),
		sway.Bone("earring", "head", mgl32.Vec3{0.075 / k, -0.05 / k, 0}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	e, err := w.AddCharacter(skel, root)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.SimpleSprings().Add(e, []sway.SimpleSpringSpec{{Bones: []string{"earring"},
		SpringEnd: mgl32.Vec3{0, -0.03 / k, 0}, Settings: s}})
	if err != nil {
		t.Fatal(err)
	}
	return w, e, skel
}

// wanderRoot is a root that walks, weaves and turns: at most 2.3 m/s and
// 2.4 rad/s, scaled by k.
func wanderRoot(f int, k float32) sway.Transform {
	x := float64(f) / 60
	r := sway.Identity()
	r.Pos = mgl32.Vec3{float32(0.5 * math.Sin(2*x)), float32(0.05 * math.Sin(9*x)), float32(1.2*x + 0.3*math.Sin(3*x))}.Mul(k)
	r.Rot = mgl32.QuatRotate(float32(0.8*math.Sin(1.3*x)+0.4*math.Sin(3.1*x)), mgl32.Vec3{0, 1, 0})
	r.Scale = mgl32.Vec3{k, k, k}
	return r
}

// earringTip returns the world position of the earring's spring end
// (local end given in its bone's space).
func earringTip(t *testing.T, w *sway.World, e arche.Entity, skel *sway.Skeleton, end mgl32.Vec3) mgl32.Vec3 {
	t.Helper()
	b, err := w.BoneWorld(e, skel.Index("earring"))
	if err != nil {
		t.Fatal(err)
	}
	return b.Pos.Add(b.Rot.Rotate(mgl32.Vec3{b.Scale[0] * end[0], b.Scale[1] * end[1], b.Scale[2] * end[2]}))
}

// earringRest returns where the animation (the rest pose under the head)
// puts the earring's tip: 3 cm below the earring bone.
func earringRest(t *testing.T, w *sway.World, e arche.Entity, skel *sway.Skeleton) mgl32.Vec3 {
	t.Helper()
	head, err := w.BoneWorld(e, skel.Index("head"))
	if err != nil {
		t.Fatal(err)
	}
	return head.Pos.Add(head.Rot.Rotate(mgl32.Vec3{0.075, -0.08, 0}))
}

// stiffEarring is a spring whose stiffness matters: the tests of scale
// would pass whatever the stiffness term did without it.
var stiffEarring = sway.SimpleSpringSettings{Bounciness: 20, Stiffness: 9.8, Damping: 4}

// TestSimpleRestScaleIsTheAuthoringFrame: a skeleton authored at 0.01
// (centimetres under a scaled hips) and the same one authored in metres
// move alike: the scale a skeleton has at rest changes nothing.
func TestSimpleRestScaleIsTheAuthoringFrame(t *testing.T) {
	for _, s := range []sway.SimpleSpringSettings{sway.DefaultSimpleSpringSettings(), stiffEarring} {
		plain, pe, ps := earringCharacter(t, 1, wanderRoot(0, 1), s)
		cm, ce, cs := earringCharacter(t, 0.01, wanderRoot(0, 1), s)
		worst, swing := float32(0), float32(0)
		for f := 1; f <= 600; f++ {
			for _, c := range []struct {
				w *sway.World
				e arche.Entity
			}{{plain, pe}, {cm, ce}} {
				if err := c.w.SetRoot(c.e, wanderRoot(f, 1)); err != nil {
					t.Fatal(err)
				}
				if err := c.w.Step(1.0 / 60); err != nil {
					t.Fatal(err)
				}
			}
			a := earringTip(t, plain, pe, ps, mgl32.Vec3{0, -0.03, 0})
			b := earringTip(t, cm, ce, cs, mgl32.Vec3{0, -3, 0})
			worst = max(worst, a.Sub(b).Len())
			if worst > 1e-4 {
				t.Fatalf("%+v: frame %d: the centimetre skeleton's earring tip is %.3g m from the metre one's", s, f, a.Sub(b).Len())
			}
			swing = max(swing, a.Sub(earringRest(t, plain, pe, ps)).Len())
		}
		// The earring did swing: the comparison is not of rest poses.
		if swing < 0.005 {
			t.Errorf("%+v: the earring tip swung at most %.4f m from rest: the test does not test motion", s, swing)
		}
		plain.Close()
		cm.Close()
	}
}

// TestSimpleRuntimeScaleIsGeometric: a character whose root is scaled by
// 2 at run time and moved along the doubled path is the doubled copy of
// the unscaled one, to rounding.
func TestSimpleRuntimeScaleIsGeometric(t *testing.T) {
	for _, s := range []sway.SimpleSpringSettings{sway.DefaultSimpleSpringSettings(), stiffEarring} {
		one, e1, skel := earringCharacter(t, 1, wanderRoot(0, 1), s)
		two, e2, _ := earringCharacter(t, 1, wanderRoot(0, 2), s)
		end := mgl32.Vec3{0, -0.03, 0}
		swing := float32(0)
		for f := 1; f <= 600; f++ {
			r1, r2 := wanderRoot(f, 1), wanderRoot(f, 2)
			if err := one.SetRoot(e1, r1); err != nil {
				t.Fatal(err)
			}
			if err := two.SetRoot(e2, r2); err != nil {
				t.Fatal(err)
			}
			if err := one.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
			if err := two.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
			a := earringTip(t, one, e1, skel, end).Sub(r1.Pos).Mul(2)
			b := earringTip(t, two, e2, skel, end).Sub(r2.Pos)
			if d := a.Sub(b).Len(); d > 2e-6 {
				t.Fatalf("%+v: frame %d: the scaled earring tip is %.3g m off twice the unscaled one", s, f, d)
			}
			swing = max(swing, earringTip(t, one, e1, skel, end).Sub(earringRest(t, one, e1, skel)).Len())
		}
		if swing < 0.005 {
			t.Errorf("%+v: the earring tip swung at most %.4f m from rest: the test does not test motion", s, swing)
		}
		one.Close()
		two.Close()
	}
}
