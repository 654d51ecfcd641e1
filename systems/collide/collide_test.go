package collide

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

func near(a, b mgl32.Vec3, tol float32) bool {
	return a.Sub(b).Len() <= tol
}

func sphereShape(c mgl32.Vec3, R float32, b Bound) Shape {
	return Shape{Kind: Sphere, Bound: b, A: c, B: c, RA: R, RB: R}
}

func capsuleShape(a, b mgl32.Vec3, ra, rb float32, bound Bound) Shape {
	return Shape{Kind: Capsule, Bound: bound, A: a, B: b, RA: ra, RB: rb}
}

func TestCollideExactPushes(t *testing.T) {
	cases := []struct {
		name  string
		s     Shape
		p     mgl32.Vec3
		r     float32
		want  mgl32.Vec3
		moved bool
	}{
		{"sphere", sphereShape(mgl32.Vec3{}, 0.1, Outside), mgl32.Vec3{0, 0.05, 0}, 0.01, mgl32.Vec3{0, 0.11, 0}, true},
		{"sphere clear", sphereShape(mgl32.Vec3{}, 0.1, Outside), mgl32.Vec3{0, 0.2, 0}, 0.01, mgl32.Vec3{0, 0.2, 0}, false},
		{"inside sphere", sphereShape(mgl32.Vec3{}, 1, Inside), mgl32.Vec3{2, 0, 0}, 0.25, mgl32.Vec3{0.75, 0, 0}, true},
		{"inside sphere clear", sphereShape(mgl32.Vec3{}, 1, Inside), mgl32.Vec3{0.5, 0, 0}, 0.25, mgl32.Vec3{0.5, 0, 0}, false},
		{"capsule side", capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.1, 0.1, Outside), mgl32.Vec3{0.05, 0.5, 0}, 0.01, mgl32.Vec3{0.11, 0.5, 0}, true},
		{"capsule cap A", capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.1, 0.1, Outside), mgl32.Vec3{0, -0.05, 0}, 0.01, mgl32.Vec3{0, -0.11, 0}, true},
		{"capsule cap B", capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.1, 0.1, Outside), mgl32.Vec3{0, 1.05, 0}, 0.01, mgl32.Vec3{0, 1.11, 0}, true},
		{"inside capsule", capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.1, 0.1, Inside), mgl32.Vec3{0, 0.5, 0.3}, 0.02, mgl32.Vec3{0, 0.5, 0.08}, true},
		// Round cone: ra=0.2 at the origin, rb=0.1 at (1,0,0). sn=0.1,
		// cs=√0.99; at (0.5,0.1): sd = 0.5·0.1 + 0.1·√0.99 - 0.2 =
		// -0.0505012563, normal (0.1, √0.99), so p' = p - sd·n.
		// DynamicBone's radial push would stop at (0.5, 0.15), which is
		// still 0.00075 inside the hull.
		{"tapered capsule side", capsuleShape(mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 0.2, 0.1, Outside), mgl32.Vec3{0.5, 0.1, 0}, 0, mgl32.Vec3{0.5050501256, 0.1502481156, 0}, true},
		{"plane", Shape{Kind: Plane, N: mgl32.Vec3{0, 1, 0}}, mgl32.Vec3{1, -0.5, 2}, 0.1, mgl32.Vec3{1, 0.1, 2}, true},
		{"plane clear", Shape{Kind: Plane, N: mgl32.Vec3{0, 1, 0}}, mgl32.Vec3{1, 0.5, 2}, 0.1, mgl32.Vec3{1, 0.5, 2}, false},
		{"inside plane", Shape{Kind: Plane, Bound: Inside, N: mgl32.Vec3{0, 1, 0}}, mgl32.Vec3{1, 0.5, 2}, 0.1, mgl32.Vec3{1, -0.1, 2}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, moved := Collide(c.p, c.r, &c.s)
			if moved != c.moved || !near(got, c.want, 1e-6) {
				t.Errorf("Collide(%v, %v) = %v, %v; want %v, %v", c.p, c.r, got, moved, c.want, c.moved)
			}
		})
	}
}

func TestCollideParticleAtSphereCentre(t *testing.T) {
	s := sphereShape(mgl32.Vec3{1, 2, 3}, 0.1, Outside)
	got, moved := Collide(mgl32.Vec3{1, 2, 3}, 0.01, &s)
	if !moved || !near(got, mgl32.Vec3{1, 2.11, 3}, 1e-6) {
		t.Errorf("got %v, %v; want (1, 2.11, 3), true", got, moved)
	}
}

func TestCollideZeroLengthCapsule(t *testing.T) {
	c := mgl32.Vec3{1, 1, 1}
	s := capsuleShape(c, c, 0.1, 0.2, Outside)
	got, moved := Collide(mgl32.Vec3{1.1, 1, 1}, 0.01, &s)
	if !moved || !near(got, mgl32.Vec3{1.21, 1, 1}, 1e-6) {
		t.Errorf("got %v, %v; want the larger sphere's push to (1.21, 1, 1)", got, moved)
	}
	got, moved = Collide(c, 0.01, &s)
	if !moved || !mathx.Vec3Finite(got) || math.Abs(float64(got.Sub(c).Len()-0.21)) > 1e-6 {
		t.Errorf("particle at the centre: got %v, %v; want a finite push to distance 0.21", got, moved)
	}
}

func TestCollideParticleOnCapsuleAxis(t *testing.T) {
	for _, rb := range []float32{0.1, 0.05} {
		s := capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.1, rb, Outside)
		p := mgl32.Vec3{0, 0.5, 0}
		got, moved := Collide(p, 0.01, &s)
		if !moved || !mathx.Vec3Finite(got) {
			t.Fatalf("rb=%v: got %v, %v; want a finite push", rb, got, moved)
		}
		if d := roundConeDist(got, &s) - 0.01; math.Abs(d) > 1e-6 {
			t.Errorf("rb=%v: pushed particle is %v from the surface, want 0", rb, d)
		}
	}
	// Inside a capsule thinner than the particle: onto the axis.
	s := capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.01, 0.01, Inside)
	got, _ := Collide(mgl32.Vec3{0.5, 0.5, 0}, 0.1, &s)
	if !near(got, mgl32.Vec3{0, 0.5, 0}, 1e-6) {
		t.Errorf("inside, particle wider than capsule: got %v, want (0, 0.5, 0)", got)
	}
}

func TestCollideNestedCapsuleEnds(t *testing.T) {
	// B's sphere lies within A's: the hull is A's sphere.
	s := capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0.5, 0, 0}, 1, 0.1, Outside)
	got, moved := Collide(mgl32.Vec3{0, 0.5, 0}, 0, &s)
	if !moved || !near(got, mgl32.Vec3{0, 1, 0}, 1e-6) {
		t.Errorf("got %v, %v; want (0, 1, 0), true", got, moved)
	}
}

func TestCollideNegativeRadiusIsZero(t *testing.T) {
	s := sphereShape(mgl32.Vec3{}, 0.1, Outside)
	got, _ := Collide(mgl32.Vec3{0.05, 0, 0}, -1, &s)
	if !near(got, mgl32.Vec3{0.1, 0, 0}, 1e-6) {
		t.Errorf("got %v, want (0.1, 0, 0)", got)
	}
}

// roundConeDist is the distance from p to the hull of the two end spheres,
// computed independently of Collide as min over t of |p - C(t)| - R(t)
// (the hull is the union of the interpolated spheres). The function is
// convex in t, so a ternary search finds the minimum.
func roundConeDist(p mgl32.Vec3, s *Shape) float64 {
	f := func(t float64) float64 {
		var d2 float64
		for i := range 3 {
			c := float64(s.A[i]) + t*(float64(s.B[i])-float64(s.A[i]))
			d := float64(p[i]) - c
			d2 += d * d
		}
		return math.Sqrt(d2) - (float64(s.RA) + t*(float64(s.RB)-float64(s.RA)))
	}
	lo, hi := 0.0, 1.0
	for range 200 {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		if f(m1) < f(m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return min(f(0), f(1), f((lo+hi)/2))
}

func randVec(rng *rand.Rand, k float32) mgl32.Vec3 {
	return mgl32.Vec3{(rng.Float32()*2 - 1) * k, (rng.Float32()*2 - 1) * k, (rng.Float32()*2 - 1) * k}
}

func randShape(rng *rand.Rand, kind Kind, bound Bound) Shape {
	s := Shape{Kind: kind, Bound: bound, A: randVec(rng, 1)}
	switch kind {
	case Sphere:
		s.RA = 0.05 + rng.Float32()
		s.B, s.RB = s.A, s.RA
	case Capsule:
		s.B = s.A.Add(randVec(rng, 1))
		s.RA = 0.05 + rng.Float32()*0.5
		s.RB = 0.05 + rng.Float32()*0.5
		if rng.Intn(4) == 0 {
			s.RB = s.RA
		}
	case Plane:
		s.N = mathx.NormalizeOr(randVec(rng, 1), mgl32.Vec3{0, 1, 0})
	}
	return s
}

// 26 directions over the particle's surface for the Inside check.
var probeDirs = func() []mgl32.Vec3 {
	var ds []mgl32.Vec3
	for x := -1; x <= 1; x++ {
		for y := -1; y <= 1; y++ {
			for z := -1; z <= 1; z++ {
				if x != 0 || y != 0 || z != 0 {
					ds = append(ds, mathx.NormalizeOr(mgl32.Vec3{float32(x), float32(y), float32(z)}, mgl32.Vec3{}))
				}
			}
		}
	}
	return ds
}()

func TestCollidePropertyOutsideNeverPenetrated(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, kind := range []Kind{Sphere, Capsule, Plane} {
		for i := range 5000 {
			s := randShape(rng, kind, Outside)
			p := randVec(rng, 2)
			r := rng.Float32() * 0.1
			got, moved := Collide(p, r, &s)
			if !mathx.Vec3Finite(got) {
				t.Fatalf("kind %d #%d: non-finite %v", kind, i, got)
			}
			var d float64 // distance of the particle's surface from the shape
			if kind == Plane {
				d = float64(mathx.Dot(got.Sub(s.A), s.N)) - float64(r)
			} else {
				d = roundConeDist(got, &s) - float64(r)
			}
			if d < -1e-5 {
				t.Fatalf("kind %d #%d: %+v p=%v r=%v -> %v penetrates by %v", kind, i, s, p, r, got, -d)
			}
			if moved == (got == p) {
				t.Fatalf("kind %d #%d: moved=%v but p=%v got=%v", kind, i, moved, p, got)
			}
			if q := p; Push(&q, r, &s) != moved || q != got {
				t.Fatalf("kind %d #%d: Push gives %v, Collide %v", kind, i, q, got)
			}
			if moved && d > 1e-5 {
				t.Fatalf("kind %d #%d: pushed %v beyond the surface (gap %v)", kind, i, got, d)
			}
		}
	}
}

func TestCollidePropertyInsideNeverLeft(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, kind := range []Kind{Sphere, Capsule, Plane} {
		for i := range 3000 {
			s := randShape(rng, kind, Inside)
			p := randVec(rng, 2)
			r := rng.Float32() * 0.05 // narrower than any shape
			got, moved := Collide(p, r, &s)
			if !mathx.Vec3Finite(got) {
				t.Fatalf("kind %d #%d: non-finite %v", kind, i, got)
			}
			if moved == (got == p) {
				t.Fatalf("kind %d #%d: moved=%v but p=%v got=%v", kind, i, moved, p, got)
			}
			// Every point of the particle's surface must be in the shape.
			for _, dir := range probeDirs {
				q := got.Add(dir.Mul(r))
				var out float64
				if kind == Plane {
					out = float64(mathx.Dot(q.Sub(s.A), s.N))
				} else {
					out = roundConeDist(q, &s)
				}
				if out > 1e-5 {
					t.Fatalf("kind %d #%d: %+v p=%v r=%v -> %v leaves by %v", kind, i, s, p, r, got, out)
				}
			}
		}
	}
}

func TestToWorldRotatedScaledBone(t *testing.T) {
	pos := mgl32.Vec3{1, 2, 3}
	rot := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1}) // x -> y, y -> -x
	scale := mgl32.Vec3{2, 1, 0.5}
	var s Shape

	d := NewSphere(mgl32.Vec3{1, 0, 0}, 0.1)
	ToWorld(&s, &d, pos, rot, scale)
	if !near(s.A, mgl32.Vec3{1, 4, 3}, 1e-6) || math.Abs(float64(s.RA-0.2)) > 1e-7 || s.RB != s.RA {
		t.Errorf("sphere: A=%v RA=%v RB=%v; want (1,4,3), 0.2, 0.2", s.A, s.RA, s.RB)
	}

	d = NewCapsule(mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, 0.1, 0.05)
	ToWorld(&s, &d, pos, rot, scale)
	if !near(s.A, mgl32.Vec3{1, 4, 3}, 1e-6) || !near(s.B, mgl32.Vec3{0, 2, 3}, 1e-6) ||
		math.Abs(float64(s.RA-0.2)) > 1e-7 || math.Abs(float64(s.RB-0.1)) > 1e-7 {
		t.Errorf("capsule: %+v; want A (1,4,3), B (0,2,3), RA 0.2, RB 0.1", s)
	}

	// Normal (1,1,0) under scale (2,1,0.5): the plane's image has normal
	// ∝ scale⁻¹⊙n = (0.5,1,0) → (1,2,0)/√5, rotated: (-2,1,0)/√5.
	d = NewPlane(mgl32.Vec3{0, 0, 1}, mgl32.Vec3{1, 1, 0})
	ToWorld(&s, &d, pos, rot, scale)
	if !near(s.A, mgl32.Vec3{1, 2, 3.5}, 1e-6) || !near(s.N, mgl32.Vec3{-0.894427191, 0.4472135955, 0}, 1e-6) {
		t.Errorf("plane: A=%v N=%v; want (1,2,3.5), (-0.8944, 0.4472, 0)", s.A, s.N)
	}
	// The image of a bone-space point on the plane lies on the world plane.
	onPlane := mgl32.Vec3{1, -1, 1}
	w := pos.Add(mathx.Rotate(rot, mul3(scale, onPlane)))
	if dd := mathx.Dot(w.Sub(s.A), s.N); math.Abs(float64(dd)) > 1e-6 {
		t.Errorf("plane: image of an on-plane point is %v off the plane", dd)
	}

	// A mirrored bone keeps the normal on the side it pointed to.
	d = NewPlane(mgl32.Vec3{}, mgl32.Vec3{1, 0, 0})
	ToWorld(&s, &d, mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{-1, 1, 1})
	if !near(s.N, mgl32.Vec3{-1, 0, 0}, 1e-7) {
		t.Errorf("mirrored plane: N=%v, want (-1,0,0)", s.N)
	}

	// A zero scale component still gives a unit normal.
	d = NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	ToWorld(&s, &d, mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{0, 1, 0})
	if !near(s.N, mgl32.Vec3{0, 1, 0}, 1e-7) {
		t.Errorf("zero-scale plane: N=%v, want (0,1,0)", s.N)
	}
}

func TestDescValidate(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name  string
		d     Desc
		field string
	}{
		{"kind", Desc{Kind: 7}, "Kind"},
		{"bound", Desc{Bound: 3}, "Bound"},
		{"offset", NewSphere(mgl32.Vec3{nan, 0, 0}, 1), "Offset"},
		{"radius", NewSphere(mgl32.Vec3{}, -0.1), "Radius"},
		{"tail", NewCapsule(mgl32.Vec3{}, mgl32.Vec3{0, float32(math.Inf(1)), 0}, 1, 1), "Tail"},
		{"tail radius", NewCapsule(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 1, nan), "TailRadius"},
		{"zero normal", NewPlane(mgl32.Vec3{}, mgl32.Vec3{}), "Normal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.d.Validate()
			var fe *check.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "collide.Desc" {
				t.Fatalf("Validate() = %v; want a *check.FieldError on %s", err, c.field)
			}
			if !errors.Is(err, check.ErrInvalid) {
				t.Errorf("error does not wrap check.ErrInvalid")
			}
		})
	}
	for _, d := range []Desc{NewSphere(mgl32.Vec3{}, 0), NewCapsule(mgl32.Vec3{}, mgl32.Vec3{}, 0.1, 0.2), NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 0, 2})} {
		if err := d.Validate(); err != nil {
			t.Errorf("%+v: unexpected %v", d, err)
		}
	}
	if c := NewCapsule(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.3, 0.3); c.TailRadius != 0.3 || NewSphere(mgl32.Vec3{}, 0.4).TailRadius != 0.4 {
		t.Errorf("constructors must set TailRadius")
	}
}

func TestCollideAndToWorldDoNotAllocate(t *testing.T) {
	shapes := []Shape{
		sphereShape(mgl32.Vec3{}, 0.1, Outside),
		capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.1, 0.05, Inside),
		{Kind: Plane, N: mgl32.Vec3{0, 1, 0}},
	}
	d := NewCapsule(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}, 0.1, 0.05)
	var sink mgl32.Vec3
	n := testing.AllocsPerRun(100, func() {
		for i := range shapes {
			p, _ := Collide(mgl32.Vec3{0.01, 0.5, 0}, 0.02, &shapes[i])
			Push(&p, 0.01, &shapes[i])
			sink = sink.Add(p)
		}
		ToWorld(&shapes[1], &d, mgl32.Vec3{1, 0, 0}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1})
	})
	if n != 0 {
		t.Errorf("allocs per run = %v, want 0", n)
	}
	_ = sink
}
