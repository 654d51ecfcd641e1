package sway_test

import (
	"errors"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// A chain's root follows its driver bone by the weight, per axis: the
// thigh's clip moves it (0.1, 0.2, 0.3) from rest; a skirt strand's root
// synced with weight (1, 0, 0.5) moves (0.1, 0, 0.15) with it, before the
// chain runs; without the sync it stays where the animation puts it.
func TestChainRootFollowsItsDriver(t *testing.T) {
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "legs", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 1, 0}),
		sway.Bone("thigh", "hips", mgl32.Vec3{0.1, -0.1, 0}),
		sway.Bone("skirt.0", "hips", mgl32.Vec3{0, -0.05, 0.1}),
		sway.Bone("skirt.1", "skirt.0", mgl32.Vec3{0, -0.2, 0}),
	}})
	must(t, err)
	root := func(sync *sway.ChainSync) mgl32.Vec3 {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		must(t, err)
		defer w.Close()
		e, err := w.AddCharacter(skel, sway.Identity())
		must(t, err)
		thigh := skel.Index("thigh")
		clip, err := w.AddClip(sway.ClipDesc{Name: "lift", SampleRate: 30, KeyCount: 1, BoneCount: skel.NumBones(),
			Tracks: []sway.TrackDesc{{Bone: thigh, Rotations: []mgl32.Quat{mgl32.QuatIdent()}, Translations: []mgl32.Vec3{{0.2, 0.1, 0.3}}}}})
		must(t, err)
		space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
		must(t, err)
		must(t, addErr(w.Animation().Add(e, space, sway.DefaultAnimSettings())))
		must(t, addErr(w.Chains().Add(e, nil, []sway.ChainSpec{{Root: "skirt.0", Settings: sway.DefaultChainSettings(), Sync: sync}})))
		for range 3 {
			must(t, w.Step(1.0/60))
		}
		b, err := w.BoneWorld(e, skel.Index("skirt.0"))
		must(t, err)
		return b.Pos
	}
	rest := mgl32.Vec3{0, 0.95, 0.1}
	if got := root(nil); !got.ApproxEqualThreshold(rest, 1e-6) {
		t.Fatalf("without a sync the root is at %v, want its animated %v", got, rest)
	}
	want := rest.Add(mgl32.Vec3{0.1, 0, 0.15})
	if got := root(&sway.ChainSync{Bone: "thigh", Weight: mgl32.Vec3{1, 0, 0.5}}); !got.ApproxEqualThreshold(want, 1e-6) {
		t.Fatalf("synced root at %v, want %v", got, want)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	e, err := w.AddCharacter(skel, sway.Identity())
	must(t, err)
	for _, bad := range []*sway.ChainSync{{Bone: "knee", Weight: mgl32.Vec3{1, 1, 1}}, {Bone: "skirt.0"}, {Bone: "thigh", Weight: mgl32.Vec3{0, 1.5, 0}}} {
		var fe *sway.FieldError
		if _, err := w.Chains().Add(e, nil, []sway.ChainSpec{{Root: "skirt.0", Settings: sway.DefaultChainSettings(), Sync: bad}}); !errors.As(err, &fe) {
			t.Errorf("Sync %+v: %v, want a *FieldError", *bad, err)
		}
	}
}
