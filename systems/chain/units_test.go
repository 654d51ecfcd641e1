package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Gravity is an acceleration in m/s². Hand-worked: with no damping,
// elasticity or stiffness the step is Verlet, x += (x - prev) + g·h², so
// after n steps of h = 1/rate from rest a particle has fallen
// g·h²·(1 + 2 + ... + n) = g·h²·n(n+1)/2. In one second under 9.81 m/s²
// that is 9.81·1830/3600 = 4.98675 m at 60 Hz, 9.81·465/900 = 5.06850 m at
// 30 Hz and 9.81·7260/14400 = 4.94588 m at 120 Hz: the continuous
// ½·g·t² = 4.905 m plus the first-order error g·h·t/2. The particle hangs
// on a 1 km bone sticking out sideways (the root turned 90° about Z, so
// none of the gravity is removed as the rest pose's): over a 5 m drop the
// bone's length bends its path by about 1 cm sideways and 0.1 mm in
// height. Force, never removed, acts the same; both scale with the object.
func TestGravityIsMetresPerSecondSquared(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rate    float32
		scale   float32
		gravity bool    // Gravity, else Force
		want    float64 // metres fallen in the first second
	}{
		{"gravity at 60 Hz", 60, 1, true, 9.81 * 1830 / 3600},
		{"gravity at 30 Hz", 30, 1, true, 9.81 * 465 / 900},
		{"gravity at 120 Hz", 120, 1, true, 9.81 * 7260 / 14400},
		{"force at 60 Hz", 60, 1, false, 9.81 * 1830 / 3600},
		{"gravity at 60 Hz, object scale 2", 60, 2, true, 2 * 9.81 * 1830 / 3600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := line(1, 1000)
			r.animRot[0] = rotZ(90) // the bone sticks out along +X
			r.obj.Dt = 1 / tc.rate  // one step per frame
			r.obj.ObjectScale = mgl32.Vec3{tc.scale, tc.scale, tc.scale}
			s := still()
			s.UpdateRate = tc.rate
			if tc.gravity {
				s.Gravity = mgl32.Vec3{0, -9.81, 0}
			} else {
				s.Force = mgl32.Vec3{0, -9.81, 0}
			}
			pool, c := r.build(t, Desc{Settings: s})
			p := c.Particles(pool)
			r.run(t, p, c, nil, int(tc.rate), nil, nil) // one second
			fell := -float64(p.Pos[1][1])
			if math.Abs(fell-tc.want) > 2e-3*float64(tc.scale) {
				t.Errorf("fell %.5f m in 1 s, want %.5f m", fell, tc.want)
			}
		})
	}
}

// DynamicBone's gravity is a displacement per step at its update rate;
// times the rate squared it is an acceleration. Hand-worked:
// {0, -0.003, 0} per 60 Hz step is 0.003·3600 = 10.8 m/s²; {1, 0, -0.5}
// per 30 Hz step is {900, 0, -450}; a rate of 0 (one step per frame) counts
// as 60 Hz. Prepare turns the acceleration back into the per-step
// displacement the step adds, to within a rounding.
func TestGravityFromDynamicBone(t *testing.T) {
	for _, tc := range []struct {
		v    mgl32.Vec3
		rate float32
		want mgl32.Vec3
	}{
		{mgl32.Vec3{0, -0.003, 0}, 60, mgl32.Vec3{0, -10.8, 0}},
		{mgl32.Vec3{1, 0, -0.5}, 30, mgl32.Vec3{900, 0, -450}},
		{mgl32.Vec3{0, -0.01, 0}, 0, mgl32.Vec3{0, -36, 0}},
		{mgl32.Vec3{0, -0.01, 0}, -5, mgl32.Vec3{0, -36, 0}},
	} {
		if got := GravityFromDynamicBone(tc.v, tc.rate); got != tc.want {
			t.Errorf("GravityFromDynamicBone(%v, %v) = %v, want %v", tc.v, tc.rate, got, tc.want)
		}
	}
	for _, rate := range []float32{30, 60, 90, 240} {
		r := line(1, 1)
		r.obj.Dt = 1 / rate
		s := still()
		s.UpdateRate = rate
		db := mgl32.Vec3{0.002, -0.003, 0.001}
		s.Force = GravityFromDynamicBone(db, rate) // Force: none of it removed
		pool, c := r.build(t, Desc{Settings: s})
		r.prepare(c.Particles(pool), c)
		for k := range 3 {
			if d := math.Abs(float64(c.force[k] - db[k])); d > 2e-7*math.Abs(float64(db[k])) {
				t.Errorf("%v Hz: per-step force %v, want DynamicBone's %v", rate, c.force, db)
				break
			}
		}
	}
}

// In Fixed mode at UpdateRate 0 a step is a frame, so the acceleration is
// turned into a displacement with the frame's dt; in Variable mode a rate
// of 0 is 60 Hz.
func TestGravityStepAtRateZero(t *testing.T) {
	for _, tc := range []struct {
		mode StepMode
		dt   float32
		want float32 // per-step displacement: 9.81·h²
	}{
		{Fixed, 1.0 / 30, 9.81 / 900},
		{Fixed, 1.0 / 144, 9.81 / (144 * 144)},
		{Variable, 1.0 / 30, 9.81 / 3600},
	} {
		r := line(1, 1)
		r.animRot[0] = rotZ(90)
		r.obj.Dt = tc.dt
		s := still()
		s.Mode, s.UpdateRate = tc.mode, 0
		s.Gravity = mgl32.Vec3{0, -9.81, 0}
		pool, c := r.build(t, Desc{Settings: s})
		r.prepare(c.Particles(pool), c)
		if got := -c.force[1]; math.Abs(float64(got-tc.want)) > 1e-6*float64(tc.want) {
			t.Errorf("mode %v, dt %v: per-step force %v, want %v", tc.mode, tc.dt, got, tc.want)
		}
	}
}
