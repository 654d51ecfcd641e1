package sway_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/internal/store"
)

// plainWorld builds n stress-rig characters with the default pipeline and
// nothing else: the animated (here: rest) pose.
func plainWorld(t testing.TB, n, workers int) (*sway.World, []arche.Entity, *scene.Scene) {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: n, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	return w, ents, sc
}

// chainWorld builds n stress-rig characters with the standard chains.
func chainWorld(t testing.TB, n, workers int) (*sway.World, []arche.Entity, *scene.Scene) {
	t.Helper()
	w, ents, sc := plainWorld(t, n, workers)
	if err := sc.AddChains(w, ents, 9); err != nil {
		t.Fatal(err)
	}
	return w, ents, sc
}

func stepMoving(t testing.TB, w *sway.World, ents []arche.Entity, sc *scene.Scene, from, frames int) {
	t.Helper()
	for f := from; f < from+frames; f++ {
		if err := sc.MoveRoots(w, ents, float64(f+1)/60); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
}

func bonePos(t testing.TB, w *sway.World, e arche.Entity, skel *sway.Skeleton, name string) mgl32.Vec3 {
	t.Helper()
	tr, err := w.BoneWorld(e, skel.Index(name))
	if err != nil {
		t.Fatal(err)
	}
	return tr.Pos
}

func TestChainsSwingWhenTheCharacterMoves(t *testing.T) {
	w, ents, sc := chainWorld(t, 4, 2)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 90)
	// The hair tip lags behind: it is away from where the animated (rest)
	// pose puts it relative to the moving root.
	root, _ := w.Root(ents[0])
	tip := bonePos(t, w, ents[0], sc.Skeleton, "hair3.5")
	animated := root.Pos.Add(root.Rot.Rotate(sc.Skeleton.ModelPos()[sc.Skeleton.Index("hair3.5")]))
	if d := tip.Sub(animated).Len(); d < 0.005 {
		t.Fatalf("hair tip %.4f m from the animated pose: the chain did not swing", d)
	}
	for _, e := range ents {
		p, _ := w.Pose(e)
		for i, v := range p.WorldPos {
			if !finite3(v) || !finite4(p.WorldRot[i]) {
				t.Fatalf("bone %d not finite: %v %v", i, v, p.WorldRot[i])
			}
		}
	}
}

func TestChainSettlesToRestLengthUnderGravity(t *testing.T) {
	w, ents, sc := chainWorld(t, 1, 1)
	defer w.Close()
	for f := 0; f < 600; f++ { // the character stands still
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	skel := sc.Skeleton
	for j := 1; j < scene.HairLength; j++ {
		a := bonePos(t, w, ents[0], skel, fmt.Sprintf("hair2.%d", j-1))
		b := bonePos(t, w, ents[0], skel, fmt.Sprintf("hair2.%d", j))
		rest := skel.RestPos()[skel.Index(fmt.Sprintf("hair2.%d", j))].Len()
		if d := b.Sub(a).Len(); math.Abs(float64(d-rest)) > 1e-4 {
			t.Fatalf("segment %d: length %.6f, rest %.6f", j, d, rest)
		}
	}
}

func TestChainWeightZeroAndPauseShowTheAnimatedPoseExactly(t *testing.T) {
	ref, refEnts, sc := plainWorld(t, 3, 1) // no chains: the animated pose
	defer ref.Close()
	w, ents, _ := chainWorld(t, 3, 1)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 30)
	// Weight 0 on every chain of character 0, pause character 1.
	for i := 0; i < w.Chains().Of(ents[0]).Len(); i++ {
		s, _ := w.Chains().Of(ents[0]).Settings(i)
		s.Weight = 0
		if err := w.Chains().Of(ents[0]).SetSettings(i, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Chains().Of(ents[1]).Pause(); err != nil {
		t.Fatal(err)
	}
	stepMoving(t, w, ents, sc, 30, 1)
	stepMoving(t, ref, refEnts, sc, 0, 31)
	for _, k := range []int{0, 1} {
		a, _ := ref.Pose(refEnts[k])
		b, _ := w.Pose(ents[k])
		for i := range a.WorldPos {
			if a.WorldPos[i] != b.WorldPos[i] || a.WorldRot[i] != b.WorldRot[i] {
				t.Fatalf("character %d bone %d differs from the animated pose", k, i)
			}
		}
	}
	// Character 2 still simulates.
	a, _ := ref.Pose(refEnts[2])
	b, _ := w.Pose(ents[2])
	if a.WorldPos[sc.Skeleton.Index("hair0.5")] == b.WorldPos[sc.Skeleton.Index("hair0.5")] {
		t.Fatal("character 2's hair did not simulate")
	}
}

func TestChainTeleportResets(t *testing.T) {
	w, ents, sc := chainWorld(t, 1, 1)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 60)
	root, _ := w.Root(ents[0])
	root.Pos = root.Pos.Add(mgl32.Vec3{50, 0, 0})
	if err := w.SetRoot(ents[0], root); err != nil {
		t.Fatal(err)
	}
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	// Reset to the animated pose, then at most one step of gravity: the tip
	// is within a few millimetres of the animated pose, not 50 m behind.
	tip := bonePos(t, w, ents[0], sc.Skeleton, "hair0.5")
	animated := root.Pos.Add(root.Rot.Rotate(sc.Skeleton.ModelPos()[sc.Skeleton.Index("hair0.5")]))
	if d := tip.Sub(animated).Len(); d > 0.02 {
		t.Fatalf("after a 50 m teleport the tip is %.3f m from the animated pose", d)
	}
}

func TestChainsStayOutOfTheHeadSphere(t *testing.T) {
	w, ents, sc := chainWorld(t, 2, 2)
	defer w.Close()
	skel := sc.Skeleton
	sphere := scene.Colliders()[0].Shape
	for f := 0; f < 240; f++ {
		stepMoving(t, w, ents, sc, f, 1)
		for _, e := range ents {
			head, _ := w.BoneWorld(e, skel.Index("head"))
			centre := head.Pos.Add(head.Rot.Rotate(sphere.Offset))
			for k := 0; k < scene.HairChains; k++ {
				for j := 1; j < scene.HairLength; j++ {
					p := bonePos(t, w, e, skel, fmt.Sprintf("hair%d.%d", k, j))
					if d := p.Sub(centre).Len(); d < sphere.Radius+0.005-1e-4 {
						t.Fatalf("frame %d: hair%d.%d is %.4f from the head centre (radius %.3f + 0.005)", f, k, j, d, sphere.Radius)
					}
				}
			}
		}
	}
}

func TestChainsBitIdenticalForAnyWorkerCount(t *testing.T) {
	var sums []uint64
	for _, workers := range []int{1, 3} {
		w, ents, sc := chainWorld(t, 50, workers)
		stepMoving(t, w, ents, sc, 0, 40)
		sums = append(sums, w.Checksum())
		w.Close()
	}
	if sums[0] != sums[1] {
		t.Fatalf("checksums differ: %x (1 worker) vs %x (3 workers)", sums[0], sums[1])
	}
}

func TestChainStepDoesNotAllocate(t *testing.T) {
	w, ents, sc := chainWorld(t, 100, 2)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 5)
	f := 5
	allocs := testing.AllocsPerRun(30, func() {
		f++
		stepMoving(t, w, ents, sc, f, 1)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame with chains", allocs)
	}
}

func TestRemovingCharactersLeavesOthersUntouched(t *testing.T) {
	// Character 3's motion must not depend on its neighbours being removed.
	a, entsA, sc := chainWorld(t, 6, 2)
	defer a.Close()
	b, entsB, _ := chainWorld(t, 6, 2)
	defer b.Close()
	stepMoving(t, a, entsA, sc, 0, 20)
	stepMoving(t, b, entsB, sc, 0, 20)
	for _, k := range []int{0, 2, 5} {
		if err := b.RemoveCharacter(entsB[k]); err != nil {
			t.Fatal(err)
		}
	}
	stepMoving(t, a, entsA, sc, 20, 20)
	stepMoving(t, b, []arche.Entity{entsB[1], entsB[3], entsB[4]}, sc, 20, 0)
	for f := 20; f < 40; f++ { // move the survivors as in world a
		for _, k := range []int{1, 3, 4} {
			_ = b.SetRoot(entsB[k], sc.RootAt(k, float64(f+1)/60))
		}
		if err := b.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	pa, _ := a.Pose(entsA[3])
	pb, _ := b.Pose(entsB[3])
	for i := range pa.WorldPos {
		if pa.WorldPos[i] != pb.WorldPos[i] {
			t.Fatalf("bone %d of a surviving character changed after its neighbours were removed", i)
		}
	}
	if b.Chains().Of(entsB[3]).Len() != 11 {
		t.Fatalf("survivor has %d chains", b.Chains().Of(entsB[3]).Len())
	}
}

func TestAddChainsRejectsBadSpecs(t *testing.T) {
	w, ents, _ := plainWorld(t, 2, 1)
	defer w.Close()
	good := scene.ChainSpecs(newRand(1))
	var fe *sway.FieldError
	bad := append([]sway.ChainSpec(nil), good...)
	bad[0].Root = "ponytail"
	if _, err := w.Chains().Add(ents[0], scene.Colliders(), bad); !errors.As(err, &fe) || fe.Field != "[0].Root" {
		t.Fatalf("unknown root: %v", err)
	}
	bad = append([]sway.ChainSpec(nil), good...)
	bad[1].Colliders = []int{7}
	if _, err := w.Chains().Add(ents[0], scene.Colliders(), bad); !errors.As(err, &fe) || fe.Field != "[1].Colliders" {
		t.Fatalf("collider index: %v", err)
	}
	bad = append([]sway.ChainSpec(nil), good...)
	bad[2].Settings.Damping = float32(math.NaN())
	if _, err := w.Chains().Add(ents[0], scene.Colliders(), bad); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("NaN damping: %v", err)
	}
	cols := scene.Colliders()
	cols[0].Shape.Radius = -1
	if _, err := w.Chains().Add(ents[0], cols, good); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("negative radius: %v", err)
	}
	if _, err := w.Chains().Add(ents[0], scene.Colliders(), good); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Chains().Add(ents[0], scene.Colliders(), good); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("second Chains.Add: %v", err)
	}
	s, _ := w.Chains().Of(ents[0]).Settings(0)
	s.Stiffness = float32(math.Inf(1))
	if err := w.Chains().Of(ents[0]).SetSettings(0, s); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("Inf stiffness edit: %v", err)
	}
	if err := w.Chains().Of(ents[0]).SetSettings(99, s); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("chain 99: %v", err)
	}
}

func TestNonFiniteParticlesResetTheChain(t *testing.T) {
	// Nine characters: eight stepped and applied side by side, one
	// alone.
	w, ents, sc := chainWorld(t, 9, 2)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 10)
	// Corrupt one particle of the first chain of character 1 (side by
	// side) and of character 8 (alone), as a blow-up would.
	st := arche.GetResource[store.ChainStore](w.ECS())
	for _, k := range []int{1, 8} {
		c := st.Chains[11*k] // each character has eleven chains
		st.Particles.Pos[c.First+3][1] = float32(math.NaN())
	}
	stepMoving(t, w, ents, sc, 10, 1)
	for k, e := range ents {
		want := uint32(0)
		if k == 1 || k == 8 {
			want = 1
		}
		if n, _ := w.Chains().Of(e).Faults(); n != want {
			t.Fatalf("character %d: faults = %d, want %d", k, n, want)
		}
	}
	stepMoving(t, w, ents, sc, 11, 30)
	for _, e := range ents {
		p, _ := w.Pose(e)
		for i := range p.WorldPos {
			if !finite3(p.WorldPos[i]) || !finite4(p.WorldRot[i]) {
				t.Fatalf("bone %d not finite after the reset", i)
			}
		}
	}
	for _, k := range []int{1, 8} {
		if n, _ := w.Chains().Of(ents[k]).Faults(); n != 1 {
			t.Fatalf("character %d's chain did not recover: faults = %d", k, n)
		}
	}
}

func TestCharactersOfOneRigShareTheirChainsRestData(t *testing.T) {
	one, _, _ := chainWorld(t, 1, 1)
	defer one.Close()
	w, ents, sc := chainWorld(t, 5, 2)
	defer w.Close()
	st1 := arche.GetResource[store.ChainStore](one.ECS())
	st := arche.GetResource[store.ChainStore](w.ECS())
	perChar := st1.Particles.Len()
	if perChar == 0 || len(st1.Rest.Bone) != perChar {
		t.Fatalf("one character: %d particles, %d rest records", perChar, len(st1.Rest.Bone))
	}
	if st.Particles.Len() != 5*perChar {
		t.Fatalf("5 characters hold %d particles, want %d", st.Particles.Len(), 5*perChar)
	}
	if len(st.Rest.Bone) != perChar {
		t.Fatalf("5 characters of one rig keep %d rest records, want one character's %d", len(st.Rest.Bone), perChar)
	}
	// Every character's view reads the same rest data as the lone one.
	for k := range st.Chains {
		got, want := st.View(k), st1.View(k%len(st1.Chains))
		for i := range want.Bone {
			if got.Bone[i] != want.Bone[i] || got.Parent[i] != want.Parent[i] || got.Local[i] != want.Local[i] {
				t.Fatalf("chain %d particle %d: rest data differ from the lone character's", k, i)
			}
		}
	}
	// Removal compacts the simulation data only; the shared rest data stay
	// and the survivors' views stay right.
	stepMoving(t, w, ents, sc, 0, 5)
	if err := w.RemoveCharacter(ents[1]); err != nil {
		t.Fatal(err)
	}
	stepMoving(t, w, []arche.Entity{ents[0], ents[2], ents[3], ents[4]}, sc, 5, 2)
	if st.Particles.Len() != 4*perChar || len(st.Rest.Bone) != perChar {
		t.Fatalf("after a removal: %d particles, %d rest records", st.Particles.Len(), len(st.Rest.Bone))
	}
	for k := range st.Chains {
		if got, want := st.View(k).Bone, st1.View(k%len(st1.Chains)).Bone; got[len(got)-1] != want[len(want)-1] {
			t.Fatalf("chain %d: view after compaction reads another shape", k)
		}
	}
}

// After a frame the world pose is forward kinematics of the locals, within
// rounding, for every bone: the chains write their bones' world pose
// themselves, and bones under a chain that are not its particles (here the
// tail's last three, excluded) are recomputed from it. Nine characters:
// eight applied side by side and one alone.
func TestChainsLeaveTheWorldPoseCurrent(t *testing.T) {
	w, ents, sc := plainWorld(t, 9, 2)
	defer w.Close()
	rng := rand.New(rand.NewSource(3))
	for _, e := range ents {
		specs := scene.ChainSpecs(rng)
		tail := &specs[len(specs)-1]
		tail.Exclusions = []string{"tail.5"}
		if _, err := w.Chains().Add(e, scene.Colliders(), specs); err != nil {
			t.Fatal(err)
		}
	}
	skel := sc.Skeleton
	parents := skel.Parents()
	excluded := skel.Index("tail.6")
	start := make([]mgl32.Vec3, len(ents))
	for k, e := range ents {
		start[k] = bonePos(t, w, e, skel, "tail.6")
	}
	stepMoving(t, w, ents, sc, 0, 40)
	for k, e := range ents {
		p, err := w.Pose(e)
		if err != nil {
			t.Fatal(err)
		}
		for b, pb := range parents {
			if pb < 0 {
				continue
			}
			wantPos := p.WorldPos[pb].Add(p.WorldRot[pb].Rotate(mul3(p.WorldScale[pb], p.LocalPos[b])))
			wantRot := p.WorldRot[pb].Mul(p.LocalRot[b])
			tol := 2e-5 * (1 + p.WorldPos[b].Len())
			if d := p.WorldPos[b].Sub(wantPos).Len(); d > tol {
				t.Fatalf("character %d bone %s: world position %v, forward kinematics %v (off by %g)",
					k, skel.BoneName(b), p.WorldPos[b], wantPos, d)
			}
			// Components compared absolutely: a relative test fails on
			// rounding in a component near zero.
			if quatDist(p.WorldRot[b], wantRot) > 2e-5 {
				t.Fatalf("character %d bone %s: world rotation %v, forward kinematics %v", k, skel.BoneName(b), p.WorldRot[b], wantRot)
			}
		}
		if p.WorldPos[excluded] == start[k] {
			t.Fatalf("character %d: the excluded tail bone did not move; the test proves nothing", k)
		}
	}
}

func mul3(a, b mgl32.Vec3) mgl32.Vec3 { return mgl32.Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }
