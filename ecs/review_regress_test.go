package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// A character with chains but no colliders keeps a valid (empty) collider
// range when a character before it is removed and the store is trimmed.
func TestChainStoreCompactsEmptyRanges(t *testing.T) {
	w, ents, sc := plainWorld(t, 2, 2)
	defer w.Close()
	tail := []sway.ChainSpec{{Root: "tail.0", EndLength: 1, Settings: sway.DefaultChainSettings()}}
	if _, err := w.Chains().Add(ents[0], scene.Colliders()[:1], tail); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Chains().Add(ents[1], nil, tail); err != nil {
		t.Fatal(err)
	}
	stepMoving(t, w, ents, sc, 0, 2)
	if err := w.RemoveCharacter(ents[0]); err != nil {
		t.Fatal(err)
	}
	stepMoving(t, w, ents[1:], sc, 2, 1) // compacts
	if err := w.Trim(); err != nil {
		t.Fatal(err)
	}
	for f := 3; f < 10; f++ {
		if err := w.SetRoot(ents[1], sc.RootAt(1, float64(f)/60)); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatalf("frame %d after compaction and Trim: %v", f, err)
		}
	}
}

// hipSwing is a game system in the procedural phase that runs after
// fk.procedural and turns the hips: the chains must still see the turned
// pose.
type hipSwing struct {
	filter *generic.Filter2[components.Pose, components.Root]
	time   *sway.World
}

func (s *hipSwing) Initialize(w *arche.World) {
	s.filter = generic.NewFilter2[components.Pose, components.Root]()
}
func (s *hipSwing) Finalize(w *arche.World) {}
func (s *hipSwing) Update(w *arche.World) {
	pool := arche.GetResource[rig.Pool](w)
	reg := arche.GetResource[rig.Registry](w)
	a := float32(math.Sin(s.time.Time().Elapsed * 4))
	q := s.filter.Query(w)
	for q.Next() {
		p, _ := q.Get()
		pool.LocalRot[p.First] = mgl32.QuatRotate(0.6*a, mgl32.Vec3{0, 1, 0})
		p.MarkDirty(0, reg.Skeletons[p.Skeleton].SubtreeEnd(0))
	}
}

func TestChainsSeeLocalsWrittenAfterTheLastFK(t *testing.T) {
	run := func(extraFK bool) mgl32.Vec3 {
		w, ents, sc := chainWorld(t, 1, 1)
		defer w.Close()
		w.Pipeline().Add(systems.PhaseProcedural, "game.swing", &hipSwing{time: w})
		if extraFK {
			w.Pipeline().Add(systems.PhaseProcedural, "fk.extra", systems.NewForwardKinematics("fk.extra"))
		}
		for f := 0; f < 90; f++ {
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		return bonePos(t, w, ents[0], sc.Skeleton, "tail.7")
	}
	if a, b := run(false), run(true); a != b {
		t.Fatalf("tail tip %v without an extra FK pass, %v with one", a, b)
	}
}

// Pose.Faults counts frames, however many systems meet the bad root.
func TestPoseFaultsCountFrames(t *testing.T) {
	w, ents, sc := plainWorld(t, 1, 1)
	defer w.Close()
	if _, err := w.LookAt().Add(ents[0], sway.LookAtFor(sc.Skeleton)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Breath().Add(ents[0], sway.BreathFor(sc.Skeleton)); err != nil {
		t.Fatal(err)
	}
	root := (*components.Root)(w.ECS().Get(ents[0], arche.ComponentID[components.Root](w.ECS())))
	root.Pos[0] = float32(math.NaN())
	for f := 0; f < 10; f++ {
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		_, _ = w.BoneWorld(ents[0], 4) // the game reading the pose does not count
	}
	p := (*components.Pose)(w.ECS().Get(ents[0], arche.ComponentID[components.Pose](w.ECS())))
	if p.Faults != 10 {
		t.Fatalf("Faults = %d after 10 frames with a NaN root, want 10", p.Faults)
	}
}

// Characters made from one Rig share its skeleton, so add/remove churn
// does not grow the skeleton registry.
func TestAddRigSharesTheSkeleton(t *testing.T) {
	r, err := sway.LoadRig(writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	a, err := w.AddRig(r, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.AddRig(r, sway.At(mgl32.Vec3{2, 0, 0}))
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := w.Skeleton(a)
	sb, _ := w.Skeleton(b)
	if sa != sb {
		t.Fatal("two characters of one rig have different skeletons")
	}
	for i := 0; i < 50; i++ {
		e, err := w.AddRig(r, sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		if err := w.RemoveCharacter(e); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(arche.GetResource[rig.Registry](w.ECS()).Skeletons); n != 1 {
		t.Fatalf("%d skeletons registered after churn, want 1", n)
	}
}
