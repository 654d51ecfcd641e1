package spring

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// The crowd benchmark reproduces the scene of the three-vrm peer
// benchmark (its bench.mjs, docs/performance.md) for a like-for-like figure:
// per character a root moving on its own path, hips at (0,1,0), chest
// 0.4 above, head 0.2 above that; 8 hair chains of 6 joints hanging from
// the head at radius 0.12 (bones 0.05 down), 2 ears of 3 at (±0.07, 0.08,
// 0) (bones 0.05 up), a tail of 8 at hips-local (0,0,-0.1) (bones
// (0,-0.03,-0.04)); a head sphere (0.1) and two chest capsules from
// (±0.06,0,0) to (±0.2,0,0), radius 0.05; stiffness 1, gravityPower 0.5,
// dragForce 0.4, hitRadius 0.02; dt 1/60.

type crowdChain struct {
	chain *VRMChain
	onHip bool // parent bone: hips, else head
}

func crowdRig(tb testing.TB) []crowdChain {
	tb.Helper()
	tmpl := VRMJointDesc{LocalRot: mgl32.QuatIdent(), Stiffness: 1, GravityPower: 0.5, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.4, HitRadius: 0.02}
	build := func(n int, start, step mgl32.Vec3) *VRMChain {
		d := VRMChainDesc{HasTail: true, Tail: step}
		for i := range n {
			j := tmpl
			j.LocalPos = step
			if i == 0 {
				j.LocalPos = start
			}
			d.Joints = append(d.Joints, j)
		}
		c, err := NewVRMChain(&d)
		if err != nil {
			tb.Fatal(err)
		}
		return c
	}
	var rig []crowdChain
	for h := range 8 {
		a := 2 * math.Pi * float64(h) / 8
		start := mgl32.Vec3{float32(0.12 * math.Cos(a)), 0, float32(0.12 * math.Sin(a))}
		rig = append(rig, crowdChain{build(6, start, mgl32.Vec3{0, -0.05, 0}), false})
	}
	for _, x := range []float32{0.07, -0.07} {
		rig = append(rig, crowdChain{build(3, mgl32.Vec3{x, 0.08, 0}, mgl32.Vec3{0, 0.05, 0}), false})
	}
	return append(rig, crowdChain{build(8, mgl32.Vec3{0, 0, -0.1}, mgl32.Vec3{0, -0.03, -0.04}), true})
}

var crowdColliders = [3]collide.Desc{
	collide.NewSphere(mgl32.Vec3{}, 0.1),                                            // on the head
	collide.NewCapsule(mgl32.Vec3{0.06, 0, 0}, mgl32.Vec3{0.2, 0, 0}, 0.05, 0.05),   // on the chest
	collide.NewCapsule(mgl32.Vec3{-0.06, 0, 0}, mgl32.Vec3{-0.2, 0, 0}, 0.05, 0.05), // on the chest
}

type crowdChar struct {
	springs []VRMSpring
	shapes  []collide.Shape
}

// crowdRoot is bench.mjs's poseRoot: character i's root at time t.
func crowdRoot(i, grid int, t float64) (mgl32.Vec3, mgl32.Quat) {
	ti := t + float64(i%97)*0.1
	bx, bz := float64(i%grid)*2, float64(i/grid)*2
	pos := mgl32.Vec3{float32(bx + math.Sin(ti*1.3)*0.5), 0, float32(bz + math.Cos(ti*0.7)*0.3)}
	return pos, mgl32.QuatRotate(float32(0.25*ti), mgl32.Vec3{0, 1, 0})
}

// pose places character i's bones, colliders and spring parents.
func (ch *crowdChar) pose(rig []crowdChain, i, grid int, t float64) {
	pos, rot := crowdRoot(i, grid, t)
	hips := pos.Add(mathx.Rotate(rot, mgl32.Vec3{0, 1, 0}))
	chest := pos.Add(mathx.Rotate(rot, mgl32.Vec3{0, 1.4, 0}))
	head := pos.Add(mathx.Rotate(rot, mgl32.Vec3{0, 1.6, 0}))
	collide.ToWorld(&ch.shapes[0], &crowdColliders[0], head, rot, one)
	collide.ToWorld(&ch.shapes[1], &crowdColliders[1], chest, rot, one)
	collide.ToWorld(&ch.shapes[2], &crowdColliders[2], chest, rot, one)
	for k := range ch.springs {
		p := head
		if rig[k].onHip {
			p = hips
		}
		ch.springs[k].ParentPos, ch.springs[k].ParentRot = p, rot
	}
}

// BenchmarkStepVRMCrowd steps chars characters of the peer's rig,
// single-threaded: one character after the other with StepVRMSprings
// (across=1), or SetLanes at a time with StepVRMSpringSets (across=8).
func BenchmarkStepVRMCrowd(b *testing.B) {
	rig := crowdRig(b)
	perChar := 0
	for _, c := range rig {
		perChar += c.chain.Len()
	}
	for _, chars := range []int{1, SetLanes, 1000, 10000} {
		for _, across := range []int{1, SetLanes} {
			if across > chars {
				continue
			}
			b.Run(fmt.Sprintf("chars=%d/across=%d", chars, across), func(b *testing.B) {
				grid := int(math.Ceil(math.Sqrt(float64(chars))))
				crowd := make([]crowdChar, chars)
				sets := make([][]VRMSpring, chars)
				for i := range crowd {
					ch := &crowd[i]
					ch.shapes = make([]collide.Shape, len(crowdColliders))
					for _, c := range rig {
						s := c.chain.NewState()
						ch.springs = append(ch.springs, VRMSpring{DstLocalRot: make([]mgl32.Quat, c.chain.Len()), State: &s,
							Chain: c.chain, ParentScale: one, Colliders: ch.shapes})
					}
					ch.pose(rig, i, grid, 0)
					for k := range ch.springs {
						sp := &ch.springs[k]
						ResetVRM(sp.State, sp.Chain, sp.ParentPos, sp.ParentRot, one, mgl32.Vec3{}, mgl32.QuatIdent())
					}
					sets[i] = ch.springs
				}
				b.ReportAllocs()
				f := 0
				for b.Loop() {
					f++
					t := float64(f) / 60
					for i := 0; i < chars; i += across {
						m := min(across, chars-i)
						for c := i; c < i+m; c++ {
							crowd[c].pose(rig, c, grid, t)
						}
						if across == 1 {
							StepVRMSprings(crowd[i].springs, 1.0/60)
						} else {
							StepVRMSpringSets(sets[i:i+m], 1.0/60)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chars*perChar), "ns/joint")
			})
		}
	}
}
