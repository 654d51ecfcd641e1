package bench

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems/fk"
)

// charPose is the rejected layout: every character owns its own six heap
// slices, allocated among other objects as a game would.
type charPose struct {
	localPos, localScale, worldPos, worldScale []mgl32.Vec3
	localRot, worldRot                         []mgl32.Quat
}

// BenchmarkLayout compares the pose pool (one contiguous array per field
// for all characters) with per-character heap slices, on the FK pass of
// the stress rig, single-threaded. docs/architecture.md quotes it.
func BenchmarkLayout(b *testing.B) {
	const chars = 10000
	sc, err := scene.New(scene.Config{Characters: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	skel := sc.Skeleton
	n := skel.NumBones()
	root := sc.RootAt(0, 0)

	b.Run(fmt.Sprintf("pooled/chars=%d", chars), func(b *testing.B) {
		var pool rig.Pool
		for c := 0; c < chars; c++ {
			f := pool.Alloc(int32(n))
			copy(pool.LocalPos[f:], skel.RestPos())
			copy(pool.LocalRot[f:], skel.RestRot())
			copy(pool.LocalScale[f:], skel.RestScale())
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for c := 0; c < chars; c++ {
				a, e := c*n, c*n+n
				fk.Run(pool.WorldPos[a:e], pool.WorldRot[a:e], pool.WorldScale[a:e], skel.Parents(),
					pool.LocalPos[a:e], pool.LocalRot[a:e], pool.LocalScale[a:e], root.Pos, root.Rot, root.Scale, 0, n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chars*n), "ns/bone")
	})

	b.Run(fmt.Sprintf("scattered/chars=%d", chars), func(b *testing.B) {
		rng := rand.New(rand.NewSource(1))
		poses := make([]*charPose, chars)
		var ballast [][]byte // other allocations between the characters' slices
		for c := range poses {
			p := &charPose{}
			mk3 := func(src []mgl32.Vec3) []mgl32.Vec3 {
				ballast = append(ballast, make([]byte, 64+rng.Intn(2048)))
				return append([]mgl32.Vec3(nil), src...)
			}
			mkq := func(src []mgl32.Quat) []mgl32.Quat {
				ballast = append(ballast, make([]byte, 64+rng.Intn(2048)))
				return append([]mgl32.Quat(nil), src...)
			}
			p.localPos, p.localRot, p.localScale = mk3(skel.RestPos()), mkq(skel.RestRot()), mk3(skel.RestScale())
			p.worldPos, p.worldRot, p.worldScale = mk3(skel.RestPos()), mkq(skel.RestRot()), mk3(skel.RestScale())
			poses[c] = p
		}
		// Visit characters in a shuffled order, as entity order drifts
		// from allocation order in a long-running game.
		order := rng.Perm(chars)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, c := range order {
				p := poses[c]
				fk.Run(p.worldPos, p.worldRot, p.worldScale, skel.Parents(),
					p.localPos, p.localRot, p.localScale, root.Pos, root.Rot, root.Scale, 0, n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chars*n), "ns/bone")
		_ = ballast
	})
}
