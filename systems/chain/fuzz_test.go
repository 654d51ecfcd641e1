package chain

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// FuzzChainFrames: any settings Validate accepts, any finite dt and any
// finite character motion give finite particles and a finite pose.
func FuzzChainFrames(f *testing.F) {
	f.Add(float32(0.1), float32(0.1), float32(0.1), float32(0), float32(0), float32(0.01), float32(-0.003), float32(1), float32(1.0/60), float32(0.5), uint8(0))
	f.Add(float32(2), float32(-1), float32(5), float32(3), float32(1), float32(-1), float32(1e6), float32(0), float32(10), float32(1e3), uint8(1))
	f.Add(float32(0), float32(1), float32(1), float32(1), float32(1), float32(0.5), float32(0), float32(0.5), float32(0), float32(-7), uint8(3))
	f.Fuzz(func(t *testing.T, damping, elasticity, stiffness, inert, friction, radius, gravity, weight, dt, move float32, mode uint8) {
		s := DefaultSettings()
		s.Damping, s.Elasticity, s.Stiffness, s.Inert, s.Friction, s.Radius = damping, elasticity, stiffness, inert, friction, radius
		s.Gravity = mgl32.Vec3{0, gravity, 0}
		s.Weight = weight
		s.Mode = StepMode(mode % 2)
		s.Freeze = FreezeAxis(mode / 2 % 4)
		if s.Validate() != nil || !mathx.IsFinite(dt) || !mathx.IsFinite(move) {
			return
		}
		skel := fuzzSkeleton()
		var pool Particles
		var c Chain
		d := Desc{Root: 1, EndLength: 1, Colliders: []int32{0}, Settings: s}
		if err := Build(&pool, &c, &skel, &d); err != nil {
			return
		}
		pose := newFuzzPose(&skel)
		shapes := []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{0, 0.9, 0.05}, RA: 0.05}}
		for frame := 0; frame < 20; frame++ {
			fr := Frame{Dt: dt, ObjectPos: mgl32.Vec3{move * float32(frame), 0, 0}, ObjectRot: mgl32.QuatIdent(), ObjectScale: mgl32.Vec3{1, 1, 1}}
			Update(c.Particles(&pool), &c, pose, shapes, &fr)
			for i, p := range pool.Pos {
				if !mathx.Vec3Finite(p) {
					t.Fatalf("frame %d particle %d = %v (settings %+v dt %v move %v)", frame, i, p, s, dt, move)
				}
			}
			for i, q := range pose.LocalRot {
				if !mathx.QuatFinite(q) {
					t.Fatalf("frame %d bone %d local rotation %v", frame, i, q)
				}
			}
		}
	})
}

// fuzzSkeleton is a root with a four-bone chain hanging down.
func fuzzSkeleton() Skeleton {
	return Skeleton{
		Parent:    []int32{-1, 0, 1, 2, 3},
		RestPos:   []mgl32.Vec3{{0, 1, 0}, {0, 0, 0}, {0, -0.1, 0}, {0, -0.1, 0}, {0, -0.1, 0}},
		RestRot:   []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent()},
		RestScale: []mgl32.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
	}
}

// newFuzzPose is the rest pose of skel with world transforms at the origin.
func newFuzzPose(skel *Skeleton) Pose {
	n := len(skel.Parent)
	p := Pose{LocalPos: append([]mgl32.Vec3(nil), skel.RestPos...), LocalRot: append([]mgl32.Quat(nil), skel.RestRot...),
		WorldPos: make([]mgl32.Vec3, n), WorldRot: make([]mgl32.Quat, n), WorldScale: make([]mgl32.Vec3, n)}
	for i := 0; i < n; i++ {
		p.WorldRot[i], p.WorldScale[i] = mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1}
		if par := skel.Parent[i]; par >= 0 {
			p.WorldPos[i] = p.WorldPos[par].Add(skel.RestPos[i])
		} else {
			p.WorldPos[i] = skel.RestPos[i]
		}
	}
	return p
}
