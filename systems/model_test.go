package systems_test

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche-model/model"
	"github.com/mlange-42/arche-model/system"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// TestPipelineRunsInArcheModel drops sway's default pipeline into an
// arche-model Model as one system, after a Clock, and checks that the
// model's run steps the characters.
func TestPipelineRunsInArcheModel(t *testing.T) {
	m := model.New()
	// The facade over the model's world, with an empty pipeline of its own:
	// the model runs the real one.
	w, err := sway.Attach(&m.World, sway.Options{Workers: 2, Pipeline: &systems.Pipeline{}})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := scene.New(scene.Config{Characters: 20, Seed: 1})
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	// Turn one bone between frames: the model's pose reset must undo it.
	head := sc.Skeleton.Index("head")
	turned := sway.Identity()
	turned.Pos = sc.Skeleton.RestPos()[head]
	turned.Rot = mgl32.QuatRotate(1, mgl32.Vec3{0, 1, 0})
	if err := w.SetBoneLocal(ents[0], head, turned); err != nil {
		t.Fatal(err)
	}

	clock := &systems.Clock{Dt: 1.0 / 60}
	pipeline := systems.NewDefaultPipeline()
	m.AddSystem(clock)
	m.AddSystem(pipeline)
	m.AddSystem(&system.FixedTermination{Steps: 30})
	m.Run()

	if got := w.Time(); got.Frame != 30 || got.Elapsed < 0.49 || got.Elapsed > 0.51 {
		t.Fatalf("clock after 30 model steps: %+v", got)
	}
	for _, s := range pipeline.Stats(nil) {
		if s.Calls != 30 {
			t.Fatalf("system %s ran %d times, want 30", s.Name, s.Calls)
		}
	}
	p, _ := w.Pose(ents[0])
	if p.LocalRot[head] != sc.Skeleton.RestRot()[head] {
		t.Fatal("pose reset did not run inside the model")
	}
}
