package fk

import (
	"math/rand"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// randomJob builds a random skeleton of n bones (parent[i] < i) with uniform
// per-bone scale, so the matrix reference below has no shear either.
func randomJob(rng *rand.Rand, n int) *Job {
	j := &Job{
		Parents:  make([]int32, n),
		LocalPos: make([]mgl32.Vec3, n), LocalRot: make([]mgl32.Quat, n), LocalScale: make([]mgl32.Vec3, n),
		WorldPos: make([]mgl32.Vec3, n), WorldRot: make([]mgl32.Quat, n), WorldScale: make([]mgl32.Vec3, n),
		RootPos: mgl32.Vec3{1, 2, 3}, RootRot: mgl32.QuatRotate(0.7, mgl32.Vec3{0, 1, 0}), RootScale: mgl32.Vec3{1.5, 1.5, 1.5},
		Hi: n,
	}
	for i := 0; i < n; i++ {
		j.Parents[i] = int32(rng.Intn(i+1)) - 1
		j.LocalPos[i] = mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}
		axis := mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}.Normalize()
		j.LocalRot[i] = mgl32.QuatRotate(rng.Float32()*6, axis)
		s := 0.5 + rng.Float32()
		j.LocalScale[i] = mgl32.Vec3{s, s, s}
	}
	return j
}

func trs(p mgl32.Vec3, r mgl32.Quat, s mgl32.Vec3) mgl32.Mat4 {
	return mgl32.Translate3D(p[0], p[1], p[2]).Mul4(r.Mat4()).Mul4(mgl32.Scale3D(s[0], s[1], s[2]))
}

func TestRunMatchesMatrixReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	j := randomJob(rng, 85)
	if err := j.Validate(); err != nil {
		t.Fatal(err)
	}
	j.Run()
	ref := make([]mgl32.Mat4, len(j.Parents))
	root := trs(j.RootPos, j.RootRot, j.RootScale)
	for i, p := range j.Parents {
		parent := root
		if p >= 0 {
			parent = ref[p]
		}
		ref[i] = parent.Mul4(trs(j.LocalPos[i], j.LocalRot[i], j.LocalScale[i]))
		got := trs(j.WorldPos[i], j.WorldRot[i], j.WorldScale[i])
		for k := range got {
			if d := got[k] - ref[i][k]; d > 1e-4 || d < -1e-4 {
				t.Fatalf("bone %d: world matrix\n%v\nwant\n%v", i, got, ref[i])
			}
		}
	}
}

func TestRunSubrangeEqualsFullPass(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	j := randomJob(rng, 40)
	j.Run()
	// Change bone 17's local rotation; recompute only its stale range.
	j.LocalRot[17] = mgl32.QuatRotate(1.1, mgl32.Vec3{1, 0, 0})
	full := *j
	full.WorldPos = append([]mgl32.Vec3(nil), j.WorldPos...)
	full.WorldRot = append([]mgl32.Quat(nil), j.WorldRot...)
	full.WorldScale = append([]mgl32.Vec3(nil), j.WorldScale...)
	full.Lo, full.Hi = 0, 40
	full.Run()
	j.Lo, j.Hi = 17, 40
	j.Run()
	for i := range j.WorldPos {
		if j.WorldPos[i] != full.WorldPos[i] || j.WorldRot[i] != full.WorldRot[i] {
			t.Fatalf("bone %d differs after partial pass", i)
		}
	}
}

// levelOrder is a breadth-first schedule of parents, as Skeleton.LevelOrder.
func levelOrder(parents []int32) []int32 {
	depth := make([]int, len(parents))
	maxDepth := 0
	for i, p := range parents {
		if p >= 0 {
			depth[i] = depth[p] + 1
			maxDepth = max(maxDepth, depth[i])
		}
	}
	var order []int32
	for d := 0; d <= maxDepth; d++ {
		for i := range parents {
			if depth[i] == d {
				order = append(order, int32(i))
			}
		}
	}
	return order
}

func TestRunOrderMatchesStorageOrderBitForBit(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	a := randomJob(rng, 85)
	a.Run()
	b := *a
	b.WorldPos, b.WorldRot, b.WorldScale = make([]mgl32.Vec3, 85), make([]mgl32.Quat, 85), make([]mgl32.Vec3, 85)
	b.Order = levelOrder(b.Parents)
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	b.Run()
	for i := range a.WorldPos {
		if a.WorldPos[i] != b.WorldPos[i] || a.WorldRot[i] != b.WorldRot[i] || a.WorldScale[i] != b.WorldScale[i] {
			t.Fatalf("bone %d differs between storage and level order", i)
		}
	}
}

func TestValidateRejectsBadOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	j := randomJob(rng, 6)
	j.Parents = []int32{-1, 0, 1, 2, 0, 4}
	j.Order = []int32{0, 2, 1, 3, 4, 5} // 2 before its parent 1
	if j.Validate() == nil {
		t.Fatal("child scheduled before its parent accepted")
	}
	j.Order = []int32{0, 1, 1, 3, 4, 5}
	if j.Validate() == nil {
		t.Fatal("repeated bone accepted")
	}
	j.Order = []int32{0, 1, 4, 2, 5, 3}
	if err := j.Validate(); err != nil {
		t.Fatalf("valid order rejected: %v", err)
	}
}

func TestRunZeroLengthBone(t *testing.T) {
	j := &Job{
		Parents:    []int32{-1, 0, 1},
		LocalPos:   []mgl32.Vec3{{0, 1, 0}, {}, {0, 1, 0}},
		LocalRot:   []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatRotate(mgl32.DegToRad(90), mgl32.Vec3{0, 0, 1}), mgl32.QuatIdent()},
		LocalScale: []mgl32.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
		RootRot:    mgl32.QuatIdent(), RootScale: mgl32.Vec3{1, 1, 1},
		WorldPos: make([]mgl32.Vec3, 3), WorldRot: make([]mgl32.Quat, 3), WorldScale: make([]mgl32.Vec3, 3),
		Hi: 3,
	}
	j.Run()
	// The zero-length bone sits on its parent and still turns its child.
	if j.WorldPos[1] != j.WorldPos[0] {
		t.Fatalf("zero-length bone moved: %v", j.WorldPos[1])
	}
	if got := j.WorldPos[2]; !got.ApproxEqualThreshold(mgl32.Vec3{-1, 1, 0}, 1e-6) {
		t.Fatalf("child of zero-length bone at %v, want (-1,1,0)", got)
	}
}

func TestValidateRejectsBadJobs(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	j := randomJob(rng, 5)
	j.WorldRot = j.WorldRot[:4]
	if j.Validate() == nil {
		t.Fatal("short WorldRot accepted")
	}
	j = randomJob(rng, 5)
	j.Parents[2] = 3
	if j.Validate() == nil {
		t.Fatal("child-before-parent accepted")
	}
	j = randomJob(rng, 5)
	j.Lo, j.Hi = 3, 9
	if j.Validate() == nil {
		t.Fatal("range past the end accepted")
	}
}

func TestRunDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	j := randomJob(rng, 85)
	if a := testing.AllocsPerRun(100, j.Run); a != 0 {
		t.Fatalf("Run allocates %v times", a)
	}
}

// BenchmarkRunChain shows why full passes use a level order: on ten
// parallel chains, storage order makes every bone wait for the previous one.
func BenchmarkRunChain(b *testing.B) {
	j := randomJob(rand.New(rand.NewSource(8)), 80)
	for i := range j.Parents { // ten chains of eight bones
		if i%8 == 0 {
			j.Parents[i] = -1
		} else {
			j.Parents[i] = int32(i - 1)
		}
	}
	for _, sched := range []string{"storage", "level"} {
		b.Run("order="+sched, func(b *testing.B) {
			j.Order = nil
			if sched == "level" {
				j.Order = levelOrder(j.Parents)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				j.Run()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*80), "ns/bone")
		})
	}
}

func BenchmarkRun(b *testing.B) {
	for _, n := range []int{21, 85} {
		b.Run("bones="+strconv.Itoa(n), func(b *testing.B) {
			j := randomJob(rand.New(rand.NewSource(5)), n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				j.Run()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/bone")
		})
	}
}
