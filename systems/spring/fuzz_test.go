package spring

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// FuzzVRMChain: any three-joint chain description is either rejected by
// NewVRMChain with an error or, stepped for a few frames under a moving,
// bounded parent with a sphere collider and any dt, writes finite unit
// local rotations and keeps finite tails.
func FuzzVRMChain(f *testing.F) {
	f.Add(float32(0), float32(0.1), float32(0), float32(1), float32(0.5), float32(0.4), float32(0.02), float32(0),
		float32(0.05), float32(0), float32(0.2), float32(0), float32(1.0/60), float32(0.3))
	f.Add(float32(0), float32(0), float32(0), float32(0), float32(0), float32(1), float32(0), float32(1e-30),
		float32(0), float32(0), float32(0), float32(0), float32(0), float32(-1))
	f.Fuzz(func(t *testing.T, lx, ly, lz, stiffness, gravity, drag, hit, fixedStep, cr, cx, cy, cz, dt, move float32) {
		joint := VRMJointDesc{
			LocalPos: mgl32.Vec3{lx, ly, lz}, LocalRot: mgl32.QuatIdent(),
			Stiffness: stiffness, GravityPower: gravity, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: drag, HitRadius: hit,
		}
		d := VRMChainDesc{Joints: []VRMJointDesc{joint, joint, joint}, FixedStep: fixedStep}
		c, err := NewVRMChain(&d)
		if err != nil {
			return
		}
		for _, v := range []float32{cr, cx, cy, cz, move} {
			if !mathx.IsFinite(v) || v > 1e3 || v < -1e3 {
				return
			}
		}
		if !mathx.IsFinite(dt) {
			return
		}
		s := c.NewState()
		dst := make([]mgl32.Quat, c.Len())
		shapes := []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{cx, cy, cz}, RA: cr}}
		for k := 0; k < 4; k++ {
			parent := mgl32.Vec3{move * float32(k), 1, 0}
			StepVRM(dst, &s, c, parent, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, dt)
			for i, q := range dst {
				if l := q.Len(); !mathx.QuatFinite(q) || l < 0.999 || l > 1.001 {
					t.Fatalf("frame %d joint %d: rotation %v for %+v", k, i, q, d)
				}
			}
			for i := range s.CurTail {
				if !mathx.Vec3Finite(s.CurTail[i]) || !mathx.Vec3Finite(s.PrevTail[i]) {
					t.Fatalf("frame %d joint %d: tails %v %v for %+v", k, i, s.CurTail[i], s.PrevTail[i], d)
				}
			}
		}
	})
}

// FuzzSimpleChain: any two-joint simple spring description is either
// rejected by NewSimpleChain with an error or, reset and stepped for a few
// frames under a moving, bounded parent with any dt, writes finite unit
// local rotations.
func FuzzSimpleChain(f *testing.F) {
	f.Add(float32(0), float32(0.1), float32(0), float32(0), float32(0.05), float32(0), float32(1), float32(0.5), float32(0.2), float32(1.0/60), float32(0.3))
	f.Add(float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(-1))
	f.Fuzz(func(t *testing.T, lx, ly, lz, ex, ey, ez, bounce, stiffness, damping, dt, move float32) {
		joint := SimpleJointDesc{
			LocalPos: mgl32.Vec3{lx, ly, lz}, SpringEnd: mgl32.Vec3{ex, ey, ez},
			Bounciness: bounce, Stiffness: stiffness, Damping: damping,
		}
		d := SimpleChainDesc{Joints: []SimpleJointDesc{joint, joint}}
		c, err := NewSimpleChain(&d)
		if err != nil {
			return
		}
		if !mathx.IsFinite(move) || move > 1e3 || move < -1e3 || !mathx.IsFinite(dt) {
			return
		}
		s := c.NewState()
		anim := []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatIdent()}
		dst := make([]mgl32.Quat, c.Len())
		one := mgl32.Vec3{1, 1, 1}
		ResetSimple(&s, c, anim, mgl32.Vec3{0, 1, 0}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		for k := 0; k < 4; k++ {
			parent := mgl32.Vec3{move * float32(k), 1, 0}
			StepSimple(dst, anim, &s, c, parent, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), dt)
			for i, q := range dst {
				if l := q.Len(); !mathx.QuatFinite(q) || l < 0.999 || l > 1.001 {
					t.Fatalf("frame %d joint %d: rotation %v for %+v dt %v", k, i, q, d, dt)
				}
			}
		}
	})
}
