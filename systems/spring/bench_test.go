package spring

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

type rigChain struct {
	chain *VRMChain
	pos   mgl32.Vec3 // parent bone position in the character
}

var stressColliders = []collide.Desc{
	collide.NewSphere(mgl32.Vec3{0, 1.6, 0}, 0.1),                                          // head
	collide.NewCapsule(mgl32.Vec3{0.18, 1.42, 0}, mgl32.Vec3{0.45, 1.42, 0}, 0.05, 0.05),   // left upper arm
	collide.NewCapsule(mgl32.Vec3{-0.18, 1.42, 0}, mgl32.Vec3{-0.45, 1.42, 0}, 0.05, 0.05), // right upper arm
}

// stressRig lays out the stress rig's 62 spring joints: 8 hair chains of 6
// around the head, 2 ears of 3 on top, a tail of 8 at the hips; stiffness
// 1, gravityPower 0.5, dragForce 0.4, hitRadius 0.02. It returns the chains
// and the colliders at the character's rest placement.
func stressRig(tb testing.TB) ([]rigChain, []collide.Shape) {
	tb.Helper()
	tmpl := VRMJointDesc{Stiffness: 1, GravityPower: 0.5, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.4, HitRadius: 0.02}
	build := func(start, dir mgl32.Vec3, n int, l float32) *VRMChain {
		dir = mathx.NormalizeOr(dir, mgl32.Vec3{0, 1, 0})
		d := VRMChainDesc{HasTail: true, Tail: dir.Mul(l)}
		for i := range n {
			j := tmpl
			j.LocalRot = mgl32.QuatIdent()
			j.LocalPos = start
			if i > 0 {
				j.LocalPos = dir.Mul(l)
			}
			d.Joints = append(d.Joints, j)
		}
		c, err := NewVRMChain(&d)
		if err != nil {
			tb.Fatal(err)
		}
		return c
	}
	head, hips := mgl32.Vec3{0, 1.6, 0}, mgl32.Vec3{0, 1.0, 0}
	var rig []rigChain
	for k := range 8 {
		a := float64(k) * 2 * math.Pi / 8
		c, s := float32(math.Cos(a)), float32(math.Sin(a))
		rig = append(rig, rigChain{build(mgl32.Vec3{0.09 * c, 0.05, 0.09 * s}, mgl32.Vec3{0.3 * c, -1, 0.3 * s}, 6, 0.05), head})
	}
	for _, x := range []float32{-0.06, 0.06} {
		rig = append(rig, rigChain{build(mgl32.Vec3{x, 0.09, 0}, mgl32.Vec3{0, 1, 0}, 3, 0.04), head})
	}
	rig = append(rig, rigChain{build(mgl32.Vec3{0, 0, -0.1}, mgl32.Vec3{0, -0.3, -1}, 8, 0.08), hips})
	shapes := make([]collide.Shape, len(stressColliders))
	for k := range stressColliders {
		collide.ToWorld(&shapes[k], &stressColliders[k], mgl32.Vec3{}, mgl32.QuatIdent(), one)
	}
	return rig, shapes
}

func TestStressRigHas62Joints(t *testing.T) {
	rig, _ := stressRig(t)
	n := 0
	for _, c := range rig {
		n += c.chain.Len()
	}
	if n != 62 || len(rig) != 11 {
		t.Fatalf("stress rig: %d joints in %d chains, want 62 in 11", n, len(rig))
	}
}

// benchPath is the stress benchmarks' character motion: a fixed-seed
// jitter on a sine path while the character turns.
func benchPath() []benchPose {
	rng := rand.New(rand.NewSource(7))
	path := make([]benchPose, 256)
	for f := range path {
		t := float64(f) / 60
		path[f] = benchPose{
			mgl32.Vec3{float32(0.3*math.Sin(2*math.Pi*t)) + 0.01*rng.Float32(), 0, 0},
			mgl32.QuatRotate(float32(0.5*math.Sin(3*t)), mgl32.Vec3{0, 1, 0}),
		}
	}
	return path
}

type benchPose struct {
	pos mgl32.Vec3
	rot mgl32.Quat
}

// benchVRM runs the stress rig's springs along benchPath with nc colliders,
// stepping them one by one with StepVRM or together with StepVRMSprings.
func benchVRM(b *testing.B, nc int, together bool) {
	rig, _ := stressRig(b)
	joints := 0
	states := make([]VRMState, len(rig))
	rots := make([][]mgl32.Quat, len(rig))
	springs := make([]VRMSpring, len(rig))
	path := benchPath()
	shapes := make([]collide.Shape, nc)
	for k, c := range rig {
		joints += c.chain.Len()
		states[k] = c.chain.NewState()
		rots[k] = make([]mgl32.Quat, c.chain.Len())
		ResetVRM(&states[k], c.chain, c.pos, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		// A caller keeps its springs and updates their parents per frame.
		springs[k] = VRMSpring{DstLocalRot: rots[k], State: &states[k], Chain: c.chain, ParentScale: one, Colliders: shapes}
	}
	b.ReportAllocs()
	f := 0
	for b.Loop() {
		p := path[f%len(path)]
		f++
		for k := range shapes {
			collide.ToWorld(&shapes[k], &stressColliders[k], p.pos, p.rot, one)
		}
		for k, c := range rig {
			pp := p.pos.Add(mathx.Rotate(p.rot, c.pos))
			if together {
				springs[k].ParentPos, springs[k].ParentRot = pp, p.rot
			} else {
				StepVRM(rots[k], &states[k], c.chain, pp, p.rot, one, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
			}
		}
		if together {
			StepVRMSprings(springs, 1.0/60)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*joints), "ns/joint")
}

// BenchmarkStepVRM steps the stress rig's 62 joints spring by spring.
func BenchmarkStepVRM(b *testing.B) {
	for _, nc := range []int{3, 0} {
		b.Run(fmt.Sprintf("joints=62/colliders=%d", nc), func(b *testing.B) { benchVRM(b, nc, false) })
	}
}

// BenchmarkStepVRMSprings steps the same springs together.
func BenchmarkStepVRMSprings(b *testing.B) {
	for _, nc := range []int{3, 0} {
		b.Run(fmt.Sprintf("joints=62/colliders=%d", nc), func(b *testing.B) { benchVRM(b, nc, true) })
	}
}
