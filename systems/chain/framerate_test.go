package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// tipPath simulates a 1 m chain at fps frames per second: 1 s to settle
// under gravity, then 4 s of root motion (eased in over the first 0.5 s);
// it returns the tip position every 1/6 s of the motion. naive runs one
// step per frame with gravity and elasticity scaled linearly by the frame
// time and damping per frame, as DynamicBone's per-frame mode does.
func tipPath(t *testing.T, mode StepMode, fps int, naive bool) []mgl32.Vec3 {
	return tipPathAt(t, mode, fps, naive, 0, 0)
}

// tipPathAt is tipPath with an update rate and a sub-step cap (0: the
// defaults).
func tipPathAt(t *testing.T, mode StepMode, fps int, naive bool, rate float32, maxSteps int) []mgl32.Vec3 {
	r := line(4, 0.25)
	s := DefaultSettings()
	s.Mode, s.MaxSubSteps = mode, int32(maxSteps)
	if rate > 0 {
		s.UpdateRate = rate
	}
	s.Damping, s.Elasticity, s.Stiffness, s.Inert = 0.1, 0.05, 0.1, 0.2
	// 0.01 m per step at the update rate, as DynamicBone would have it.
	g := mgl32.Vec3{0, -0.01, 0}
	s.Gravity = GravityFromDynamicBone(g, s.UpdateRate)
	if naive {
		// DynamicBone at the frame rate, its per-step values scaled by
		// hand (a linear guess).
		k := 60 / float32(fps)
		s.Mode, s.UpdateRate = Fixed, float32(fps)
		s.Gravity, s.Elasticity = GravityFromDynamicBone(g.Mul(k), s.UpdateRate), s.Elasticity*k
	}
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	r.obj.Dt = 1 / float32(fps)
	r.animRot[0] = rotZ(70) // tilted so that most of the gravity acts
	r.run(t, p, c, nil, fps, nil, nil)
	var path []mgl32.Vec3
	for k := 1; k <= 4*fps; k++ {
		ft := float64(k) / float64(fps)
		ease := min(ft/0.5, 1)
		ease = ease * ease * (3 - 2*ease)
		r.obj.ObjectPos = mgl32.Vec3{
			float32(ease * 0.4 * math.Sin(2*math.Pi*0.8*ft)), 0, float32(ease * 0.2 * math.Sin(2*math.Pi*0.5*ft)),
		}
		r.animRot[0] = rotZ(70 + ease*30*math.Sin(2*math.Pi*0.6*ft))
		r.animate()
		Update(p, c, r.pose, nil, &r.obj)
		if (k*6)%fps == 0 {
			path = append(path, p.Pos[p.Len()-1])
		}
	}
	return path
}

// gaps returns the largest and the root-mean-square distance between two
// paths' samples.
func gaps(a, b []mgl32.Vec3) (maxGap, rms float32) {
	var sum float64
	for i := range a {
		d := a[i].Sub(b[i]).Len()
		maxGap = max(maxGap, d)
		sum += float64(d * d)
	}
	return maxGap, float32(math.Sqrt(sum / float64(len(a))))
}

// The documented bounds (package doc, "Time"): in Variable mode the tip of a
// 1 m chain driven by the same root motion stays within these distances of
// its path at 240 fps. The scheme is first-order accurate in the step
// length, so at the default 60 Hz, 30 and 60 fps (both simulated in 1/60 s
// steps) differ most from 240 fps (1/240 s steps). At an update rate of
// 240 Hz every frame rate steps at 1/240 s or less and the paths agree to
// about a centimetre.
var (
	frameRateTolerance    = map[int]float32{30: 0.22, 60: 0.22, 144: 0.08}
	frameRateTolerance240 = map[int]float32{30: 0.02, 60: 0.01, 144: 0.02}
)

func TestVariableStepIsFrameRateIndependent(t *testing.T) {
	ref := tipPath(t, Variable, 240, false)
	refFixed := tipPath(t, Fixed, 240, false)
	refNaive := tipPath(t, Fixed, 240, true)
	for _, fps := range []int{30, 60, 144} {
		gap, rms := gaps(tipPath(t, Variable, fps, false), ref)
		fixedGap, _ := gaps(tipPath(t, Fixed, fps, false), refFixed)
		naiveGap, _ := gaps(tipPath(t, Fixed, fps, true), refNaive)
		t.Logf("%3d fps: Variable max %.3f m, rms %.3f m; Fixed max %.3f m; per-frame linear scaling max %.3f m",
			fps, gap, rms, fixedGap, naiveGap)
		if tol := frameRateTolerance[fps]; gap > tol {
			t.Errorf("%d fps: tip strays %.3f m from the 240 fps path, tolerance %.2f m", fps, gap, tol)
		}
	}
}

// At UpdateRate 240 (MaxSubSteps 8, so that 30 fps is not capped) the
// frame rate hardly matters: every rate runs steps of at most 1/240 s.
func TestVariableStepAt240HzAgreesAcrossFrameRates(t *testing.T) {
	ref := tipPathAt(t, Variable, 240, false, 240, 8)
	for _, fps := range []int{30, 60, 144} {
		gap, rms := gaps(tipPathAt(t, Variable, fps, false, 240, 8), ref)
		t.Logf("%3d fps at 240 Hz: max %.4f m, rms %.4f m", fps, gap, rms)
		if tol := frameRateTolerance240[fps]; gap > tol {
			t.Errorf("%d fps at 240 Hz: tip strays %.4f m from the 240 fps path, tolerance %.2f m", fps, gap, tol)
		}
	}
	// The cap matters: at the default of 3 sub-steps a 30 fps frame at
	// 240 Hz drops 5 of its 8 steps and the chain falls behind.
	capped, _ := gaps(tipPathAt(t, Variable, 30, false, 240, 0), ref)
	if capped < 5*frameRateTolerance240[30] {
		t.Errorf("30 fps capped at 3 sub-steps strays only %.4f m: MaxSubSteps is not applied", capped)
	}
}
