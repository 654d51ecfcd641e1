package fk

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// Job computes world transforms of bones [Lo, Hi) of one character.
type Job struct {
	// Inputs.
	Parents    []int32 // parent of each bone, -1 for roots; parent[i] < i
	LocalPos   []mgl32.Vec3
	LocalRot   []mgl32.Quat
	LocalScale []mgl32.Vec3
	RootPos    mgl32.Vec3 // the character root's world transform
	RootRot    mgl32.Quat
	RootScale  mgl32.Vec3
	Lo, Hi     int // bone range to compute; bones before Lo are current
	// Order, when set, replaces the range: every bone it lists is computed
	// in its order, which must put parents first (Skeleton.LevelOrder).
	Order []int32

	// Outputs (also read: the world transforms of parents before Lo).
	WorldPos   []mgl32.Vec3
	WorldRot   []mgl32.Quat
	WorldScale []mgl32.Vec3
}

// Validate reports a job whose slices or range do not fit together. Run
// on a job that Validate accepts cannot index out of range.
func (j *Job) Validate() error {
	n := len(j.Parents)
	if n > MaxBones {
		return fmt.Errorf("fk: %d bones, more than MaxBones (%d)", n, MaxBones)
	}
	for name, l := range map[string]int{
		"LocalPos": len(j.LocalPos), "LocalRot": len(j.LocalRot), "LocalScale": len(j.LocalScale),
		"WorldPos": len(j.WorldPos), "WorldRot": len(j.WorldRot), "WorldScale": len(j.WorldScale),
	} {
		if l != n {
			return fmt.Errorf("fk: len(%s) = %d, want len(Parents) = %d", name, l, n)
		}
	}
	if j.Lo < 0 || j.Hi > n || j.Lo > j.Hi {
		return fmt.Errorf("fk: range [%d, %d) outside [0, %d)", j.Lo, j.Hi, n)
	}
	for i, p := range j.Parents {
		if p >= int32(i) || p < -1 {
			return fmt.Errorf("fk: Parents[%d] = %d, want -1 <= parent < %d", i, p, i)
		}
	}
	if j.Order != nil {
		done := make([]bool, n)
		for k, b := range j.Order {
			if b < 0 || int(b) >= n || done[b] {
				return fmt.Errorf("fk: Order[%d] = %d is out of range or repeated", k, b)
			}
			if p := j.Parents[b]; p >= 0 && !done[p] {
				return fmt.Errorf("fk: Order[%d] = %d comes before its parent %d", k, b, p)
			}
			done[b] = true
		}
	}
	return nil
}

// Run computes the world transforms of bones [Lo, Hi), or of the bones in
// Order when it is set.
func (j *Job) Run() {
	if j.Order != nil {
		RunOrder(j.WorldPos, j.WorldRot, j.WorldScale, j.Parents, j.LocalPos, j.LocalRot, j.LocalScale,
			j.RootPos, j.RootRot, j.RootScale, j.Order)
		return
	}
	Run(j.WorldPos, j.WorldRot, j.WorldScale, j.Parents, j.LocalPos, j.LocalRot, j.LocalScale,
		j.RootPos, j.RootRot, j.RootScale, j.Lo, j.Hi)
}

// MaxBones is the largest skeleton the kernels accept.
const MaxBones = check.MaxBones

// storageOrder is 0, 1, 2, ...: Run's schedule, so that one loop serves
// both ranges and level orders.
var storageOrder = func() (s [MaxBones]int32) {
	for i := range s {
		s[i] = int32(i)
	}
	return s
}()

// StorageOrder returns the schedule lo, lo+1, ..., hi-1 (a shared,
// read-only slice) for RunOrder.
func StorageOrder(lo, hi int) []int32 { return storageOrder[lo:hi] }

// Run computes the world transforms of bones [lo, hi) in storage order,
// destinations first, for callers that keep their slices in their own
// structures. Bones before lo must be current.
func Run(worldPos []mgl32.Vec3, worldRot []mgl32.Quat, worldScale []mgl32.Vec3,
	parents []int32, localPos []mgl32.Vec3, localRot []mgl32.Quat, localScale []mgl32.Vec3,
	rootPos mgl32.Vec3, rootRot mgl32.Quat, rootScale mgl32.Vec3, lo, hi int) {
	if lo >= hi {
		return
	}
	RunOrder(worldPos, worldRot, worldScale, parents, localPos, localRot, localScale,
		rootPos, rootRot, rootScale, storageOrder[lo:hi])
}

// RunOrder computes the world transforms of the bones listed in order,
// which must put every parent before its children. A breadth-first order
// (Skeleton.LevelOrder) runs faster than storage order on chains: a bone
// of a chain needs the one before it, so in storage order every bone
// waits for the previous result, while in level order neighbours are
// independent and the CPU overlaps them (see BenchmarkRunChain). On amd64
// the kernel is SSE assembly (kernel_amd64.s) that gives the Go kernel's
// bits; build with the purego tag for the Go one.
func RunOrder(worldPos []mgl32.Vec3, worldRot []mgl32.Quat, worldScale []mgl32.Vec3,
	parents []int32, localPos []mgl32.Vec3, localRot []mgl32.Quat, localScale []mgl32.Vec3,
	rootPos mgl32.Vec3, rootRot mgl32.Quat, rootScale mgl32.Vec3, order []int32) {
	runOrder(worldPos, worldRot, worldScale, parents, localPos, localRot, localScale,
		rootPos, rootRot, rootScale, order)
}
