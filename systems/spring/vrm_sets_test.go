package spring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// TestStepVRMSpringSetsMatchesStepVRMSprings steps SetLanes+5
// characters of the test scene (every kind of spring, colliders of their
// own, poses apart; a full group and a part one), three of them with fewer
// springs, across sets and one by one: the same bits. Across sets the
// characters share their chains, as those of one rig share geometry.
func TestStepVRMSpringSetsMatchesStepVRMSprings(t *testing.T) {
	const chars = SetLanes + 5
	var a, b [chars]*springScene
	for c := range chars {
		a[c], b[c] = newSpringScene(t), newSpringScene(t)
		if c == 2 || c == 5 || c == 9 {
			a[c].springs, b[c].springs = a[c].springs[:c+3], b[c].springs[:c+3]
		}
		for k := range a[c].springs {
			a[c].springs[k].Chain = a[0].springs[k].Chain
		}
	}
	sets := make([][]VRMSpring, chars)
	for f := 1; f <= 180; f++ {
		for c := range chars {
			a[c].pose(f + 13*c)
			b[c].pose(f + 13*c)
			sets[c] = a[c].springs
			StepVRMSprings(b[c].springs, 1.0/60)
		}
		StepVRMSpringSets(sets, 1.0/60)
		for c := range chars {
			for k := range a[c].springs {
				sa, sb := &a[c].springs[k], &b[c].springs[k]
				for i := range sa.State.CurTail {
					if vecBits(sa.State.CurTail[i]) != vecBits(sb.State.CurTail[i]) || vecBits(sa.State.PrevTail[i]) != vecBits(sb.State.PrevTail[i]) ||
						quatBits(sa.DstLocalRot[i]) != quatBits(sb.DstLocalRot[i]) {
						t.Fatalf("frame %d character %d spring %d joint %d: across sets %v %v, per character %v %v", f, c, k, i,
							sa.State.CurTail[i], sa.DstLocalRot[i], sb.State.CurTail[i], sb.DstLocalRot[i])
					}
				}
			}
		}
	}
}

func TestStepVRMSpringSetsDoesNotAllocate(t *testing.T) {
	var scenes [5]*springScene
	sets := make([][]VRMSpring, len(scenes))
	for c := range scenes {
		scenes[c] = newSpringScene(t)
		sets[c] = scenes[c].springs
	}
	f := 0
	n := testing.AllocsPerRun(50, func() {
		f++
		for c := range scenes {
			scenes[c].pose(f + c)
		}
		StepVRMSpringSets(sets, 1.0/60)
	})
	if n != 0 {
		t.Errorf("allocs per run = %v, want 0", n)
	}
}

// TestStepReportsBadState corrupts tails, centres and parents now and then
// and requires VRMSpring.Bad to say exactly whether a spring's state holds
// a non-finite value after the step, with either entry point.
func TestStepReportsBadState(t *testing.T) {
	scenes := [3]*springScene{newSpringScene(t), newSpringScene(t), newSpringScene(t)}
	sets := make([][]VRMSpring, len(scenes))
	rng := rand.New(rand.NewSource(4))
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	bad := 0
	for f := 1; f <= 300; f++ {
		for c, sc := range scenes {
			sc.pose(f + 7*c)
			sets[c] = sc.springs
			if f%5 != 0 {
				continue
			}
			sp := &sc.springs[rng.Intn(len(sc.springs))]
			switch rng.Intn(4) {
			case 0:
				sp.State.CurTail[rng.Intn(len(sp.State.CurTail))][rng.Intn(3)] = inf
			case 1:
				sp.State.PrevTail[rng.Intn(len(sp.State.PrevTail))][rng.Intn(3)] = nan
			case 2:
				sp.CenterPos[1] = nan
			default:
				sp.ParentPos[0] = inf
			}
		}
		if f%2 == 0 {
			StepVRMSpringSets(sets, 1.0/60)
		} else {
			for _, sc := range scenes {
				StepVRMSprings(sc.springs, 1.0/60)
			}
		}
		for c, sc := range scenes {
			for k := range sc.springs {
				sp := &sc.springs[k]
				want := false
				for i := range sp.State.CurTail {
					want = want || notFinite(ld(&sp.State.CurTail[i])) != 0 || notFinite(ld(&sp.State.PrevTail[i])) != 0
				}
				if sp.Bad != want {
					t.Fatalf("frame %d character %d spring %d: Bad %v, state not finite %v", f, c, k, sp.Bad, want)
				}
				if want {
					bad++
					ResetVRM(sp.State, sp.Chain, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
				}
			}
		}
	}
	if bad < 30 {
		t.Errorf("only %d bad states: the test shows little", bad)
	}
}

// TestVRMShapesShareGeometry builds chains through one VRMShapes: those
// of one shape share their joints whatever their settings, others do not,
// and a shared chain steps exactly as one built on its own.
func TestVRMShapesShareGeometry(t *testing.T) {
	desc := func(stiff float32, y float32, perJoint bool) *VRMChainDesc {
		d := &VRMChainDesc{HasTail: true, Tail: mgl32.Vec3{0, y, 0}}
		for i := range 4 {
			j := VRMJointDesc{LocalPos: mgl32.Vec3{0, y, 0}, LocalRot: mgl32.QuatIdent(), Stiffness: stiff, GravityPower: 0.5,
				GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.4, HitRadius: 0.02}
			if perJoint {
				j.DragForce = 0.1 * float32(i+1)
			}
			d.Joints = append(d.Joints, j)
		}
		return d
	}
	var sh VRMShapes
	build := func(d *VRMChainDesc) *VRMChain {
		c, err := sh.NewVRMChain(d)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b, c, d := build(desc(1, -0.05, false)), build(desc(0.3, -0.05, true)), build(desc(1, -0.06, false)), build(desc(1, -0.05, false))
	if &a.joints[0] != &b.joints[0] || &a.joints[0] != &d.joints[0] {
		t.Error("chains of one shape do not share their joints")
	}
	if &a.joints[0] == &c.joints[0] {
		t.Error("chains of different shapes share their joints")
	}
	if len(a.sets) != 1 || len(b.sets) != 4 {
		t.Errorf("settings records: uniform %d (want 1), per joint %d (want 4)", len(a.sets), len(b.sets))
	}
	own, err := NewVRMChain(desc(0.3, -0.05, true))
	if err != nil {
		t.Fatal(err)
	}
	cols := []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{0.02, -0.12, 0}, B: mgl32.Vec3{0.02, -0.12, 0}, RA: 0.04, RB: 0.04}}
	var springs [2]VRMSpring
	for k, ch := range []*VRMChain{b, own} {
		s := ch.NewState()
		ResetVRM(&s, ch, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		springs[k] = VRMSpring{DstLocalRot: make([]mgl32.Quat, 4), State: &s, Chain: ch, ParentRot: mgl32.QuatIdent(), ParentScale: one, Colliders: cols}
	}
	for f := range 100 {
		for k := range springs {
			springs[k].ParentPos = mgl32.Vec3{0.1 * float32(math.Sin(float64(f)/5)), 0, 0}
			StepVRMSprings(springs[k:k+1], 1.0/60)
		}
		for i := range 4 {
			if springs[0].State.CurTail[i] != springs[1].State.CurTail[i] || springs[0].DstLocalRot[i] != springs[1].DstLocalRot[i] {
				t.Fatalf("frame %d joint %d: shared %v, own %v", f, i, springs[0].State.CurTail[i], springs[1].State.CurTail[i])
			}
		}
	}
}

// TestStepVRMSpringSetsLeavesBadSpringsAlone mixes springs StepVRM leaves
// alone (no chain, no state, short slices) into sets of good ones.
func TestStepVRMSpringSetsLeavesBadSpringsAlone(t *testing.T) {
	c := refChain(t)
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rest := append([]mgl32.Vec3(nil), s.CurTail...)
	short := c.NewState()
	short.CurTail = short.CurTail[:2]
	good := newSpringScene(t)
	sets := [][]VRMSpring{
		{{}, good.springs[0]},
		{{Chain: c, DstLocalRot: make([]mgl32.Quat, c.Len())}},
		{{Chain: c, State: &s, DstLocalRot: make([]mgl32.Quat, 2)}, {Chain: c, State: &short, DstLocalRot: make([]mgl32.Quat, c.Len())}},
		nil,
		good.springs[1:],
	}
	StepVRMSpringSets(sets, 1.0/60)
	for i := range rest {
		if s.CurTail[i] != rest[i] {
			t.Errorf("tail %d moved to %v with a short destination", i, s.CurTail[i])
		}
	}
	if good.springs[1].DstLocalRot[0] == (mgl32.Quat{}) || sets[0][1].DstLocalRot[0] == (mgl32.Quat{}) {
		t.Error("good springs among bad ones were not stepped")
	}
	StepVRMSpringSets(nil, 1.0/60)
}

// TestRunFindsOneChain steps spring 0 of SetLanes characters across sets:
// with their chains shared (one rig's springs share geometry) the quad
// takes stage A's broadcast of the joint, with chains built apart it
// gathers each slot's.
func TestRunFindsOneChain(t *testing.T) {
	for _, share := range []bool{true, false} {
		sets := make([][]VRMSpring, SetLanes)
		var first *springScene
		for c := range sets {
			sc := newSpringScene(t)
			if c == 0 {
				first = sc
			}
			if share {
				for k := range sc.springs {
					sc.springs[k].Chain = first.springs[k].Chain
				}
			}
			sc.pose(1 + c)
			sets[c] = sc.springs
		}
		var q quad
		stepAcross(sets, 0, &q, 1.0/60)
		if !q.full || q.oneChain != share {
			t.Errorf("chains shared %v: full %v, one chain %v", share, q.full, q.oneChain)
		}
	}
}
