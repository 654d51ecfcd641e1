package sway_test

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// wiggle is a test system in the procedural phase: it turns a few bones of
// every character by an angle that depends on time and on the character,
// so poses differ per character and per frame and FK has dirty subtrees.
type wiggle struct {
	pose   worldSkeletons
	bones  []int
	filter *generic.Filter2[components.Pose, components.Root]
}

func (s *wiggle) Initialize(w *arche.World) {}
func (s *wiggle) Finalize(w *arche.World)   {}
func (s *wiggle) Update(w *arche.World) {
	t := s.pose.Time().Elapsed
	if s.filter == nil {
		s.filter = generic.NewFilter2[components.Pose, components.Root]()
	}
	pool := arche.GetResource[rig.Pool](w)
	skel := s.pose
	q := s.filter.Query(w)
	for q.Next() {
		p, _ := q.Get()
		for k, b := range s.bones {
			a := float32(math.Sin(t*3+float64(p.First)*0.01+float64(k))) * 0.5
			pool.LocalRot[p.First+int32(b)] = mgl32.QuatRotate(a, mgl32.Vec3{1, 0, 0})
			p.MarkDirty(int32(b), skel.reg(p).SubtreeEnd(b))
		}
	}
}

func runScene(t testing.TB, workers, chars, frames int) (*sway.World, []arche.Entity, *scene.Scene) {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	w.Pipeline().Add(systems.PhaseProcedural, "test.wiggle", &wiggle{pose: worldSkeletons{w}, bones: []int{
		sc.Skeleton.Index("spine"), sc.Skeleton.Index("neck"), sc.Skeleton.Index("hair3.0"), sc.Skeleton.Index("tail.2"),
	}})
	w.Pipeline().Add(systems.PhaseProcedural, "fk.procedural", systems.NewForwardKinematics("fk.procedural"))
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	for f := 0; f < frames; f++ {
		if err := sc.MoveRoots(w, ents, float64(f+1)/60); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	return w, ents, sc
}

func TestPosesBitIdenticalForAnyWorkerCount(t *testing.T) {
	ref, refEnts, _ := runScene(t, 1, 300, 20)
	defer ref.Close()
	for _, workers := range []int{2, 3, 8} {
		w, ents, _ := runScene(t, workers, 300, 20)
		if w.Workers() != workers {
			t.Fatalf("Workers() = %d", w.Workers())
		}
		for i := range ents {
			a, _ := ref.Pose(refEnts[i])
			b, _ := w.Pose(ents[i])
			for k := range a.WorldPos {
				if a.WorldPos[k] != b.WorldPos[k] || a.WorldRot[k] != b.WorldRot[k] || a.WorldScale[k] != b.WorldScale[k] ||
					a.LocalRot[k] != b.LocalRot[k] {
					t.Fatalf("workers=%d: character %d bone %d differs", workers, i, k)
				}
			}
		}
		if ref.Checksum() != w.Checksum() {
			t.Fatalf("workers=%d: checksum differs", workers)
		}
		w.Close()
	}
}

func TestStepAllocationsDoNotGrowWithCharacters(t *testing.T) {
	allocs := map[int]float64{}
	for _, n := range []int{10, 1000} {
		w, ents, sc := runScene(t, 2, n, 3)
		f := 3
		allocs[n] = testing.AllocsPerRun(50, func() {
			f++
			_ = sc.MoveRoots(w, ents, float64(f)/60)
			_ = w.Step(1.0 / 60)
		})
		w.Close()
	}
	if allocs[10] != allocs[1000] || allocs[1000] != 0 {
		t.Fatalf("allocations per frame: %v at 10 characters, %v at 1000; want 0 for both", allocs[10], allocs[1000])
	}
}

// TestFirstFrameAllocationsDoNotGrowWithCharacters: the first frame sizes
// the systems' per-frame buffers once, to the number of characters; grown
// by appending they would take more allocations for more characters and
// leave the outgrown copies as garbage.
func TestFirstFrameAllocationsDoNotGrowWithCharacters(t *testing.T) {
	allocs := map[int]uint64{}
	for _, n := range []int{10, 1000} {
		w, ents, sc := runScene(t, 1, n, 0)
		if err := sc.MoveRoots(w, ents, 1.0/60); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		allocs[n] = after.Mallocs - before.Mallocs
		w.Close()
	}
	// A slack of 2 for the runtime's own (MemStats counts every
	// goroutine's); appending, the buffers took 24 more at 1000.
	if allocs[1000] > allocs[10]+2 {
		t.Fatalf("first-frame allocations: %d at 10 characters, %d at 1000; want no more for more characters", allocs[10], allocs[1000])
	}
}

func TestBoneWorldAfterSetBoneLocal(t *testing.T) {
	sc, _ := scene.New(scene.Config{Characters: 1, Seed: 1})
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddCharacter(sc.Skeleton, sway.At(mgl32.Vec3{5, 0, 0}))
	if err != nil {
		t.Fatal(err)
	}
	neck := sc.Skeleton.Index("neck")
	head := sc.Skeleton.Index("head")
	// Turn the neck 90 degrees about Z: the head (0.1 above the neck) moves to -X.
	turn := sway.Identity()
	turn.Pos = sc.Skeleton.RestPos()[neck]
	turn.Rot = mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1})
	if err := w.SetBoneLocal(e, neck, turn); err != nil {
		t.Fatal(err)
	}
	nw, _ := w.BoneWorld(e, neck)
	hw, err := w.BoneWorld(e, head)
	if err != nil {
		t.Fatal(err)
	}
	want := nw.Pos.Add(mgl32.Vec3{-0.1, 0, 0})
	if !hw.Pos.ApproxEqualThreshold(want, 1e-5) {
		t.Fatalf("head at %v, want %v", hw.Pos, want)
	}
	// The neck's world position itself is the rest position offset by the root.
	if wantNeck := sc.Skeleton.ModelPos()[neck].Add(mgl32.Vec3{5, 0, 0}); !nw.Pos.ApproxEqualThreshold(wantNeck, 1e-5) {
		t.Fatalf("neck at %v, want %v", nw.Pos, wantNeck)
	}
}

func TestNonFiniteRootKeepsLastGoodPose(t *testing.T) {
	sc, _ := scene.New(scene.Config{Characters: 2, Seed: 1})
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ents, _ := sc.Populate(w)
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	before, _ := w.BoneWorld(ents[0], 4)
	// The game writes a NaN root straight into the component, bypassing SetRoot.
	_, root := w.ECS(), (*components.Root)(w.ECS().Get(ents[0], arche.ComponentID[components.Root](w.ECS())))
	root.Pos[0] = float32(math.NaN())
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	after, _ := w.BoneWorld(ents[0], 4)
	if after != before || !mgl32.Vec3(after.Pos).ApproxEqual(before.Pos) {
		t.Fatalf("pose changed under a NaN root: %v -> %v", before.Pos, after.Pos)
	}
	p := (*components.Pose)(w.ECS().Get(ents[0], arche.ComponentID[components.Pose](w.ECS())))
	if p.Faults == 0 {
		t.Fatal("fault not counted")
	}
	// SetRoot itself rejects it with a typed error.
	bad := sway.Identity()
	bad.Pos[1] = float32(math.Inf(1))
	var fe *sway.FieldError
	if err := w.SetRoot(ents[1], bad); !errors.As(err, &fe) || fe.Field != "Root.Pos" {
		t.Fatalf("SetRoot(Inf) = %v", err)
	}
}

func TestStepRejectsBadDt(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, dt := range []float32{-1, float32(math.NaN()), float32(math.Inf(1))} {
		if err := w.Step(dt); !errors.Is(err, sway.ErrInvalid) {
			t.Fatalf("Step(%v) = %v", dt, err)
		}
	}
	if w.Time().Frame != 0 {
		t.Fatal("a rejected Step advanced the clock")
	}
	if err := w.Step(5); err != nil || w.Time().Dt != sway.MaxDt {
		t.Fatalf("hitch: err %v dt %v, want clamp to %v", err, w.Time().Dt, sway.MaxDt)
	}
}

func TestRemoveCharacterReusesStorage(t *testing.T) {
	sc, _ := scene.New(scene.Config{Characters: 100, Seed: 3})
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ents, _ := sc.Populate(w)
	for round := 0; round < 20; round++ {
		for i := round % 2; i < len(ents); i += 2 {
			if err := w.RemoveCharacter(ents[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.RemoveCharacter(ents[round%2]); !errors.Is(err, sway.ErrNotCharacter) {
			t.Fatalf("removing twice: %v", err)
		}
		for i := round % 2; i < len(ents); i += 2 {
			e, err := w.AddCharacter(sc.Skeleton, sc.RootAt(i, 0))
			if err != nil {
				t.Fatal(err)
			}
			ents[i] = e
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	if w.NumCharacters() != 100 {
		t.Fatalf("characters = %d", w.NumCharacters())
	}
	if _, err := w.BoneWorld(ents[0], 85); !errors.Is(err, sway.ErrBone) {
		t.Fatalf("bone 85: %v", err)
	}
}
