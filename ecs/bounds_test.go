package sway_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// Finite but huge inputs: each is rejected at set-up with a typed error
// naming the field. Were one accepted, the pose would hold Inf or NaN;
// the tests show that pose in their failure message.

// firstNonFinite steps w for frames and returns the first non-finite
// number in a character's local or world pose, or "" when every pose
// stays finite.
func firstNonFinite(w *sway.World, ents []arche.Entity, frames int) string {
	for f := 0; f <= frames; f++ {
		if f > 0 {
			if err := w.Step(1.0 / 60); err != nil {
				return fmt.Sprintf("frame %d: Step: %v", f, err)
			}
		}
		for _, e := range ents {
			v, err := w.Pose(e)
			if err != nil {
				return fmt.Sprintf("Pose: %v", err)
			}
			for b := range v.WorldPos {
				if !finite3(v.LocalPos[b]) || !finite3(v.LocalScale[b]) || !finite4(v.LocalRot[b]) ||
					!finite3(v.WorldPos[b]) || !finite3(v.WorldScale[b]) || !finite4(v.WorldRot[b]) {
					return fmt.Sprintf("not finite at frame %d, bone %d: world pos %v scale %v rot %v", f, b, v.WorldPos[b], v.WorldScale[b], v.WorldRot[b])
				}
			}
		}
	}
	return ""
}

// wantFieldError fails unless err is a *FieldError wrapping ErrInvalid
// whose Field contains field. shown describes what the accepted input
// did to a pose (called only when err is nil).
func wantFieldError(t *testing.T, name string, err error, field string, shown func() string) {
	t.Helper()
	var fe *sway.FieldError
	switch {
	case err == nil:
		t.Errorf("%s: accepted; then: %s", name, orFinite(shown()))
	case !errors.As(err, &fe) || !errors.Is(err, sway.ErrInvalid):
		t.Errorf("%s: %v is not a *FieldError wrapping ErrInvalid", name, err)
	case !strings.Contains(fe.Field, field):
		t.Errorf("%s: %v names field %q, want %q", name, err, fe.Field, field)
	}
}

func orFinite(s string) string {
	if s == "" {
		return "the poses stayed finite"
	}
	return s
}

// characterOf adds a character of desc to a fresh world and reports the
// first non-finite number of its pose over a few frames.
func characterOf(skel *sway.Skeleton, root sway.Transform) func() string {
	return func() string {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			return "NewWorld: " + err.Error()
		}
		defer w.Close()
		e, err := w.AddCharacter(skel, root)
		if err != nil {
			return "AddCharacter: " + err.Error()
		}
		return firstNonFinite(w, []arche.Entity{e}, 3)
	}
}

// line is a skeleton of n bones in a line, each pos from its parent and
// scaled scale.
func line(n int, pos, scale mgl32.Vec3) sway.SkeletonDesc {
	d := sway.SkeletonDesc{Name: "line"}
	for i := range n {
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf("b%d", i-1)
		}
		b := sway.Bone(fmt.Sprintf("b%d", i), parent, pos)
		b.Scale = scale
		d.Bones = append(d.Bones, b)
	}
	return d
}

func TestHugeBoneTranslationsAreRejected(t *testing.T) {
	// Bones 2e38 apart: the third bone lies at 4e38, past float32's range.
	desc := line(3, mgl32.Vec3{2e38, 0, 0}, mgl32.Vec3{1, 1, 1})
	desc.Bones[0].Pos = mgl32.Vec3{}
	skel, err := sway.NewSkeleton(desc)
	wantFieldError(t, "bones 2e38 apart", err, "Bones[1].Pos", characterOf(skel, sway.Identity()))
}

func TestHugeNestedScalesAreRejected(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		scale float32
		field string
	}{
		{"scale 1e6 on 8 nested bones", 8, 1e6, ".Scale"},
		{"scale 1e-6 on 8 nested bones", 8, 1e-6, ".Scale"},
		// Each bone within the per-bone limit, the product along the chain
		// beyond float32's range.
		{"scale 1e3 on 16 nested bones", 16, 1e3, ".Scale"},
	} {
		skel, err := sway.NewSkeleton(line(c.n, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{c.scale, c.scale, c.scale}))
		wantFieldError(t, c.name, err, c.field, func() string {
			s := characterOf(skel, sway.Identity())()
			// A scale that underflows to zero is finite but no scale at
			// all: show it.
			if s == "" && skel != nil {
				ms := skel.ModelScale()[c.n-1]
				if ms[0] == 0 || math.IsInf(float64(ms[0]), 0) {
					return fmt.Sprintf("no scale left: the last bone's model scale is %v", ms)
				}
			}
			return s
		})
	}
}

// smallSkeleton is a spine of four bones a metre apart.
func smallSkeleton(t *testing.T) *sway.Skeleton {
	t.Helper()
	skel, err := sway.NewSkeleton(line(4, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 1}))
	if err != nil {
		t.Fatal(err)
	}
	return skel
}

func TestHugeRootsAreRejected(t *testing.T) {
	skel := smallSkeleton(t)
	for _, c := range []struct {
		name  string
		root  sway.Transform
		field string
	}{
		{"scale 3e38", sway.Transform{Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{3e38, 3e38, 3e38}}, "Root.Scale"},
		{"position 3e38", sway.Transform{Pos: mgl32.Vec3{3e38, 3e38, 3e38}, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}, "Root.Pos"},
		{"position -3e38 at scale 2", sway.Transform{Pos: mgl32.Vec3{0, -3e38, 0}, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{2, 2, 2}}, "Root.Pos"},
	} {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = w.AddCharacter(skel, c.root)
		wantFieldError(t, "AddCharacter, root "+c.name, err, c.field, func() string {
			if s := characterOf(skel, c.root)(); s != "" {
				return s
			}
			e, err := w.AddCharacter(skel, c.root)
			if err != nil {
				return err.Error()
			}
			return collapsed(w, e)
		})
		e, err := w.AddCharacter(skel, sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		err = w.SetRoot(e, c.root)
		wantFieldError(t, "SetRoot "+c.name, err, c.field, func() string {
			if s := firstNonFinite(w, []arche.Entity{e}, 3); s != "" {
				return s
			}
			return collapsed(w, e)
		})
		w.Close()
	}
}

// collapsed reports bones a metre apart in the rest pose that share one
// world position: float32 has no room left for the bone lengths.
func collapsed(w *sway.World, e arche.Entity) string {
	v, err := w.Pose(e)
	if err != nil {
		return err.Error()
	}
	for b := 1; b < len(v.WorldPos); b++ {
		if v.WorldPos[b] == v.WorldPos[b-1] {
			return fmt.Sprintf("collapsed: bones %d and %d, a metre apart, both at %v", b-1, b, v.WorldPos[b])
		}
	}
	return ""
}

func TestHugeBoneLocalsAreRejected(t *testing.T) {
	skel := smallSkeleton(t)
	for _, c := range []struct {
		name  string
		local sway.Transform
		field string
	}{
		{"translation 3e38", sway.Transform{Pos: mgl32.Vec3{3e38, 0, 0}, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}, "Pos"},
		{"scale 3e38", sway.Transform{Pos: mgl32.Vec3{0, 1, 0}, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{3e38, 3e38, 3e38}}, "Scale"},
		// Within the limit on each bone, beyond it on the second relative
		// to the root.
		{"scale 1e3 on two nested bones", sway.Transform{Pos: mgl32.Vec3{0, 1, 0}, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1e3, 1, 1}}, "Scale"},
	} {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		e, err := w.AddCharacter(skel, sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		err = w.SetBoneLocal(e, 1, c.local)
		if err == nil {
			err = w.SetBoneLocal(e, 2, c.local)
		}
		wantFieldError(t, "SetBoneLocal "+c.name, err, c.field, func() string {
			_, err := w.BoneWorld(e, 3)
			if err != nil {
				return err.Error()
			}
			return firstNonFinite(w, []arche.Entity{e}, 0)
		})
		w.Close()
	}
}

// animateWith plays a one-clip blend space of desc on a character of
// skel and reports the first non-finite number of its pose.
func animateWith(skel *sway.Skeleton, w *sway.World, clip sway.ClipID) string {
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
	if err != nil {
		return "AddBlendSpace: " + err.Error()
	}
	e, err := w.AddCharacter(skel, sway.Identity())
	if err != nil {
		return "AddCharacter: " + err.Error()
	}
	if _, err := w.Animation().Add(e, space, sway.DefaultAnimSettings()); err != nil {
		return "Animate: " + err.Error()
	}
	return firstNonFinite(w, []arche.Entity{e}, 3)
}

// clipOf returns a two-key clip for skel whose tracks on bones 1 and 2
// hold pos and scale (nil for none) at every key.
func clipOf(skel *sway.Skeleton, pos, scale *mgl32.Vec3) sway.ClipDesc {
	d := sway.ClipDesc{Name: "huge", SampleRate: 30, KeyCount: 2, Loop: true, BoneCount: skel.NumBones()}
	for _, b := range []int{1, 2} {
		tr := sway.TrackDesc{Bone: b, Rotations: []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatIdent()}}
		if pos != nil {
			tr.Translations = []mgl32.Vec3{*pos, *pos}
		}
		if scale != nil {
			tr.Scales = []mgl32.Vec3{*scale, *scale}
		}
		d.Tracks = append(d.Tracks, tr)
	}
	return d
}

func TestHugeClipKeysAreRejected(t *testing.T) {
	skel := smallSkeleton(t)
	huge := mgl32.Vec3{3e38, 3e38, 3e38}
	for _, c := range []struct {
		name       string
		pos, scale *mgl32.Vec3
		field      string
	}{
		{"translation keys 3e38", &huge, nil, "Tracks[0].Translations[0]"},
		{"scale keys 3e38", nil, &huge, "Tracks[0].Scales[0]"},
	} {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		clip, err := w.AddClip(clipOf(skel, c.pos, c.scale))
		wantFieldError(t, c.name, err, c.field, func() string { return animateWith(skel, w, clip) })
		w.Close()
	}
}

// A blend space whose scale keys would scale a bone beyond MaxModelScale
// relative to the root cannot be played on that skeleton; within it, and
// with keys that hide a bone (scale 0), it can.
func TestAnimateBoundsScaleKeys(t *testing.T) {
	skel := smallSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddCharacter(skel, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	play := func(scale mgl32.Vec3) error {
		clip, err := w.AddClip(clipOf(skel, nil, &scale))
		if err != nil {
			return err
		}
		space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
		if err != nil {
			return err
		}
		if a := w.Animation().Of(e); addErr(a.State()) == nil {
			return a.Play(space, sway.DefaultAnimSettings())
		}
		return addErr(w.Animation().Add(e, space, sway.DefaultAnimSettings()))
	}
	// Bones 1 and 2 keyed at 200: bone 2 at 4e4 relative to the root.
	wantFieldError(t, "scale keys 200 on two nested bones", play(mgl32.Vec3{1, -200, 1}), "Space", func() string { return "" })
	for _, scale := range []mgl32.Vec3{{1, -100, 1}, {0, 0, 0}, {1e-2, 1, 1}} {
		if err := play(scale); err != nil {
			t.Fatalf("scale keys %v: %v", scale, err)
		}
		if s := firstNonFinite(w, []arche.Entity{e}, 10); s != "" {
			t.Fatalf("scale keys %v: %s", scale, s)
		}
		v, err := w.Pose(e)
		if err != nil {
			t.Fatal(err)
		}
		if want := scale[1] * scale[1]; v.WorldScale[2][1] != want {
			t.Fatalf("scale keys %v: bone 2's world scale %v, want %g on y", scale, v.WorldScale[2], want)
		}
	}
}
