package ik

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// Hand-worked: unit bones along +X, target (1, 1, 0) at distance √2, so the
// inner angle at the middle joint is 90 degrees. Hint +Y puts the middle
// joint at (0, 1, 0); hint +X keeps it at (1, 0, 0).
func TestTwoBoneHandWorked(t *testing.T) {
	s := DefaultTwoBoneSettings()
	in := TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{1, 0, 0}, EndPos: mgl32.Vec3{2, 0, 0},
		UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
		Target: mgl32.Vec3{1, 1, 0}, Hint: mgl32.Vec3{0, 5, 0}, UseHint: true,
	}
	var out TwoBoneResult
	SolveTwoBone(&out, &s, &in)
	checkResult(t, &out)
	if !out.Reached || !vecNear(out.MiddlePos, mgl32.Vec3{0, 1, 0}, 1e-5) || !vecNear(out.EndPos, mgl32.Vec3{1, 1, 0}, 1e-5) {
		t.Fatalf("hint +Y: reached %v, middle %v, end %v", out.Reached, out.MiddlePos, out.EndPos)
	}
	// The upper bone turned 90 degrees about +Z: (cos 45°, 0, 0, sin 45°).
	if d := angleDiff(out.UpperRot, mgl32.Quat{W: 0.70710678, V: mgl32.Vec3{0, 0, 0.70710678}}); d > 1e-5 {
		t.Fatalf("upper rotation %v off by %v rad", out.UpperRot, d)
	}
	in.Hint = mgl32.Vec3{5, 0, 0}
	SolveTwoBone(&out, &s, &in)
	if !vecNear(out.MiddlePos, mgl32.Vec3{1, 0, 0}, 1e-5) || !vecNear(out.EndPos, mgl32.Vec3{1, 1, 0}, 1e-5) {
		t.Fatalf("hint +X: middle %v, end %v", out.MiddlePos, out.EndPos)
	}
}

// Random limbs, random reachable targets and hints: the end reaches the
// target, bone lengths hold, the middle joint lies on the hint's side of the
// upper–target line, and the reported positions match forward kinematics of
// the reported rotations.
func TestTwoBoneReachesReachableTargets(t *testing.T) {
	s := DefaultTwoBoneSettings()
	r := rand.New(rand.NewSource(1))
	var out TwoBoneResult
	for i := 0; i < 2000; i++ {
		in := randLimb(r)
		l1 := mathx.Len(in.MiddlePos.Sub(in.UpperPos))
		l2 := mathx.Len(in.EndPos.Sub(in.MiddlePos))
		lo, hi := float32(math.Abs(float64(l1-l2))), l1+l2
		dist := lo + (hi-lo)*(0.02+0.96*r.Float32())
		in.Target = in.UpperPos.Add(randDir(r).Mul(dist))
		in.Hint = in.UpperPos.Add(randDir(r).Mul(2))
		in.UseHint = i%4 != 0
		SolveTwoBone(&out, &s, &in)
		checkResult(t, &out)
		if !out.Reached {
			t.Fatalf("case %d: reachable target (%v of %v..%v) reported unreached", i, dist, lo, hi)
		}
		mid, end := fk(&in, &out)
		if !vecNear(end, in.Target, 1e-4) || !vecNear(out.EndPos, in.Target, 1e-4) {
			t.Fatalf("case %d: end %v / fk %v, target %v", i, out.EndPos, end, in.Target)
		}
		if !vecNear(mid, out.MiddlePos, 1e-4) {
			t.Fatalf("case %d: middle %v, fk %v", i, out.MiddlePos, mid)
		}
		if d := math.Abs(float64(mathx.Len(mid.Sub(in.UpperPos)) - l1)); d > 1e-4 {
			t.Fatalf("case %d: upper bone length changed by %v", i, d)
		}
		if d := math.Abs(float64(mathx.Len(end.Sub(mid)) - l2)); d > 1e-4 {
			t.Fatalf("case %d: lower bone length changed by %v", i, d)
		}
		if in.UseHint {
			k := mathx.NormalizeOr(in.Target.Sub(in.UpperPos), mgl32.Vec3{})
			side := func(p mgl32.Vec3) mgl32.Vec3 { v := p.Sub(in.UpperPos); return v.Sub(k.Mul(mathx.Dot(v, k))) }
			pm, ph := side(out.MiddlePos), side(in.Hint)
			// Only meaningful when the limb is visibly bent and the hint is
			// off the line.
			if mathx.Len(pm) > 1e-2 && mathx.Len(ph) > 1e-2 && mathx.Dot(pm, ph) <= 0 {
				t.Fatalf("case %d: middle joint %v not on the hint's side %v", i, pm, ph)
			}
		}
	}
}

// Without a hint the middle joint stays in its current bend plane.
func TestTwoBoneKeepsBendPlaneWithoutHint(t *testing.T) {
	s := DefaultTwoBoneSettings()
	in := TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{0, -1, 0.2}, EndPos: mgl32.Vec3{0, -2, 0},
		UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
		Target: mgl32.Vec3{0, -1.5, 0},
	}
	var out TwoBoneResult
	SolveTwoBone(&out, &s, &in)
	if !out.Reached || math.Abs(float64(out.MiddlePos[0])) > 1e-5 || out.MiddlePos[2] <= 0.2 {
		t.Fatalf("middle %v left the YZ plane or bent the wrong way", out.MiddlePos)
	}
}

// Beyond reach the limb stretches straight toward the target and reports
// it unreached.
func TestTwoBoneTargetBeyondReach(t *testing.T) {
	s := DefaultTwoBoneSettings()
	r := rand.New(rand.NewSource(2))
	var out TwoBoneResult
	for i := 0; i < 500; i++ {
		in := randLimb(r)
		l1 := mathx.Len(in.MiddlePos.Sub(in.UpperPos))
		l2 := mathx.Len(in.EndPos.Sub(in.MiddlePos))
		dir := randDir(r)
		in.Target = in.UpperPos.Add(dir.Mul((l1 + l2) * (1.01 + r.Float32()*3)))
		in.Hint, in.UseHint = in.UpperPos.Add(randDir(r)), i%2 == 0
		SolveTwoBone(&out, &s, &in)
		checkResult(t, &out)
		if out.Reached {
			t.Fatalf("case %d: unreachable target reported reached", i)
		}
		if want := in.UpperPos.Add(dir.Mul(l1 + l2)); !vecNear(out.EndPos, want, 1e-4) {
			t.Fatalf("case %d: end %v, want %v (straight toward target)", i, out.EndPos, want)
		}
		if want := in.UpperPos.Add(dir.Mul(l1)); !vecNear(out.MiddlePos, want, 1e-3) {
			t.Fatalf("case %d: middle %v, want %v (straight)", i, out.MiddlePos, want)
		}
	}
}

// Closer than |l1 - l2| the limb folds fully toward the target.
func TestTwoBoneTargetTooClose(t *testing.T) {
	s := DefaultTwoBoneSettings()
	in := TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{2, 0, 0}, EndPos: mgl32.Vec3{2, 1, 0},
		UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
		Target: mgl32.Vec3{0.5, 0, 0},
	}
	var out TwoBoneResult
	SolveTwoBone(&out, &s, &in)
	checkResult(t, &out)
	if out.Reached || !vecNear(out.EndPos, mgl32.Vec3{1, 0, 0}, 1e-4) {
		t.Fatalf("reached %v, end %v, want folded at (1, 0, 0)", out.Reached, out.EndPos)
	}
}

func TestTwoBoneTargetAtRoot(t *testing.T) {
	s := DefaultTwoBoneSettings()
	for _, lower := range []float32{1, 0.6} {
		in := TwoBoneInput{
			UpperPos: mgl32.Vec3{1, 2, 3}, MiddlePos: mgl32.Vec3{2, 2, 3}, EndPos: mgl32.Vec3{2, 2 - lower, 3},
			UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
			Target: mgl32.Vec3{1, 2, 3}, Hint: mgl32.Vec3{1, 5, 3}, UseHint: true,
		}
		var out TwoBoneResult
		SolveTwoBone(&out, &s, &in)
		checkResult(t, &out)
		gap := mathx.Len(out.EndPos.Sub(in.Target))
		if lower == 1 && (!out.Reached || gap > 1e-4) {
			t.Fatalf("equal bones: reached %v, end %v", out.Reached, out.EndPos)
		}
		if lower != 1 && (out.Reached || math.Abs(float64(gap)-0.4) > 1e-4) {
			t.Fatalf("unequal bones: reached %v, end %v %v from root, want 0.4", out.Reached, out.EndPos, gap)
		}
	}
}

// Straight limb with the hint on its line, on the target line, at the
// root, or missing: some bend plane is still chosen and the target reached.
func TestTwoBoneHintParallelToLimb(t *testing.T) {
	s := DefaultTwoBoneSettings()
	hints := []struct {
		p   mgl32.Vec3
		use bool
	}{{mgl32.Vec3{5, 0, 0}, true}, {mgl32.Vec3{0, 0, 0}, true}, {mgl32.Vec3{-3, 0, 0}, true}, {mgl32.Vec3{}, false}}
	for _, mid := range []mgl32.Quat{mgl32.QuatIdent(), {W: 0.70710678, V: mgl32.Vec3{0.70710678, 0, 0}}} {
		for _, h := range hints {
			in := TwoBoneInput{
				UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{1, 0, 0}, EndPos: mgl32.Vec3{2, 0, 0},
				UpperRot: mgl32.QuatIdent(), MiddleRot: mid, EndRot: mgl32.QuatIdent(),
				Target: mgl32.Vec3{1.2, 0, 0}, Hint: h.p, UseHint: h.use,
			}
			var out TwoBoneResult
			SolveTwoBone(&out, &s, &in)
			checkResult(t, &out)
			if !out.Reached || !vecNear(out.EndPos, in.Target, 1e-4) {
				t.Fatalf("hint %v: reached %v, end %v", h, out.Reached, out.EndPos)
			}
		}
	}
}

// Straight limb, hint off the line: the bend goes toward the hint.
func TestTwoBoneStraightLimbBendsTowardHint(t *testing.T) {
	s := DefaultTwoBoneSettings()
	in := TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{0, -1, 0}, EndPos: mgl32.Vec3{0, -2, 0},
		UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
		Target: mgl32.Vec3{0, -1.5, 0}, Hint: mgl32.Vec3{0, -1, 3}, UseHint: true,
	}
	var out TwoBoneResult
	SolveTwoBone(&out, &s, &in)
	if !out.Reached || out.MiddlePos[2] < 0.6 || math.Abs(float64(out.MiddlePos[0])) > 1e-5 {
		t.Fatalf("middle %v, want bent toward +Z in the YZ plane", out.MiddlePos)
	}
}

func TestTwoBoneZeroLengthBone(t *testing.T) {
	s := DefaultTwoBoneSettings()
	cases := []struct {
		name    string
		a, b, c mgl32.Vec3
		target  mgl32.Vec3
		reached bool
	}{
		{"upper zero, on sphere", mgl32.Vec3{}, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, true},
		{"upper zero, off sphere", mgl32.Vec3{}, mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 2, 0}, false},
		{"lower zero", mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}, true},
		{"both zero", mgl32.Vec3{1, 1, 1}, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{2, 1, 1}, false},
		{"both zero, target on root", mgl32.Vec3{1, 1, 1}, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{1, 1, 1}, true},
	}
	for _, c := range cases {
		in := TwoBoneInput{
			UpperPos: c.a, MiddlePos: c.b, EndPos: c.c,
			UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
			Target: c.target, Hint: mgl32.Vec3{0, 0, 3}, UseHint: true,
		}
		var out TwoBoneResult
		SolveTwoBone(&out, &s, &in)
		checkResult(t, &out)
		if out.Reached != c.reached {
			t.Fatalf("%s: reached %v, want %v", c.name, out.Reached, c.reached)
		}
		if c.reached && !vecNear(out.EndPos, c.target, 1e-4) {
			t.Fatalf("%s: end %v, target %v", c.name, out.EndPos, c.target)
		}
	}
}

// Degenerate rotations and settings never give NaN.
func TestTwoBoneDegenerateInputs(t *testing.T) {
	nan := float32(math.NaN())
	s := TwoBoneSettings{MidAxis: mgl32.Vec3{}, Soften: nan, Weight: 3}
	in := TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{1, 0, 0}, EndPos: mgl32.Vec3{2, 0, 0},
		Target: mgl32.Vec3{0.5, 0.5, 0}, TargetRot: mgl32.Quat{}, UseTargetRot: true,
	}
	var out TwoBoneResult
	SolveTwoBone(&out, &s, &in)
	checkResult(t, &out)
	if !vecNear(out.EndPos, in.Target, 1e-4) {
		t.Fatalf("end %v, target %v", out.EndPos, in.Target)
	}
}

// Hand-worked soft limit: with Soften 0.9 a target at exactly the chain
// length L is eased to 0.9L + 0.1L(1 - 3⁴/4⁴) = 0.968359375 L; a target at
// 0.9L is reached exactly.
func TestTwoBoneSoften(t *testing.T) {
	s := DefaultTwoBoneSettings()
	s.Soften = 0.9
	in := TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{1, 0.3, 0}, EndPos: mgl32.Vec3{2, 0, 0},
		UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
	}
	chain := 2 * mathx.Len(mgl32.Vec3{1, 0.3, 0})
	in.Target = mgl32.Vec3{0, chain, 0}
	var out TwoBoneResult
	SolveTwoBone(&out, &s, &in)
	if out.Reached || math.Abs(float64(out.EndPos[1]/chain)-0.968359375) > 1e-5 {
		t.Fatalf("reached %v, end at %v L, want 0.968359375 L", out.Reached, out.EndPos[1]/chain)
	}
	in.Target = mgl32.Vec3{0, 0.9 * chain, 0}
	SolveTwoBone(&out, &s, &in)
	if !out.Reached || !vecNear(out.EndPos, in.Target, 1e-5) {
		t.Fatalf("at soft start: reached %v, end %v", out.Reached, out.EndPos)
	}
	// The eased distance never decreases as the target moves away.
	prev := float32(0)
	for d := 0.5 * chain; d < 3*chain; d += 0.01 {
		got := softDistance(d, 0.9*chain, 0.1*chain)
		if got < prev || got > chain {
			t.Fatalf("softDistance(%v) = %v after %v", d, got, prev)
		}
		prev = got
	}
}

// Weight 0 leaves the pose alone; half weight lands between; the end takes
// the target rotation at full weight.
func TestTwoBoneWeightAndTargetRotation(t *testing.T) {
	s := DefaultTwoBoneSettings()
	in := TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{1, 0, 0}, EndPos: mgl32.Vec3{1, 1, 0},
		UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
		Target: mgl32.Vec3{0, 1.2, 0.5}, TargetRot: mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}, UseTargetRot: true,
	}
	var out TwoBoneResult
	SolveTwoBone(&out, &s, &in)
	if !out.Reached || angleDiff(out.EndRot, in.TargetRot) > 1e-5 {
		t.Fatalf("full weight: reached %v, end rotation %v", out.Reached, out.EndRot)
	}
	s.Weight = 0
	SolveTwoBone(&out, &s, &in)
	if out.Reached || out.UpperRot != in.UpperRot || !vecNear(out.EndPos, in.EndPos, 1e-6) || angleDiff(out.EndRot, in.EndRot) > 1e-6 {
		t.Fatalf("zero weight changed the pose: %+v", out)
	}
	s.Weight = 0.5
	SolveTwoBone(&out, &s, &in)
	checkResult(t, &out)
	if out.Reached || vecNear(out.EndPos, in.EndPos, 1e-2) || vecNear(out.EndPos, in.Target, 1e-2) {
		t.Fatalf("half weight: reached %v, end %v", out.Reached, out.EndPos)
	}
	s.Weight = -2 // clamped to 0
	SolveTwoBone(&out, &s, &in)
	if !vecNear(out.EndPos, in.EndPos, 1e-6) {
		t.Fatalf("weight -2 moved the end to %v", out.EndPos)
	}
}

func TestLocalRotation(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 100; i++ {
		p, w := randUnitQuat(r), randUnitQuat(r)
		if d := angleDiff(mathx.Mul(p, LocalRotation(p, w)), w); d > 1e-5 {
			t.Fatalf("case %d: off by %v", i, d)
		}
	}
	if q := LocalRotation(mgl32.Quat{}, mgl32.Quat{}); q != mgl32.QuatIdent() {
		t.Fatalf("zero inputs: %v", q)
	}
}

func TestTwoBoneSettingsValidate(t *testing.T) {
	good := DefaultTwoBoneSettings()
	if err := good.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	clamped := good
	clamped.Soften, clamped.Weight = 1.5, -0.2 // documented clamps
	if err := clamped.Validate(); err != nil {
		t.Fatalf("clamped values rejected: %v", err)
	}
	nan := float32(math.NaN())
	cases := []struct {
		field string
		edit  func(*TwoBoneSettings)
	}{
		{"MidAxis", func(s *TwoBoneSettings) { s.MidAxis = mgl32.Vec3{} }},
		{"MidAxis", func(s *TwoBoneSettings) { s.MidAxis[1] = nan }},
		{"Soften", func(s *TwoBoneSettings) { s.Soften = float32(math.Inf(-1)) }},
		{"Weight", func(s *TwoBoneSettings) { s.Weight = nan }},
	}
	for _, c := range cases {
		s := good
		c.edit(&s)
		err := s.Validate()
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "TwoBoneSettings" || !errors.Is(err, check.ErrInvalid) {
			t.Errorf("want FieldError on %s, got %v", c.field, err)
		}
	}
}

func TestSolveTwoBoneDoesNotAllocate(t *testing.T) {
	s := DefaultTwoBoneSettings()
	r := rand.New(rand.NewSource(4))
	in := randLimb(r)
	in.Target, in.Hint, in.UseHint, in.UseTargetRot = in.UpperPos.Add(randDir(r)), mgl32.Vec3{0, 3, 0}, true, true
	in.TargetRot = randUnitQuat(r)
	var out TwoBoneResult
	if n := testing.AllocsPerRun(100, func() { SolveTwoBone(&out, &s, &in) }); n != 0 {
		t.Fatalf("SolveTwoBone allocates %v times per call", n)
	}
	if n := testing.AllocsPerRun(100, func() { out.UpperRot = LocalRotation(in.UpperRot, out.MiddleRot) }); n != 0 {
		t.Fatalf("LocalRotation allocates %v times per call", n)
	}
}
