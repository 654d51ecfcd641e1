package spring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// refStepSimple is StepSimple written plainly, on the chain's description
// and through the helpers' calls: the kernel must give the same bits.
func refStepSimple(dstLocalRot, animLocalRot []mgl32.Quat, s *SimpleState, d *SimpleChainDesc,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat, dt float32) {
	n := len(d.Joints)
	if !(dt >= 0) || dt-dt != 0 {
		dt = 0
	}
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	centred := cp != (v3{}) || cr != (q4{w: 1})
	for i := 0; i < n; i++ {
		j := &d.Joints[i]
		ls := j.LocalScale
		if ls == (mgl32.Vec3{}) {
			ls = mgl32.Vec3{1, 1, 1}
		}
		w := p.child(ld(&j.LocalPos), ldq(&animLocalRot[i]), ld(&ls))
		head := w.pos
		animOff := w.rot.rot(w.scale.mul(ld(&j.SpringEnd)))
		length := animOff.len()
		animDir := animOff.norm(w.rot.rot(v3{0, 1, 0}))
		animTip := head.add(animOff)
		last, vel, lastAnim := ld(&s.LastTip[i]), ld(&s.Velocity[i]), ld(&s.LastAnim[i])
		if centred {
			last, vel, lastAnim = cr.rot(last).add(cp), cr.rot(vel), cr.rot(lastAnim).add(cp)
		}
		stiffness := j.Stiffness
		if j.RestScale != (mgl32.Vec3{}) {
			stiffness /= maxAbs(ld(&j.RestScale))
		}
		move := animTip.sub(lastAnim)
		carried := last.add(move)
		r := carried.sub(head)
		var pull v3
		if r2 := r.dot(r); r2 > 1e-12 && r2-r2 == 0 {
			pull = animDir.sub(r.scale(animDir.dot(r) / r2))
		}
		force := animTip.sub(carried).scale(j.Bounciness).
			add(pull.scale(stiffness * maxAbs(w.scale))).
			sub(vel.scale(j.Damping))
		vel = vel.add(force.scale(dt))
		if dt > 0 {
			vel = vel.add(move.scale(j.Damping))
		} else {
			vel = vel.add(move.scale(0))
		}
		tip := last.add(vel.scale(dt))
		tip = head.add(tip.sub(head).norm(animDir).scale(length))
		if !tip.finite() || !vel.finite() {
			tip, vel = animTip, v3{}
		}
		if centred {
			s.LastTip[i], s.Velocity[i] = cr.invRot(tip.sub(cp)).vec(), cr.invRot(vel).vec()
			s.LastAnim[i] = cr.invRot(animTip.sub(cp)).vec()
		} else {
			s.LastTip[i], s.Velocity[i], s.LastAnim[i] = tip.vec(), vel.vec(), animTip.vec()
		}
		w.rot = fromTo(animDir, tip.sub(head)).mul(w.rot)
		dstLocalRot[i] = p.rot.conj().mul(w.rot).quat()
		p = w
	}
}

// refResetSimple is ResetSimple written plainly.
func refResetSimple(s *SimpleState, d *SimpleChainDesc, animLocalRot []mgl32.Quat,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat) {
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	for i := range d.Joints {
		j := &d.Joints[i]
		ls := j.LocalScale
		if ls == (mgl32.Vec3{}) {
			ls = mgl32.Vec3{1, 1, 1}
		}
		w := p.child(ld(&j.LocalPos), ldq(&animLocalRot[i]), ld(&ls))
		tip := w.pos.add(w.rot.rot(w.scale.mul(ld(&j.SpringEnd))))
		s.LastTip[i] = cr.invRot(tip.sub(cp)).vec()
		s.LastAnim[i] = s.LastTip[i]
		s.Velocity[i] = mgl32.Vec3{}
		p = w
	}
}

func randQuat(rng *rand.Rand) mgl32.Quat {
	axis := mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5}
	if axis.Len() < 1e-3 {
		axis = mgl32.Vec3{0, 1, 0}
	}
	return mgl32.QuatRotate(rng.Float32()*6, axis.Normalize())
}

func randVec(rng *rand.Rand, k float32) mgl32.Vec3 {
	return mgl32.Vec3{k * (rng.Float32() - 0.5), k * (rng.Float32() - 0.5), k * (rng.Float32() - 0.5)}
}

// TestSimpleMatchesReferenceBitForBit steps random chains, centred and
// not, scaled and mirrored, with the kernel and the reference side by
// side for many frames, and compares every output and state bit.
func TestSimpleMatchesReferenceBitForBit(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	same := func(a, b mgl32.Vec3) bool {
		for k := range a {
			if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
				return false
			}
		}
		return true
	}
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(6)
		var d SimpleChainDesc
		for range n {
			j := SimpleJointDesc{LocalPos: randVec(rng, 0.2), SpringEnd: randVec(rng, 0.2),
				Bounciness: 30 * rng.Float32(), Stiffness: 3 * rng.Float32(), Damping: 8 * rng.Float32()}
			switch rng.Intn(4) {
			case 1:
				j.LocalScale = mgl32.Vec3{1, 1, 1}
			case 2:
				j.LocalScale = mgl32.Vec3{0.5 + rng.Float32(), 0.5 + rng.Float32(), -0.5 - rng.Float32()}
			case 3:
				j.SpringEnd = mgl32.Vec3{} // no length: the fallbacks
			}
			if rng.Intn(2) == 1 {
				j.RestScale = mgl32.Vec3{0.01 + rng.Float32(), 0.01 + rng.Float32(), -0.01 - rng.Float32()}
			}
			d.Joints = append(d.Joints, j)
		}
		c, err := NewSimpleChain(&d)
		if err != nil {
			t.Fatal(err)
		}
		s, r := c.NewState(), c.NewState()
		anim := make([]mgl32.Quat, n)
		for i := range anim {
			anim[i] = randQuat(rng)
		}
		pp, pr, ps := randVec(rng, 2), randQuat(rng), mgl32.Vec3{1, 1, 1}
		if trial%3 == 1 {
			ps = mgl32.Vec3{1.5, 0.7, 1.2}
		}
		cp, cr := mgl32.Vec3{}, mgl32.QuatIdent()
		if trial%2 == 1 {
			cp, cr = randVec(rng, 2), randQuat(rng)
		}
		ResetSimple(&s, c, anim, pp, pr, ps, cp, cr)
		refResetSimple(&r, &d, anim, pp, pr, ps, cp, cr)
		got, want := make([]mgl32.Quat, n), make([]mgl32.Quat, n)
		for f := 0; f < 20; f++ {
			for i := 0; i < n; i++ {
				if !same(s.LastTip[i], r.LastTip[i]) || !same(s.Velocity[i], r.Velocity[i]) || !same(s.LastAnim[i], r.LastAnim[i]) {
					t.Fatalf("trial %d frame %d joint %d: state %v %v, want %v %v", trial, f, i, s.LastTip[i], s.Velocity[i], r.LastTip[i], r.Velocity[i])
				}
			}
			pp = pp.Add(randVec(rng, 0.3))
			pr = pr.Mul(mgl32.QuatRotate(0.3*(rng.Float32()-0.5), mgl32.Vec3{0, 1, 0}))
			dt := float32(1.0 / 60)
			if f == 7 {
				dt = float32(math.Inf(1))
			}
			StepSimple(got, anim, &s, c, pp, pr, ps, cp, cr, dt)
			refStepSimple(want, anim, &r, &d, pp, pr, ps, cp, cr, dt)
			for i := range got {
				if math.Float32bits(got[i].W) != math.Float32bits(want[i].W) || !same(got[i].V, want[i].V) {
					t.Fatalf("trial %d frame %d joint %d: rotation %v, want %v", trial, f, i, got[i], want[i])
				}
			}
		}
	}
}
