package scene

import (
	"math"
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/anim"
)

func TestLocomotionClips(t *testing.T) {
	s, err := New(Config{Characters: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	descs := s.LocomotionClips()
	if again := s.LocomotionClips(); !reflect.DeepEqual(descs, again) {
		t.Fatal("two calls built different clips")
	}
	if len(descs) != 5 || len(LocomotionPositions()) != 5 {
		t.Fatalf("%d clips", len(descs))
	}
	for i, d := range descs {
		if _, err := anim.NewClip(d); err != nil {
			t.Fatalf("clip %d: %v", i, err)
		}
		if d.KeyCount != 31 || d.SampleRate != 30 || !d.Loop || d.BoneCount != BonesPerChar || len(d.Tracks) != BodyBones {
			t.Fatalf("clip %s: keys %d rate %v loop %v bones %d tracks %d", d.Name, d.KeyCount, d.SampleRate, d.Loop, d.BoneCount, len(d.Tracks))
		}
		for j, tr := range d.Tracks {
			if tr.Bone != s.Skeleton.Index(BodyBoneNames[j]) {
				t.Fatalf("clip %s track %d animates bone %d, want %s", d.Name, j, tr.Bone, BodyBoneNames[j])
			}
			// A loop's last key is its first, bit for bit.
			if tr.Rotations[30] != tr.Rotations[0] || (tr.Translations != nil && tr.Translations[30] != tr.Translations[0]) {
				t.Fatalf("clip %s bone %s: the last key does not repeat the first", d.Name, BodyBoneNames[j])
			}
			for k, q := range tr.Rotations {
				if l := q.Len(); math.Abs(float64(l)-1) > 1e-6 {
					t.Fatalf("clip %s bone %s key %d: |q| = %v", d.Name, BodyBoneNames[j], k, l)
				}
			}
		}
	}
	// A quarter cycle in (key 7 of 30), the left leg has swung toward the
	// walking direction: forward +Z, back -Z, left +X (the character's
	// left), right -X; in the idle it hangs straight down.
	leg := 11 // upper_leg.L in BodyBoneNames
	down := mgl32.Vec3{0, -1, 0}
	for i, want := range []mgl32.Vec3{{0, 0, 0}, {0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}} {
		foot := mathx.Rotate(descs[i].Tracks[leg].Rotations[7], down)
		along := mathx.Dot(foot, want)
		if i == Idle {
			if foot.Sub(down).Len() > 1e-6 {
				t.Fatalf("idle: left leg points %v", foot)
			}
			continue
		}
		if along < 0.2 {
			t.Fatalf("%s: left leg points %v, not toward %v", descs[i].Name, foot, want)
		}
		// Half a cycle later the right leg is the one in front.
		right := mathx.Rotate(descs[i].Tracks[leg+7].Rotations[7], down)
		if mathx.Dot(right, want) > -0.2 {
			t.Fatalf("%s: right leg points %v, not behind", descs[i].Name, right)
		}
	}
}

func TestAddLocomotion(t *testing.T) {
	s, _ := New(Config{Characters: 3, Seed: 2})
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	space, err := s.AddLocomotion(w)
	if err != nil {
		t.Fatal(err)
	}
	ents, err := s.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if _, err := w.Animation().Add(e, space, sway.DefaultAnimSettings()); err != nil {
			t.Fatal(err)
		}
	}
	for f := 1; f <= 3; f++ {
		for i, e := range ents {
			p := s.LocomotionParam(i, float64(f)/60)
			if l := p.Len(); math.Abs(float64(l)-0.6) > 1e-6 {
				t.Fatalf("parameter %v off the circle", p)
			}
			if err := w.Animation().Of(e).SetBlendParam(p); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	weights, err := w.Animation().Of(ents[0]).BlendWeights(nil)
	if err != nil || len(weights) != LocomotionClipCount || !(weights[Idle] > 0) {
		t.Fatalf("weights %v, err %v: want five with the idle active", weights, err)
	}
}
