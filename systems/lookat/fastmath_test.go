package lookat

import (
	"math"
	"math/rand"
	"testing"
)

// Damping's Padé approximant is -expm1 to about 1e-15, so its float32
// result is within half a float32 ulp (relative 2⁻²⁴ = 6.0e-8) of the
// float64 -expm1, and the same float32 as -expm1 rounded but for near-ties
// (fewer than one in 100,000), over speeds and frame times that use the
// approximant and on both sides of the switch to -expm1.
func TestDampingPadeMatchesExpm1(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	differ := 0
	check := func(speed, dt float32) {
		t.Helper()
		x := float64(speed) * float64(dt)
		want := -math.Expm1(-x)
		got := Damping(speed, dt)
		if d := math.Abs(float64(got)-want) / want; d > 0x1p-24 {
			t.Fatalf("Damping(%v, %v) = %v, want %v (relative error %.3g)", speed, dt, got, want, d)
		}
		if got != float32(want) {
			differ++
		}
	}
	const n = 200000
	for i := 0; i < n; i++ {
		speed := float32(math.Exp(r.Float64()*12 - 6)) // 0.0025 .. 400
		dt := float32(math.Exp(r.Float64()*8 - 9))     // 0.00012 .. 0.37
		check(speed, dt)
	}
	for _, x := range []float32{1e-30, 1e-7, 0.5, 0.999999, 1, 1.000001, 2} {
		check(x, 1)
	}
	if differ > n/100000 {
		t.Fatalf("%d of %d differ from -expm1 rounded to float32", differ, n)
	}
}

// slerp64 is mathx.Slerp in float64 on the float32 inputs, the reference
// for slerpQ: slerp, or nlerp for rotations within 0.9995 of each other.
func slerp64(a, b quat, t float32) [4]float64 {
	qa := [4]float64{float64(a.w), float64(a.x), float64(a.y), float64(a.z)}
	qb := [4]float64{float64(b.w), float64(b.x), float64(b.y), float64(b.z)}
	d := qa[0]*qb[0] + qa[1]*qb[1] + qa[2]*qb[2] + qa[3]*qb[3]
	if d < 0 {
		for i := range qb {
			qb[i] = -qb[i]
		}
		d = -d
	}
	wa, wb := 1-float64(t), float64(t)
	if d <= 0.9995 {
		theta := math.Acos(d)
		wa = math.Sin((1-float64(t))*theta) / math.Sin(theta)
		wb = math.Sin(float64(t)*theta) / math.Sin(theta)
	}
	var q [4]float64
	n := 0.0
	for i := range q {
		q[i] = wa*qa[i] + wb*qb[i]
		n += q[i] * q[i]
	}
	for i := range q {
		q[i] /= math.Sqrt(n)
	}
	return q
}

// angle64 is the angle in radians of the rotation between the unit
// quaternions q and r (up to sign), accurate for tiny angles.
func angle64(q quat, r [4]float64) float64 {
	// |q⁻¹ r|: w = q·r, v = q.w r.v - r.w q.v - q.v × r.v
	qw, qx, qy, qz := float64(q.w), float64(q.x), float64(q.y), float64(q.z)
	w := qw*r[0] + qx*r[1] + qy*r[2] + qz*r[3]
	vx := qw*r[1] - r[0]*qx - (qy*r[3] - qz*r[2])
	vy := qw*r[2] - r[0]*qy - (qz*r[1] - qx*r[3])
	vz := qw*r[3] - r[0]*qz - (qx*r[2] - qy*r[1])
	return 2 * math.Atan2(math.Sqrt(vx*vx+vy*vy+vz*vz), math.Abs(w))
}

// slerpQ (float32, atan and sine polynomials) agrees with mathx.Slerp in
// float64 to 5e-7 rad (measured: 4.1e-7) over random pairs of rotations,
// pairs close together (the nlerp branch and its edge) and fractions 0..1,
// and returns unit quaternions. Pairs whose a·b is within 1e-6 of the nlerp
// threshold are left out of the bound: there the float32 and float64 dot
// products can take different branches, which differ by up to 1e-6 rad
// (nlerp against slerp at 0.03 rad), in mathx.Slerp as well.
func TestSlerpQMatchesFloat64(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	worst := 0.0
	for i := 0; i < 200000; i++ {
		a := asQuatT(randUnitQuat(r))
		var b quat
		switch i % 3 {
		case 0:
			b = asQuatT(randUnitQuat(r))
		default:
			// Within about 0.1 rad of a, around the nlerp threshold.
			m := a.mgl()
			d := axisAngle(randDir(r), float32(r.Float64()*0.12))
			b = asQuatT(mathxMul(d, m))
		}
		tt := r.Float32()
		if i%50 == 0 {
			tt = float32(i%100) / 50 // 0 and 1
		}
		got := slerpQ(a, b, tt)
		if l := got.dot(got); math.Abs(float64(l)-1) > 1e-6 {
			t.Fatalf("slerpQ(%v, %v, %v) = %v not unit", a, b, tt, got)
		}
		if d := math.Abs(float64(a.dot(b))); math.Abs(d-0.9995) < 1e-6 {
			continue
		}
		if e := angle64(got, slerp64(a, b, tt)); e > worst {
			worst = e
			if e > 5e-7 {
				t.Fatalf("slerpQ(%v, %v, %v) = %v, %.3g rad from float64", a, b, tt, got, e)
			}
		}
	}
	t.Logf("worst %.3g rad", worst)
}
