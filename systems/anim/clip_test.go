package anim

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

func TestClipSampleAtKeyIsExact(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	d := randClipDesc(rng, 5, 31, 30, true)
	c := mustClip(t, d)
	rest := restPose(5)
	dst := MakePose(5)
	for k := range 30 { // key 30 is the loop's end: it wraps to key 0
		if !c.Sample(dst, rest, float32(k)/30) {
			t.Fatal("Sample returned false")
		}
		for _, tr := range d.Tracks {
			if dst.Rot[tr.Bone] != tr.Rotations[k] {
				t.Fatalf("key %d bone %d: rotation %v, want %v", k, tr.Bone, dst.Rot[tr.Bone], tr.Rotations[k])
			}
			if tr.Translations != nil && (dst.Pos[tr.Bone] != tr.Translations[k] || dst.Scale[tr.Bone] != tr.Scales[k]) {
				t.Fatalf("key %d bone %d: pos %v scale %v", k, tr.Bone, dst.Pos[tr.Bone], dst.Scale[tr.Bone])
			}
		}
	}
}

// Keys 0 (identity) and 1 (90° about Y) at 10 keys/s: t = 0.05 is halfway,
// nlerp of the two gives exactly the 45° rotation; translation (0,0,0) to
// (2,0,0) gives (1,0,0).
func TestClipSampleBetweenKeys(t *testing.T) {
	q90 := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
	c := mustClip(t, ClipDesc{SampleRate: 10, KeyCount: 2, BoneCount: 1, Tracks: []TrackDesc{{
		Bone: 0, Rotations: []mgl32.Quat{mgl32.QuatIdent(), q90},
		Translations: []mgl32.Vec3{{0, 0, 0}, {2, 0, 0}},
	}}})
	dst := MakePose(1)
	c.Sample(dst, MakePose(1), 0.05)
	if want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0}); !quatNear(dst.Rot[0], want, 1e-6) {
		t.Fatalf("halfway rotation %v, want %v", dst.Rot[0], want)
	}
	if !vecNear(dst.Pos[0], mgl32.Vec3{1, 0, 0}, 1e-6) {
		t.Fatalf("halfway translation %v", dst.Pos[0])
	}
	// A key stored as -q (same rotation, other hemisphere) takes the short
	// arc: still 45°, not 135°.
	c2 := mustClip(t, ClipDesc{SampleRate: 10, KeyCount: 2, BoneCount: 1, Tracks: []TrackDesc{{
		Bone: 0, Rotations: []mgl32.Quat{mgl32.QuatIdent(), q90.Scale(-1)},
	}}})
	c2.Sample(dst, MakePose(1), 0.05)
	if want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0}); !quatNear(dst.Rot[0], want, 1e-6) {
		t.Fatalf("hemisphere: %v, want %v", dst.Rot[0], want)
	}
}

func TestClipLoopWraps(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	c := mustClip(t, randClipDesc(rng, 4, 31, 30, true))
	if c.Duration() != 1 {
		t.Fatalf("duration %v, want 1", c.Duration())
	}
	rest := restPose(4)
	a, b := MakePose(4), MakePose(4)
	for _, tt := range []float32{0.1, 0.37, 0.999} {
		c.Sample(a, rest, tt)
		for _, shifted := range []float32{tt + 1, tt + 5, tt - 1, tt - 3} {
			c.Sample(b, rest, shifted)
			for i := range 4 {
				if !quatNear(a.Rot[i], b.Rot[i], 1e-5) || !vecNear(a.Pos[i], b.Pos[i], 1e-5) {
					t.Fatalf("t=%v vs %v: bone %d differs: %v vs %v", tt, shifted, i, a.Rot[i], b.Rot[i])
				}
			}
		}
	}
	for _, c2 := range []struct{ in, want float32 }{{1, 0}, {1.25, 0.25}, {-0.25, 0.75}, {2, 0}} {
		if got := c.LocalTime(c2.in); !near(got, c2.want, 1e-6) {
			t.Fatalf("LocalTime(%v) = %v, want %v", c2.in, got, c2.want)
		}
	}
}

func TestClipClampedClamps(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	d := randClipDesc(rng, 3, 31, 30, false)
	c := mustClip(t, d)
	rest := restPose(3)
	dst := MakePose(3)
	for _, cc := range []struct {
		t   float32
		key int
	}{{-1, 0}, {0, 0}, {1, 30}, {7, 30}, {float32(math.Inf(1)), 0}, {float32(math.NaN()), 0}} {
		c.Sample(dst, rest, cc.t)
		for _, tr := range d.Tracks {
			if dst.Rot[tr.Bone] != tr.Rotations[cc.key] {
				t.Fatalf("t=%v: bone %d rotation %v, want key %d %v", cc.t, tr.Bone, dst.Rot[tr.Bone], cc.key, tr.Rotations[cc.key])
			}
		}
	}
}

// Bones without a track, and channels a track leaves out, keep the rest pose.
func TestClipUntrackedBonesKeepRest(t *testing.T) {
	q := mgl32.QuatRotate(1, mgl32.Vec3{0, 0, 1})
	c := mustClip(t, ClipDesc{SampleRate: 30, KeyCount: 2, BoneCount: 3, Tracks: []TrackDesc{
		{Bone: 1, Rotations: []mgl32.Quat{q, q}},
	}})
	rest := restPose(3)
	dst := MakePose(3)
	c.Sample(dst, rest, 0.01)
	for i := range 3 {
		if dst.Pos[i] != rest.Pos[i] || dst.Scale[i] != rest.Scale[i] {
			t.Fatalf("bone %d: pos/scale not the rest pose", i)
		}
		if i != 1 && dst.Rot[i] != rest.Rot[i] {
			t.Fatalf("bone %d: rotation not the rest pose", i)
		}
	}
	if !quatNear(dst.Rot[1], q, 1e-6) {
		t.Fatalf("bone 1: %v, want %v", dst.Rot[1], q)
	}
	// In place: dst and rest may be one pose.
	c.Sample(rest, rest, 0)
	if rest.Rot[1] != q {
		t.Fatal("in-place sample did not write the track")
	}
}

func TestClipSingleKey(t *testing.T) {
	q := mgl32.QuatRotate(0.5, mgl32.Vec3{1, 0, 0})
	c := mustClip(t, ClipDesc{SampleRate: 30, KeyCount: 1, Loop: true, BoneCount: 1, Tracks: []TrackDesc{{Bone: 0, Rotations: []mgl32.Quat{q}}}})
	dst := MakePose(1)
	for _, tt := range []float32{-3, 0, 0.5, 100} {
		c.Sample(dst, MakePose(1), tt)
		if dst.Rot[0] != q {
			t.Fatalf("t=%v: %v", tt, dst.Rot[0])
		}
	}
	if c.Duration() != 0 || c.Advance(0, 1, 0.1) != 0 {
		t.Fatal("a one-key clip has no length")
	}
}

func TestClipAdvance(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	loop := mustClip(t, randClipDesc(rng, 1, 31, 30, true))
	once := mustClip(t, randClipDesc(rng, 1, 31, 30, false))
	tt := float32(0)
	for range 90 {
		tt = loop.Advance(tt, 1.5, 1.0/60)
	}
	if !near(tt, 0.25, 1e-4) { // 90 * 1.5/60 = 2.25 s -> 0.25 into the loop
		t.Fatalf("looping time %v, want 0.25", tt)
	}
	if got := once.Advance(0.9, 1, 0.5); got != 1 {
		t.Fatalf("clamped clip advanced to %v, want 1", got)
	}
	if got := loop.Advance(0.5, float32(math.NaN()), 0.1); got != 0.5 {
		t.Fatalf("NaN speed moved time to %v", got)
	}
	if got := loop.Advance(0.5, -1, 0.75); !near(got, 0.75, 1e-6) {
		t.Fatalf("reverse play: %v, want 0.75", got)
	}
}

func TestClipDescValidate(t *testing.T) {
	good := func() ClipDesc {
		return ClipDesc{SampleRate: 30, KeyCount: 2, BoneCount: 2, Tracks: []TrackDesc{
			{Bone: 0, Rotations: []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatIdent()}},
		}}
	}
	nan := float32(math.NaN())
	for _, c := range []struct {
		field string
		edit  func(*ClipDesc)
	}{
		{"SampleRate", func(d *ClipDesc) { d.SampleRate = 0 }},
		{"SampleRate", func(d *ClipDesc) { d.SampleRate = nan }},
		{"KeyCount", func(d *ClipDesc) { d.KeyCount = 0 }},
		{"BoneCount", func(d *ClipDesc) { d.BoneCount = 0 }},
		{"Tracks[0].Bone", func(d *ClipDesc) { d.Tracks[0].Bone = 2 }},
		{"Tracks[1].Bone", func(d *ClipDesc) { d.Tracks = append(d.Tracks, d.Tracks[0]) }},
		{"Tracks[0].Rotations", func(d *ClipDesc) { d.Tracks[0].Rotations = d.Tracks[0].Rotations[:1] }},
		{"Tracks[0].Rotations[1]", func(d *ClipDesc) { d.Tracks[0].Rotations[1] = mgl32.Quat{W: 2} }},
		{"Tracks[0].Rotations[0]", func(d *ClipDesc) { d.Tracks[0].Rotations[0] = mgl32.Quat{W: nan} }},
		{"Tracks[0].Translations", func(d *ClipDesc) { d.Tracks[0].Translations = make([]mgl32.Vec3, 3) }},
		{"Tracks[0].Scales[1]", func(d *ClipDesc) { d.Tracks[0].Scales = []mgl32.Vec3{{1, 1, 1}, {nan, 1, 1}} }},
	} {
		d := good()
		c.edit(&d)
		_, err := NewClip(d)
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "ClipDesc" {
			t.Fatalf("want a FieldError on %s, got %v", c.field, err)
		}
	}
	d := good()
	if _, err := NewClip(d); err != nil {
		t.Fatal(err)
	}
	// A key slightly off unit length is accepted and normalised.
	d.Tracks[0].Rotations[1] = mgl32.Quat{W: 1.0005}
	c := mustClip(t, d)
	dst := MakePose(2)
	c.Sample(dst, MakePose(2), 1.0/30)
	if !quatNear(dst.Rot[0], mgl32.QuatIdent(), 1e-6) || !near(dst.Rot[0].Len(), 1, 1e-6) {
		t.Fatalf("near-unit key not normalised: %v", dst.Rot[0])
	}
}

func TestClipSampleShortPose(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	c := mustClip(t, randClipDesc(rng, 4, 3, 30, true))
	if c.Sample(MakePose(3), restPose(4), 0) || c.Sample(MakePose(4), restPose(3), 0) || c.Sample(Pose{}, Pose{}, 0) {
		t.Fatal("short pose accepted")
	}
}
