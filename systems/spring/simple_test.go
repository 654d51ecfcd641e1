package spring

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

func straightSimple(tb testing.TB, n int, l float32, tmpl SimpleJointDesc) *SimpleChain {
	tb.Helper()
	var d SimpleChainDesc
	for i := range n {
		j := tmpl
		j.SpringEnd = mgl32.Vec3{0, l, 0}
		if i > 0 {
			j.LocalPos = mgl32.Vec3{0, l, 0}
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewSimpleChain(&d)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func idents(n int) []mgl32.Quat {
	q := make([]mgl32.Quat, n)
	for i := range q {
		q[i] = mgl32.QuatIdent()
	}
	return q
}

func TestSimpleSingleStepByHand(t *testing.T) {
	// One bone at the origin, animated tip (0,1,0), last tip (0.6,0.8,0),
	// dt 0.1. With the anchor still (last animated tip (0,1,0)):
	// bounciness 10: force = 10*((0,1,0)-(0.6,0.8,0)) = (-6,2,0),
	// velocity = (-0.6,0.2,0), tip = (0.54,0.82,0), clamped to length 1:
	// (0.5499906, 0.8351709, 0). Adding stiffness 1 adds the part of
	// (0,1,0) across the bone (0.6,0.8,0) to the force: (-0.48,0.36,0);
	// velocity (-0.648,0.236,0), tip (0.5352,0.8236,0) → (0.5448881,
	// 0.8385087, 0). Damping 2 with velocity (1,0,0): force (-8,2,0),
	// velocity (0.2,0.2,0), tip (0.62,0.82,0) → (0.6031083, 0.7976593, 0).
	// The anchor moving at the tip's velocity (1,0,0) (last animated tip
	// (-0.1,1,0)): the damping takes nothing off, velocity (1,0,0), tip
	// (0.7,0.8,0) → (0.6585046, 0.7525767, 0); with bounciness 10 the
	// spring pulls towards where the tip was carried to: 10*((-0.1,1,0) -
	// (0.6,0.8,0)) = (-7,2,0), velocity (0.3,0.2,0), tip (0.63,0.82,0) →
	// (0.6092433, 0.7929834, 0).
	still, moved := mgl32.Vec3{0, 1, 0}, mgl32.Vec3{-0.1, 1, 0}
	cases := []struct {
		name          string
		b, k, d       float32
		vel, lastAnim mgl32.Vec3
		wantVel, want mgl32.Vec3
	}{
		{"bounciness", 10, 0, 0, mgl32.Vec3{}, still, mgl32.Vec3{-0.6, 0.2, 0}, mgl32.Vec3{0.5499905695, 0.8351708648, 0}},
		{"stiffness", 10, 1, 0, mgl32.Vec3{}, still, mgl32.Vec3{-0.648, 0.236, 0}, mgl32.Vec3{0.5448881469, 0.8385087402, 0}},
		{"damping", 10, 0, 2, mgl32.Vec3{1, 0, 0}, still, mgl32.Vec3{0.2, 0.2, 0}, mgl32.Vec3{0.6031082749, 0.7976593313, 0}},
		{"damping moving anchor", 0, 0, 2, mgl32.Vec3{1, 0, 0}, moved, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0.6585046079, 0.7525766947, 0}},
		{"bounciness moving anchor", 10, 0, 2, mgl32.Vec3{1, 0, 0}, moved, mgl32.Vec3{0.3, 0.2, 0}, mgl32.Vec3{0.6092433059, 0.7929833505, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewSimpleChain(&SimpleChainDesc{Joints: []SimpleJointDesc{{SpringEnd: mgl32.Vec3{0, 1, 0}, Bounciness: tc.b, Stiffness: tc.k, Damping: tc.d}}})
			if err != nil {
				t.Fatal(err)
			}
			s := c.NewState()
			s.LastTip[0], s.Velocity[0], s.LastAnim[0] = mgl32.Vec3{0.6, 0.8, 0}, tc.vel, tc.lastAnim
			rot := make([]mgl32.Quat, 1)
			StepSimple(rot, idents(1), &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), 0.1)
			if dist(s.LastTip[0], tc.want) > 1e-6 || dist(s.Velocity[0], tc.wantVel) > 1e-6 {
				t.Errorf("tip %v velocity %v; want %v, %v", s.LastTip[0], s.Velocity[0], tc.want, tc.wantVel)
			}
			if s.LastAnim[0] != still {
				t.Errorf("the last animated tip is %v, want %v", s.LastAnim[0], still)
			}
			if got := mathx.Rotate(rot[0], mgl32.Vec3{0, 1, 0}); dist(got, tc.want) > 1e-6 {
				t.Errorf("the new rotation takes the spring end to %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSimpleRestStaysRest(t *testing.T) {
	c := straightSimple(t, 4, 0.1, SimpleJointDesc{Bounciness: 20, Stiffness: 1, Damping: 3})
	anim := make([]mgl32.Quat, 4)
	for i := range anim {
		anim[i] = mgl32.QuatRotate(0.3*float32(i+1), mgl32.Vec3{1, 0, 1}.Normalize())
	}
	pPos, pRot, pScale := mgl32.Vec3{1, 2, 3}, mgl32.QuatRotate(0.4, mgl32.Vec3{0, 1, 0}), mgl32.Vec3{2, 2, 2}
	s := c.NewState()
	ResetSimple(&s, c, anim, pPos, pRot, pScale, mgl32.Vec3{}, mgl32.QuatIdent())
	rest := append([]mgl32.Vec3(nil), s.LastTip...)
	rot := make([]mgl32.Quat, 4)
	for range 100 {
		StepSimple(rot, anim, &s, c, pPos, pRot, pScale, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
	}
	for i := range rot {
		if dd := dist(s.LastTip[i], rest[i]); dd > 1e-5 {
			t.Errorf("tip %d moved by %v", i, dd)
		}
		if a := mathx.AngleBetween(rot[i], anim[i]); a > 1e-3 {
			t.Errorf("bone %d: rotation %v is %v rad from the animated %v", i, rot[i], a, anim[i])
		}
	}
}

func TestSimpleBouncinessRestoresAndLags(t *testing.T) {
	// The animation turns the bone 90° at once: the tip lags behind, then
	// settles on the new animated tip.
	c := straightSimple(t, 2, 0.1, SimpleJointDesc{Bounciness: 40, Stiffness: 0.5, Damping: 6})
	s := c.NewState()
	ResetSimple(&s, c, idents(2), mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	turned := []mgl32.Quat{mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1}), mgl32.QuatIdent()}
	rot := make([]mgl32.Quat, 2)
	StepSimple(rot, turned, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
	if a := mathx.AngleBetween(rot[0], turned[0]); a < 0.5 {
		t.Errorf("after one step the bone is only %v rad from the animation: no lag", a)
	}
	for range 600 {
		StepSimple(rot, turned, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
	}
	want := []mgl32.Vec3{{-0.1, 0, 0}, {-0.2, 0, 0}}
	for i := range want {
		if dd := dist(s.LastTip[i], want[i]); dd > 1e-3 {
			t.Errorf("tip %d at %v, want %v", i, s.LastTip[i], want[i])
		}
	}
}

func TestSimpleSteadyMotionDragsNothing(t *testing.T) {
	// A 3 cm tip hanging from a parent that starts at once to move at a
	// steady 1.2 m/s: the tip swings, then settles back on its anchor
	// (the source's world damping holds it 75° out).
	c, err := NewSimpleChain(&SimpleChainDesc{Joints: []SimpleJointDesc{{SpringEnd: mgl32.Vec3{0, -0.03, 0},
		Bounciness: 40, Stiffness: 9.8, Damping: 6}}})
	if err != nil {
		t.Fatal(err)
	}
	s := c.NewState()
	anim, rot := idents(1), make([]mgl32.Quat, 1)
	ResetSimple(&s, c, anim, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	swing, settled := float32(0), float32(0)
	for f := 1; f <= 300; f++ {
		x := float32(f) / 60
		StepSimple(rot, anim, &s, c, mgl32.Vec3{0, 0, 1.2 * x}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
		a := mathx.AngleBetween(rot[0], anim[0])
		swing = max(swing, a)
		if f > 240 {
			settled = max(settled, a)
		}
	}
	if swing < 0.2 {
		t.Errorf("the sudden start swung the tip only %v rad", swing)
	}
	if settled > 1e-3 {
		t.Errorf("at a steady speed the tip stays %v rad from its anchor", settled)
	}
}

func TestSimpleCentreSpace(t *testing.T) {
	for _, withCentre := range []bool{true, false} {
		c := straightSimple(t, 3, 0.1, SimpleJointDesc{Bounciness: 10, Damping: 2})
		s := c.NewState()
		rootAt := func(f int) mgl32.Vec3 {
			x := float64(f) / 60
			return mgl32.Vec3{float32(math.Sin(3 * x)), float32(0.5 * x), float32(math.Cos(2 * x))}
		}
		centre := func(f int) mgl32.Vec3 {
			if withCentre {
				return rootAt(f)
			}
			return mgl32.Vec3{}
		}
		ResetSimple(&s, c, idents(3), rootAt(0), mgl32.QuatIdent(), one, centre(0), mgl32.QuatIdent())
		rot := make([]mgl32.Quat, 3)
		worst := float32(0)
		for f := 1; f <= 120; f++ {
			StepSimple(rot, idents(3), &s, c, rootAt(f), mgl32.QuatIdent(), one, centre(f), mgl32.QuatIdent(), 1.0/60)
			for i := range s.LastTip {
				want := rootAt(f).Add(mgl32.Vec3{0, 0.1 * float32(i+1), 0})
				worst = max(worst, dist(s.LastTip[i].Add(centre(f)), want))
			}
		}
		if withCentre && worst > 1e-5 {
			t.Errorf("with the root as centre the chain moved by %v relative to the root", worst)
		}
		if !withCentre && worst < 1e-2 {
			t.Errorf("without a centre the chain moved only %v: the scene does not test inertia", worst)
		}
	}
}

func TestSimpleScaledRigMovesScaled(t *testing.T) {
	run := func(k float32) [][]mgl32.Vec3 {
		c := straightSimple(t, 4, 0.1, SimpleJointDesc{Bounciness: 15, Stiffness: 2, Damping: 3})
		s := c.NewState()
		scale := mgl32.Vec3{k, k, k}
		anim := idents(4)
		ResetSimple(&s, c, anim, mgl32.Vec3{}, mgl32.QuatIdent(), scale, mgl32.Vec3{}, mgl32.QuatIdent())
		rot := make([]mgl32.Quat, 4)
		var out [][]mgl32.Vec3
		for f := 1; f <= 120; f++ {
			root := mgl32.Vec3{k * float32(refRootX(f)), 0, 0}
			anim[1] = mgl32.QuatRotate(float32(math.Sin(float64(f)/10)), mgl32.Vec3{0, 0, 1})
			StepSimple(rot, anim, &s, c, root, mgl32.QuatIdent(), scale, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
			rel := make([]mgl32.Vec3, 4)
			for i := range rel {
				rel[i] = s.LastTip[i].Sub(root)
			}
			out = append(out, rel)
		}
		return out
	}
	base := run(1)
	for _, k := range []float32{0.5, 2} {
		got := run(k)
		for f := range got {
			for i := range got[f] {
				if d := dist(got[f][i], base[f][i].Mul(k)); d > 1e-5 {
					t.Fatalf("scale %v frame %d tip %d: %v, want %v", k, f+1, i, got[f][i], base[f][i].Mul(k))
				}
			}
		}
	}
}

func TestSimpleDegenerate(t *testing.T) {
	// A zero-length spring end, zero, NaN and negative dt, a zero scale.
	d := SimpleChainDesc{Joints: []SimpleJointDesc{
		{SpringEnd: mgl32.Vec3{0, 0.1, 0}, Bounciness: 10, Stiffness: 1, Damping: 1},
		{LocalPos: mgl32.Vec3{0, 0.1, 0}, Bounciness: 10, Stiffness: 1, Damping: 1},
		{SpringEnd: mgl32.Vec3{0, 0.1, 0}, Bounciness: 10, Stiffness: 1, Damping: 1},
	}}
	c, err := NewSimpleChain(&d)
	if err != nil {
		t.Fatal(err)
	}
	s := c.NewState()
	ResetSimple(&s, c, idents(3), mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rest := append([]mgl32.Vec3(nil), s.LastTip...)
	rot := make([]mgl32.Quat, 3)
	for _, dt := range []float32{0, float32(math.NaN()), -1} {
		StepSimple(rot, idents(3), &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), dt)
		allFinite(t, "simple degenerate dt", s.LastTip, rot)
		for i := range rest {
			if dist(s.LastTip[i], rest[i]) > 1e-6 {
				t.Errorf("dt=%v: tip %d moved to %v without time passing", dt, i, s.LastTip[i])
			}
		}
	}
	for range 30 {
		StepSimple(rot, idents(3), &s, c, mgl32.Vec3{0.3, 0, 0}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
		allFinite(t, "simple zero-length bone", s.LastTip, rot)
	}
	StepSimple(rot, idents(3), &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{}, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
	allFinite(t, "simple zero scale", s.LastTip, rot)
}

func TestSimpleChainDescValidate(t *testing.T) {
	cases := []struct {
		field string
		j     SimpleJointDesc
	}{
		{"Joints[0].Bounciness", SimpleJointDesc{Bounciness: -1}},
		{"Joints[0].Stiffness", SimpleJointDesc{Stiffness: float32(math.NaN())}},
		{"Joints[0].Damping", SimpleJointDesc{Damping: -0.5}},
		{"Joints[0].SpringEnd", SimpleJointDesc{SpringEnd: mgl32.Vec3{float32(math.Inf(-1)), 0, 0}}},
		{"Joints[0].LocalPos", SimpleJointDesc{LocalPos: mgl32.Vec3{0, float32(math.NaN()), 0}}},
		{"Joints[0].RestScale", SimpleJointDesc{RestScale: mgl32.Vec3{1, float32(math.Inf(1)), 1}}},
		{"Joints[0].RestScale", SimpleJointDesc{RestScale: mgl32.Vec3{1e-13, 0, -1e-13}}},
	}
	for _, tc := range cases {
		_, err := NewSimpleChain(&SimpleChainDesc{Joints: []SimpleJointDesc{tc.j}})
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || fe.Type != "spring.SimpleChainDesc" {
			t.Errorf("%s: got %v", tc.field, err)
		}
	}
	if _, err := NewSimpleChain(&SimpleChainDesc{}); err == nil {
		t.Error("empty chain accepted")
	}
}

func TestSimpleStepDoesNotAllocate(t *testing.T) {
	c := straightSimple(t, 8, 0.1, SimpleJointDesc{Bounciness: 10, Stiffness: 1, Damping: 2})
	s := c.NewState()
	anim, rot := idents(8), make([]mgl32.Quat, 8)
	n := testing.AllocsPerRun(50, func() {
		ResetSimple(&s, c, anim, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		StepSimple(rot, anim, &s, c, mgl32.Vec3{0.1, 0, 0}, mgl32.QuatIdent(), one, mgl32.Vec3{1, 0, 0}, mgl32.QuatIdent(), 1.0/60)
	})
	if n != 0 {
		t.Errorf("allocs per run = %v, want 0", n)
	}
}

func BenchmarkStepSimple(b *testing.B) {
	// 62 bones in the stress rig's chain lengths (8×6, 2×3, 8).
	var chains []*SimpleChain
	for _, n := range []int{6, 6, 6, 6, 6, 6, 6, 6, 3, 3, 8} {
		chains = append(chains, straightSimple(b, n, 0.05, SimpleJointDesc{Bounciness: 20, Stiffness: 1, Damping: 4}))
	}
	states := make([]SimpleState, len(chains))
	anims := make([][]mgl32.Quat, len(chains))
	rots := make([][]mgl32.Quat, len(chains))
	joints := 0
	for k, c := range chains {
		joints += c.Len()
		states[k] = c.NewState()
		anims[k] = idents(c.Len())
		rots[k] = make([]mgl32.Quat, c.Len())
		ResetSimple(&states[k], c, anims[k], mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	}
	b.Run("joints=62", func(b *testing.B) {
		b.ReportAllocs()
		f := 0
		for b.Loop() {
			root := mgl32.Vec3{float32(refRootX(f)), 0, 0}
			f++
			for k, c := range chains {
				StepSimple(rots[k], anims[k], &states[k], c, root, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), 1.0/60)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*joints), "ns/joint")
	})
}
