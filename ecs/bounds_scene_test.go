package sway_test

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// The stress scene (locomotion, breathing, look-at, leg IK, earrings, and
// dynamic chains or VRM springs) with its roots just inside the limits:
// 999 km from the origin and scaled 1e4 or 1e-4. Every pose stays finite
// over four seconds of frames and no chain or spring faults.
func TestStressSceneAtTheLimitsStaysFinite(t *testing.T) {
	offset := mgl32.Vec3{9.99e5, -9.99e5, 9.99e5}
	for _, vrm := range []bool{false, true} {
		for _, scale := range []mgl32.Vec3{{1, 1, 1}, {1e4, 1e4, 1e4}, {1e-4, 1e-4, -1e-4}} {
			t.Run(fmt.Sprintf("vrm=%v,scale=%v", vrm, scale), func(t *testing.T) {
				s := newFullScene(t, 3, 1, vrm)
				defer s.w.Close()
				if err := s.w.SetReference(offset); err != nil {
					t.Fatal(err)
				}
				for f := range 240 {
					tm := s.w.Time().Elapsed + float64(sceneDts[f%len(sceneDts)])
					for i, e := range s.ents {
						r := s.root(i, f, tm)
						r.Pos = r.Pos.Add(offset)
						r.Scale = scale
						if err := s.w.SetRoot(e, r); err != nil {
							t.Fatal(err)
						}
						if err := s.w.Animation().Of(e).SetBlendParam(s.sc.LocomotionParam(i, tm)); err != nil {
							t.Fatal(err)
						}
						if i >= 2 {
							if err := s.w.LookAt().Of(e).SetTarget(r.Pos.Add(mgl32.Vec3{1.5, 1.6 * scale[1], 0})); err != nil {
								t.Fatal(err)
							}
						}
					}
					if err := s.w.Step(sceneDts[f%len(sceneDts)]); err != nil {
						t.Fatalf("frame %d: %v", f, err)
					}
					assertFinitePoses(t, s.w, s.ents)
				}
				for _, e := range s.ents {
					chains, _ := s.w.Chains().Of(e).Faults()
					springs, _ := s.w.VRMSprings().Of(e).Faults()
					if chains != 0 || springs != 0 {
						t.Errorf("%v: %d chain faults, %d spring faults", e, chains, springs)
					}
				}
			})
		}
	}
}

// A rig as large as the limits allow: a line of bones 1e4 m long on each
// axis, scaled up to MaxModelScale relative to the root, the root at
// MaxPosition scaled MaxScale, with a dynamic chain, a VRM spring and a
// simple spring on it. Its poses stay finite with every feature stepping.
func TestLargestRigStaysFinite(t *testing.T) {
	desc := line(8, mgl32.Vec3{1e4, -1e4, 1e4}, mgl32.Vec3{1, 1, 1})
	desc.Bones[1].Scale = mgl32.Vec3{100, -100, 100}
	desc.Bones[2].Scale = mgl32.Vec3{100, -100, 100}
	skel, err := sway.NewSkeleton(desc)
	if err != nil {
		t.Fatal(err)
	}
	for _, feature := range []string{"chain", "vrm", "simple"} {
		t.Run(feature, func(t *testing.T) {
			w, err := sway.NewWorld(sway.Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			root := sway.At(mgl32.Vec3{1e6, -1e6, 1e6})
			root.Scale = mgl32.Vec3{1e4, 1e4, -1e4}
			e, err := w.AddCharacter(skel, root)
			if err != nil {
				t.Fatal(err)
			}
			switch feature {
			case "chain":
				_, err = w.Chains().Add(e, nil, []sway.ChainSpec{{Root: "b3", Settings: sway.DefaultChainSettings()}})
			case "vrm":
				_, err = w.VRMSprings().Add(e, nil, []sway.VRMSpringSpec{{Joints: []string{"b3", "b4", "b5", "b6", "b7"}, Settings: sway.DefaultVRMJointSettings()}})
			case "simple":
				_, err = w.SimpleSprings().Add(e, []sway.SimpleSpringSpec{{Bones: []string{"b3", "b4", "b5", "b6"}, SpringEnd: mgl32.Vec3{1e4, -1e4, 1e4}, Settings: sway.DefaultSimpleSpringSettings()}})
			}
			if err != nil {
				t.Fatal(err)
			}
			for f := range 300 {
				// Turn the root, 3° a frame: the bones swing out.
				r := root
				r.Rot = mgl32.QuatRotate(float32(f)*0.05, mgl32.Vec3{0, 1, 0})
				if err := w.SetRoot(e, r); err != nil {
					t.Fatal(err)
				}
				if err := w.Step(1.0 / 60); err != nil {
					t.Fatalf("frame %d: %v", f, err)
				}
				assertFinitePoses(t, w, []arche.Entity{e})
			}
			chains, _ := w.Chains().Of(e).Faults()
			vrm, _ := w.VRMSprings().Of(e).Faults()
			simple, _ := w.SimpleSprings().Of(e).Faults()
			if chains+vrm+simple != 0 {
				t.Errorf("faults: chains %d, VRM springs %d, simple springs %d", chains, vrm, simple)
			}
			after, err := w.Pose(e)
			if err != nil {
				t.Fatal(err)
			}
			// The simulation ran: a simulated bone left its rest rotation (by
			// more than half a degree).
			if d := after.LocalRot[5].Dot(skel.RestRot()[5]); !(d < 0.99999) {
				t.Errorf("bone 5 kept its rest rotation (%v, cosine of half the angle %g)", after.LocalRot[5], d)
			}
		})
	}
}
