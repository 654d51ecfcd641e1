package chain

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

func TestCurveEval(t *testing.T) {
	c := Curve{{0, 1}, {0.5, 0.2}, {1, 0.6}}
	for _, tc := range []struct{ t, want float32 }{
		{-1, 1}, {0, 1}, {0.25, 0.6}, {0.5, 0.2}, {0.75, 0.4}, {1, 0.6}, {2, 0.6},
	} {
		if got := c.Eval(tc.t); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("Eval(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
	if got := Curve(nil).Eval(0.3); got != 1 {
		t.Errorf("empty curve = %v, want 1", got)
	}
	step := Curve{{0.5, 0}, {0.5, 1}} // a step at 0.5
	if got := step.Eval(0.5); got != 0 && got != 1 {
		t.Errorf("step curve at its key = %v", got)
	}
	if got := step.Eval(float32(math.NaN())); got != 0 {
		t.Errorf("NaN t = %v, want the first key's value", got)
	}
}

func TestClockFixed(t *testing.T) {
	c := Clock{Rate: 60}
	total := 0
	for i := 0; i < 600; i++ {
		n := c.Fixed(1.0 / 60)
		if n != 1 {
			t.Fatalf("frame %d at 60 fps ran %d steps, want 1", i, n)
		}
		total += n
	}
	c.Reset()
	total = 0
	for i := 0; i < 144; i++ {
		total += c.Fixed(1.0 / 144)
	}
	if total < 59 || total > 60 {
		t.Errorf("1 s at 144 fps ran %d steps, want 60", total)
	}
	if n := c.Fixed(1); n != DefaultMaxSubSteps {
		t.Errorf("a 1 s hitch ran %d steps, want the cap %d", n, DefaultMaxSubSteps)
	}
	if n := c.Fixed(1.0 / 120); n != 0 {
		t.Errorf("after a hitch the excess must be dropped; half a step ran %d", n)
	}
	if n := (&Clock{}).Fixed(0.01); n != 1 {
		t.Errorf("Rate 0 ran %d steps, want 1 per frame", n)
	}
}

func TestClockVariable(t *testing.T) {
	c := Clock{Rate: 60}
	for _, tc := range []struct {
		dt    float32
		n     int
		h     float32
		label string
	}{
		{1.0 / 30, 2, 1.0 / 60, "30 fps"},
		{1.0 / 60, 1, 1.0 / 60, "60 fps"},
		{1.0 / 144, 1, 1.0 / 144, "144 fps"},
		{1, 3, 1.0 / 60, "hitch capped at 3 steps"},
		{0, 0, 0, "zero dt"},
		{float32(math.NaN()), 0, 0, "NaN dt"},
	} {
		n, h := c.Variable(tc.dt)
		if n != tc.n || math.Abs(float64(h-tc.h)) > 1e-7 {
			t.Errorf("%s: (%d, %v), want (%d, %v)", tc.label, n, h, tc.n, tc.h)
		}
	}
}

func TestBuildTreeLayout(t *testing.T) {
	// 0 root ─ 1 A1 ─ 2 A2
	//        ├ 3 B1 ─ 4 B2   (B1 excluded)
	//        └ 5 C1
	r := newRig([]int32{-1, 0, 1, 0, 3, 0}, []mgl32.Vec3{
		{}, {-0.2, -0.3, 0}, {0, -0.3, 0}, {0.2, -0.3, 0}, {0, -0.3, 0}, {0, -0.4, 0},
	})
	pool, c := r.build(t, Desc{Root: 0, Exclusions: []int32{3}, EndLength: 0.5, Settings: DefaultSettings()})
	p := c.Particles(pool)
	wantBone := []int32{0, 1, 2, -1, -1, 5, -1}
	wantParent := []int32{-1, 0, 1, 2, 0, 0, 5}
	wantChildren := []int32{3, 1, 1, 0, 0, 1, 0}
	for i := range wantBone {
		if p.Bone[i] != wantBone[i] || p.Parent[i] != wantParent[i] || p.Children[i] != wantChildren[i] {
			t.Errorf("particle %d: bone %d parent %d children %d, want %d %d %d", i,
				p.Bone[i], p.Parent[i], p.Children[i], wantBone[i], wantParent[i], wantChildren[i])
		}
	}
	// End after A2: half of A2's bone (0,-0.3,0) beyond it.
	assertVec(t, "end of A2", p.Local[3], mgl32.Vec3{0, -0.15, 0}, 1e-6)
	// End in place of the excluded B1: the root has no parent, so
	// (EndLength, 0, 0), as DynamicBone does.
	assertVec(t, "end for B1", p.Local[4], mgl32.Vec3{0.5, 0, 0}, 1e-6)
	a1 := float32(math.Sqrt(0.2*0.2 + 0.3*0.3))
	if d := p.Dist[3]; math.Abs(float64(d-(a1+0.45))) > 1e-5 {
		t.Errorf("rest distance of A2's end = %v, want %v", d, a1+0.45)
	}
	if got := c.TotalLength(); math.Abs(float64(got-(a1+0.45))) > 1e-5 {
		t.Errorf("total length %v, want %v", got, a1+0.45)
	}
	// B1 and B2 hang under the chain without being particles: forward
	// kinematics must place them after Apply. Without the exclusion every
	// bone under the root is a particle.
	if c.CoversSubtree() {
		t.Error("a chain with an excluded subtree covers its root's subtree")
	}
	if _, whole := r.build(t, Desc{Root: 0, EndLength: 0.5, Settings: DefaultSettings()}); !whole.CoversSubtree() {
		t.Error("a chain of every bone under its root does not cover the subtree")
	}
	// A second chain goes after the first in the same pool.
	var c2 Chain
	if err := Build(pool, &c2, &r.skel, &Desc{Root: 5, Settings: DefaultSettings()}); err != nil {
		t.Fatal(err)
	}
	if c2.First != 7 || c2.N != 1 || pool.Len() != 8 {
		t.Errorf("second chain at [%d,+%d) in a pool of %d, want [7,+1) of 8", c2.First, c2.N, pool.Len())
	}
}

func TestBuildEndOffsetInCharacterSpace(t *testing.T) {
	r := line(2, 0.5)
	r.skel.RestRot[1] = rotZ(90) // bone 1 turned: its space differs from the character's
	pool, c := r.build(t, Desc{EndOffset: mgl32.Vec3{0, -0.2, 0}, Settings: DefaultSettings()})
	p := c.Particles(pool)
	// The end hangs 0.2 below bone 2 in the character's space; bone 2's
	// space is turned 90° about Z, so locally it is (-0.2, 0, 0).
	assertVec(t, "end offset", p.Local[3], mgl32.Vec3{-0.2, 0, 0}, 1e-6)
}

// TestEndOffsetDoesNotTurnWithTheTip: EndOffset is in the character's
// space, as DynamicBone's: however the tip bone's rest is turned, the end
// particle sits at the tip plus the offset, and it turns with the
// character, not with the bone.
func TestEndOffsetDoesNotTurnWithTheTip(t *testing.T) {
	off := mgl32.Vec3{0.1, -0.2, 0.05}
	for _, rot := range []mgl32.Quat{mgl32.QuatIdent(), rotZ(90), mathx.Mul(rotX(45), rotZ(30))} {
		for _, obj := range []mgl32.Quat{mgl32.QuatIdent(), rotX(90)} {
			r := line(2, 0.5)
			r.skel.RestRot[2], r.animRot[2] = rot, rot // the tip's rest and pose
			r.obj.ObjectPos, r.obj.ObjectRot = mgl32.Vec3{1, 2, 3}, obj
			pool, c := r.build(t, Desc{EndOffset: off, Settings: DefaultSettings()})
			at := r.animated(c.Particles(pool))
			// rotX(90) takes (0.1, -0.2, 0.05) to (0.1, -0.05, -0.2).
			want := off
			if obj != mgl32.QuatIdent() {
				want = mgl32.Vec3{0.1, -0.05, -0.2}
			}
			assertVec(t, "end particle from the tip", at[3].Sub(at[2]), want, 1e-6)
		}
	}
}

func TestRefreshCurvesAndClamps(t *testing.T) {
	r := line(4, 0.25)
	s := DefaultSettings()
	s.Damping = 0.5
	s.Curves = &Curves{Damping: Curve{{0, 0}, {1, 1}}}
	s.Stiffness = 3 // clamped to 1
	s.Radius = -1   // clamped to 0
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	for i, want := range []float32{0, 0.125, 0.25, 0.375, 0.5} {
		v := c.Params(i)
		if math.Abs(float64(v.Damping-want)) > 1e-6 {
			t.Errorf("damping[%d] = %v, want %v", i, v.Damping, want)
		}
		if v.Stiffness != 1 || v.Radius != 0 {
			t.Errorf("particle %d: stiffness %v radius %v, want clamped 1 and 0", i, v.Stiffness, v.Radius)
		}
	}
	if len(c.paramsOf()) != 5 || len(c.packs()) != 5 {
		t.Errorf("a damping curve: %d params and %d packed records, want one per particle (5)", len(c.paramsOf()), len(c.packs()))
	}
	// A runtime edit takes effect on Refresh, without rebuilding.
	c.Settings.Curves = nil
	c.Settings.Friction = 0.7
	Refresh(p, c)
	if v, w := c.Params(2), c.Params(3); v.Damping != 0.5 || w.Friction != 0.7 {
		t.Errorf("after Refresh: damping %v friction %v, want 0.5 and 0.7", v.Damping, w.Friction)
	}
	// Without curves the particles share one record.
	if len(c.paramsOf()) != 1 || len(c.packs()) != 1 {
		t.Errorf("no curves: %d params and %d packed records, want 1 shared", len(c.paramsOf()), len(c.packs()))
	}
	if v := c.Params(5); v != (Params{}) {
		t.Errorf("Params(5) of a 5-particle chain = %+v, want the zero Params", v)
	}
	// N edited past what Refresh sized: the zero Params, not a read past
	// the records.
	c.Settings.Curves = &Curves{Damping: Curve{{0, 0}, {1, 1}}}
	Refresh(p, c)
	c.N += 3
	if v := c.Params(6); v != (Params{}) {
		t.Errorf("Params(6) of 5 particles sized, N edited to 8 = %+v, want the zero Params", v)
	}
}

func TestValidateNamesTheField(t *testing.T) {
	r := line(2, 0.5)
	nan := float32(math.NaN())
	for _, tc := range []struct {
		field string
		edit  func(d *Desc)
	}{
		{"Root", func(d *Desc) { d.Root = 7 }},
		{"Exclusions[0]", func(d *Desc) { d.Exclusions = []int32{-2} }},
		{"Colliders[1]", func(d *Desc) { d.Colliders = []int32{0, -1} }},
		{"EndLength", func(d *Desc) { d.EndLength = -1 }},
		{"EndOffset", func(d *Desc) { d.EndOffset = mgl32.Vec3{nan, 0, 0} }},
		{"Damping", func(d *Desc) { d.Settings.Damping = nan }},
		{"Curves.Radius[1].T", func(d *Desc) { d.Settings.Curves = &Curves{Radius: Curve{{0.5, 1}, {0.2, 1}}} }},
		{"Curves.Elasticity[0].V", func(d *Desc) { d.Settings.Curves = &Curves{Elasticity: Curve{{0, nan}}} }},
		{"Gravity", func(d *Desc) { d.Settings.Gravity = mgl32.Vec3{0, nan, 0} }},
		{"Freeze", func(d *Desc) { d.Settings.Freeze = 9 }},
		{"Mode", func(d *Desc) { d.Settings.Mode = 9 }},
		{"MaxSubSteps", func(d *Desc) { d.Settings.MaxSubSteps = -1 }},
		{"MaxSubSteps", func(d *Desc) { d.Settings.MaxSubSteps = MaxSubStepsLimit + 1 }},
		{"TeleportAngleDegrees", func(d *Desc) { d.Settings.TeleportAngleDegrees = -1 }},
		{"DisableDistance", func(d *Desc) { d.Settings.DisableDistance = nan }},
	} {
		d := Desc{Settings: DefaultSettings()}
		tc.edit(&d)
		err := Build(&Particles{}, &Chain{}, &r.skel, &d)
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, check.ErrInvalid) {
			t.Errorf("%s: got %v, want a FieldError naming %s", tc.field, err, tc.field)
		}
	}
	bad := r.skel
	bad.Parent = []int32{-1, 2, 1}
	if err := Build(&Particles{}, &Chain{}, &bad, &Desc{Settings: DefaultSettings()}); err == nil {
		t.Error("a skeleton with a child before its parent was accepted")
	}
	// The teleport angle is 0 (off) or 4..180 degrees; a value of a half
	// turn or less in radians is rejected with a hint.
	for _, tc := range []struct {
		deg  float32
		ok   bool
		hint bool
	}{{0, true, false}, {4, true, false}, {45, true, false}, {180, true, false},
		{math.Pi / 4, false, true}, {math.Pi, false, true}, {181, false, false}, {-45, false, false}, {nan, false, false}} {
		d := Desc{Settings: DefaultSettings()}
		d.Settings.TeleportAngleDegrees = tc.deg
		err := d.Validate(&r.skel)
		if (err == nil) != tc.ok || tc.hint != (err != nil && strings.Contains(err.Error(), "radians")) {
			t.Errorf("TeleportAngleDegrees %v: got %v, want ok %v, radians hint %v", tc.deg, err, tc.ok, tc.hint)
		}
	}
	// Out-of-range values DynamicBone clamps are not errors.
	d := Desc{Settings: DefaultSettings()}
	d.Settings.Damping, d.Settings.Radius, d.Settings.Weight = 2, -1, 5
	if err := d.Validate(&r.skel); err != nil {
		t.Errorf("clamped values rejected: %v", err)
	}
}
