package systems_test

import (
	"errors"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// animatedWorld runs frames of chars stress-rig characters playing the
// locomotion space, on pipeline p (nil: the default).
func animatedWorld(t *testing.T, p *systems.Pipeline, chars, frames int) (*sway.World, []arche.Entity) {
	t.Helper()
	sc, _ := scene.New(scene.Config{Characters: chars, Seed: 5})
	w, err := sway.NewWorld(sway.Options{Workers: 2, Pipeline: p})
	if err != nil {
		t.Fatal(err)
	}
	space, err := sc.AddLocomotion(w)
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := sc.Populate(w)
	for i, e := range ents {
		s := sway.DefaultAnimSettings()
		s.Speed = 1 + 0.1*float32(i)
		if _, err := w.Animation().Add(e, space, s); err != nil {
			t.Fatal(err)
		}
	}
	for f := 1; f <= frames; f++ {
		for i, e := range ents {
			_ = w.Animation().Of(e).SetBlendParam(sc.LocomotionParam(i, float64(f)/60))
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	return w, ents
}

// The animation system on its own in a pipeline gives the poses the
// default pipeline gives, where pose.reset runs it.
func TestAnimationStandaloneMatchesDefault(t *testing.T) {
	def, _ := animatedWorld(t, nil, 40, 20)
	defer def.Close()
	p := &systems.Pipeline{}
	p.Add(systems.PhaseAnimation, "anim", systems.NewAnimation())
	p.Add(systems.PhaseFinal, "fk.final", systems.NewForwardKinematics("fk.final"))
	own, _ := animatedWorld(t, p, 40, 20)
	defer own.Close()
	if def.Checksum() != own.Checksum() {
		t.Fatal("the standalone animation system and the default pipeline disagree")
	}
}

// A component written directly with a blend space the library does not
// hold gets the rest pose: no panic, no fault, no stale pose.
func TestAnimationBadSpaceIndexGivesRestPose(t *testing.T) {
	w, ents := animatedWorld(t, nil, 2, 3)
	defer w.Close()
	a := (*components.Animation)(w.ECS().Get(ents[0], arche.ComponentID[components.Animation](w.ECS())))
	a.Space = 99
	a.Phase = float32(mgl32.InfPos)
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatalf("Step: %v", err)
	}
	skel, _ := w.Skeleton(ents[0])
	p, _ := w.Pose(ents[0])
	for b := range p.LocalRot {
		if p.LocalRot[b] != skel.RestRot()[b] || p.LocalPos[b] != skel.RestPos()[b] {
			t.Fatalf("bone %s is not at rest", skel.BoneName(b))
		}
	}
	// The facade refuses it too, without panicking.
	var fe *sway.FieldError
	if err := w.Animation().Of(ents[0]).SetDirectWeights([]float32{1}); !errors.As(err, &fe) {
		t.Fatalf("SetDirectWeights with a bad space index: %v", err)
	}
	// The other character still plays.
	q, _ := w.Pose(ents[1])
	if leg := skel.Index("upper_leg.L"); q.LocalRot[leg] == skel.RestRot()[leg] {
		t.Fatal("the other character stopped playing")
	}
}
