package systems

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/fk"
)

// syncFixture is one character of skel in a pool, its locals turned at
// random (fixed seed) and its whole pose stale, with the world pose a
// full forward-kinematics pass gives as the reference.
type syncFixture struct {
	pool      rig.Pool
	skel      *rig.Skeleton
	pose      components.Pose
	root      components.Root
	wantPos   []mgl32.Vec3
	wantRot   []mgl32.Quat
	wantScale []mgl32.Vec3
}

func newSyncFixture(t *testing.T, desc rig.SkeletonDesc) *syncFixture {
	t.Helper()
	skel, err := rig.NewSkeleton(desc)
	if err != nil {
		t.Fatal(err)
	}
	f := &syncFixture{skel: skel}
	n := int32(skel.NumBones())
	f.pool.Alloc(3) // the character does not start at slot 0
	first := f.pool.Alloc(n)
	rng := rand.New(rand.NewSource(7))
	for i := int32(0); i < n; i++ {
		k := first + i
		f.pool.LocalPos[k] = skel.RestPos()[i]
		axis, _ := mathx.SafeNormalize(mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5})
		f.pool.LocalRot[k] = mgl32.QuatRotate(rng.Float32(), axis)
		f.pool.LocalScale[k] = mgl32.Vec3{1, 1.1, 0.9}
	}
	f.pose = components.Pose{First: first, Count: n}
	f.root.Transform = components.Transform{Pos: mgl32.Vec3{1, 2, 3}, Rot: mgl32.QuatRotate(0.3, mgl32.Vec3{0, 1, 0}), Scale: mgl32.Vec3{1, 1, 1}}
	f.pose.MarkAllDirty()
	f.wantPos, f.wantRot, f.wantScale = make([]mgl32.Vec3, n), make([]mgl32.Quat, n), make([]mgl32.Vec3, n)
	a, b := first, first+n
	fk.Run(f.wantPos, f.wantRot, f.wantScale, skel.Parents(), f.pool.LocalPos[a:b], f.pool.LocalRot[a:b], f.pool.LocalScale[a:b],
		f.root.Pos, f.root.Rot, f.root.Scale, 0, int(n))
	return f
}

// agrees reports whether bone i of the pool equals the reference bit for bit.
func (f *syncFixture) agrees(i int32) bool {
	k := f.pose.First + i
	return f.pool.WorldPos[k] == f.wantPos[i] && f.pool.WorldRot[k] == f.wantRot[i] && f.pool.WorldScale[k] == f.wantScale[i]
}

// bodyWithHair is a small depth-first skeleton shaped like the stress
// rig's: the head's hair is stored before the legs and the tail.
func bodyWithHair() rig.SkeletonDesc {
	up := mgl32.Vec3{0, 0.2, 0}
	bones := []rig.BoneDesc{
		rig.Bone("hips", "", mgl32.Vec3{0, 1, 0}),
		rig.Bone("spine", "hips", up), rig.Bone("neck", "spine", up), rig.Bone("head", "neck", up),
		rig.Bone("hair.0", "head", up), rig.Bone("hair.1", "hair.0", up), rig.Bone("hair.2", "hair.1", up), rig.Bone("hair.3", "hair.2", up),
		rig.Bone("upper_leg.L", "hips", mgl32.Vec3{0.1, -0.1, 0}), rig.Bone("lower_leg.L", "upper_leg.L", mgl32.Vec3{0, -0.4, 0}),
		rig.Bone("foot.L", "lower_leg.L", mgl32.Vec3{0, -0.4, 0}),
		rig.Bone("upper_leg.R", "hips", mgl32.Vec3{-0.1, -0.1, 0}), rig.Bone("lower_leg.R", "upper_leg.R", mgl32.Vec3{0, -0.4, 0}),
		rig.Bone("foot.R", "lower_leg.R", mgl32.Vec3{0, -0.4, 0}),
		rig.Bone("tail.0", "hips", mgl32.Vec3{0, 0, -0.1}), rig.Bone("tail.1", "tail.0", mgl32.Vec3{0, 0, -0.1}),
	}
	return rig.SkeletonDesc{Name: "body-with-hair", Bones: bones}
}

func TestEnsurePathComputesTheAncestorsOnly(t *testing.T) {
	f := newSyncFixture(t, bodyWithHair())
	foot := int32(f.skel.Index("foot.L"))
	hair := int32(f.skel.Index("hair.3"))
	lo, hi := f.pose.DirtyLo, f.pose.DirtyHi
	if !EnsurePath(&f.pool, f.skel, &f.pose, &f.root, foot) {
		t.Fatal("EnsurePath reported a non-finite root")
	}
	if f.pose.DirtyLo != lo || f.pose.DirtyHi != hi {
		t.Fatalf("dirty range changed to [%d, %d), want [%d, %d)", f.pose.DirtyLo, f.pose.DirtyHi, lo, hi)
	}
	for b := foot; b >= 0; b = f.skel.Parents()[b] {
		if !f.agrees(b) {
			t.Fatalf("bone %s: world transform differs from the full pass", f.skel.BoneName(int(b)))
		}
	}
	// The hair is stored before the foot but is not its ancestor: left alone.
	if k := f.pose.First + hair; f.pool.WorldRot[k] != (mgl32.Quat{}) {
		t.Fatalf("hair.3 was computed: %v", f.pool.WorldRot[k])
	}
	// The full pass that follows agrees everywhere and cleans the pose.
	if !Sync(&f.pool, f.skel, &f.pose, &f.root) || !f.pose.Clean() {
		t.Fatal("Sync did not clean the pose")
	}
	for b := int32(0); b < f.pose.Count; b++ {
		if !f.agrees(b) {
			t.Fatalf("bone %s differs after Sync", f.skel.BoneName(int(b)))
		}
	}
}

func TestEnsurePathOnACleanOrCurrentBone(t *testing.T) {
	f := newSyncFixture(t, bodyWithHair())
	Sync(&f.pool, f.skel, &f.pose, &f.root)
	head := int32(f.skel.Index("head"))
	// A local edit below the head leaves the head current: nothing to do.
	tail := int32(f.skel.Index("tail.0"))
	f.pose.MarkDirty(tail, f.skel.SubtreeEnd(int(tail)))
	k := f.pose.First + head
	f.pool.WorldPos[k] = mgl32.Vec3{9, 9, 9} // would be overwritten if recomputed
	EnsurePath(&f.pool, f.skel, &f.pose, &f.root, head)
	if f.pool.WorldPos[k] != (mgl32.Vec3{9, 9, 9}) {
		t.Fatal("EnsurePath recomputed a bone before the dirty range")
	}
}

func TestEnsurePathLongerThanItsBufferFallsBack(t *testing.T) {
	desc := rig.SkeletonDesc{Name: "long"}
	parent := ""
	for i := 0; i < 3*maxPath; i++ {
		name := fmt.Sprintf("b%d", i)
		desc.Bones = append(desc.Bones, rig.Bone(name, parent, mgl32.Vec3{0, 0.1, 0}))
		parent = name
	}
	f := newSyncFixture(t, desc)
	tip := f.pose.Count - 1
	if !EnsurePath(&f.pool, f.skel, &f.pose, &f.root, tip) {
		t.Fatal("EnsurePath failed")
	}
	for b := int32(0); b <= tip; b++ {
		if !f.agrees(b) {
			t.Fatalf("bone %d differs from the full pass", b)
		}
	}
}

func TestEnsurePathRefusesANonFiniteRoot(t *testing.T) {
	f := newSyncFixture(t, bodyWithHair())
	head := int32(f.skel.Index("head"))
	f.root.Pos[1] = float32(math.NaN())
	if EnsurePath(&f.pool, f.skel, &f.pose, &f.root, head) {
		t.Fatal("EnsurePath accepted a NaN root")
	}
	if k := f.pose.First + head; f.pool.WorldPos[k] != (mgl32.Vec3{}) {
		t.Fatalf("a NaN root reached the pose: %v", f.pool.WorldPos[k])
	}
}

func TestEnsurePathDoesNotAllocate(t *testing.T) {
	f := newSyncFixture(t, bodyWithHair())
	foot := int32(f.skel.Index("foot.R"))
	if n := testing.AllocsPerRun(100, func() { EnsurePath(&f.pool, f.skel, &f.pose, &f.root, foot) }); n != 0 {
		t.Fatalf("%v allocations per call", n)
	}
}
