package collide

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// tiny is the squared distance below which a particle counts as lying on a
// centre or an axis: no direction can be read from it.
const tiny = 1e-20

// The routines below work on scalar components rather than mgl32.Vec3:
// Go keeps [3]float32 values in memory, and in a kernel called per particle
// and collider the loads and stores cost more than the arithmetic.

// Collide treats the particle as a sphere of radius r at p and returns it
// moved so that it does not penetrate an Outside shape (or does not leave an
// Inside shape), and whether it moved. The move is the shortest one: the
// particle ends on the shape's surface grown (Outside) or shrunk (Inside) by
// r. Degenerate shapes still give a finite push; see the package doc.
func Collide(p mgl32.Vec3, r float32, s *Shape) (mgl32.Vec3, bool) {
	moved := Push(&p, r, s)
	return p, moved
}

// Push is Collide in place: it moves *p and reports whether it did. Kernels
// that call it per particle and collider prefer it: a returned
// [3]float32 goes through memory and costs more than the test itself.
func Push(p *mgl32.Vec3, r float32, s *Shape) bool {
	if !(r > 0) {
		r = 0
	}
	inside := s.Bound == Inside
	px, py, pz := p[0], p[1], p[2]
	var moved bool
	switch s.Kind {
	case Sphere:
		// A particle exactly at the centre goes up: hair resting on a head
		// slides up and off rather than sideways.
		px, py, pz, moved = sphere(px, py, pz, s.A[0], s.A[1], s.A[2], grow(s.RA, r, inside), inside, 0, 1, 0)
	case Capsule:
		px, py, pz, moved = capsule(px, py, pz, s, grow(s.RA, r, inside), grow(s.RB, r, inside), inside)
	case Plane:
		nx, ny, nz := s.N[0], s.N[1], s.N[2]
		// Signed distance of the particle's surface from the plane, on the
		// side the shape keeps it.
		d := float32((px-s.A[0])*nx) + float32((py-s.A[1])*ny) + float32((pz-s.A[2])*nz)
		if inside {
			nx, ny, nz, d = -nx, -ny, -nz, -d
		}
		if d -= r; d < 0 {
			px, py, pz, moved = px-float32(nx*d), py-float32(ny*d), pz-float32(nz*d), true
		}
	}
	if moved {
		p[0], p[1], p[2] = px, py, pz
	}
	return moved
}

// grow returns the radius of the shape the particle centre must stay out of
// (R+r) or in (R-r, not below zero).
func grow(R, r float32, inside bool) float32 {
	if inside {
		if R -= r; R < 0 {
			return 0
		}
		return R
	}
	return R + r
}

// sphere keeps p out of (or in) the sphere of radius R at c; f is the push
// direction for p exactly at c.
//
// Each product is converted to float32, which keeps the compiler from
// fusing it with the addition (GOAMD64=v3, arm64): the spring package's
// SIMD kernel repeats this push and must give the same bits.
func sphere(px, py, pz, cx, cy, cz, R float32, inside bool, fx, fy, fz float32) (float32, float32, float32, bool) {
	dx, dy, dz := px-cx, py-cy, pz-cz
	l2 := float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
	if inside {
		if l2 <= R*R {
			return px, py, pz, false
		}
	} else {
		if l2 >= R*R {
			return px, py, pz, false
		}
		if l2 <= tiny {
			return cx + float32(fx*R), cy + float32(fy*R), cz + float32(fz*R), true
		}
	}
	// l2 > 0 here: outside it passed the tiny test, inside l2 > R² ≥ 0.
	k := R / float32(math.Sqrt(float64(l2)))
	return cx + float32(dx*k), cy + float32(dy*k), cz + float32(dz*k), true
}

// capsule keeps p out of (or in) the round cone: the convex hull of the
// sphere of radius ra at s.A and the sphere of radius rb at s.B.
//
// In the plane through the axis, with x along the axis from A and y the
// distance from it, the cone side is the line tangent to both circles with
// unit normal (sn, cs), sn = (ra-rb)/L. Projecting onto the side's direction
// (cs, -sn) gives k, which is 0 at A's tangent point and L*cs at B's: k < 0
// is A's cap, k > L*cs is B's cap, anything between is nearest to the side.
// With ra == rb this is the ordinary capsule test (sn=0, k=x). Products
// are converted to float32 before they are summed, as in sphere: the
// chain step's results must be the same bits in every build.
func capsule(px, py, pz float32, s *Shape, ra, rb float32, inside bool) (float32, float32, float32, bool) {
	ax, ay, az := s.A[0], s.A[1], s.A[2]
	bx, by, bz := s.B[0], s.B[1], s.B[2]
	ux, uy, uz := bx-ax, by-ay, bz-az
	l2 := float32(ux*ux) + float32(uy*uy) + float32(uz*uz)
	if l2 <= tiny {
		return sphere(px, py, pz, ax, ay, az, max(ra, rb), inside, 0, 1, 0)
	}
	if !inside {
		// Early out without a square root: the hull lies within the
		// sphere about the midpoint of radius L/2 + max(ra, rb), and
		// (L/2 + R)² <= L²/2 + 2R².
		R := max(ra, rb)
		mx, my, mz := px-float32((ax+bx)*0.5), py-float32((ay+by)*0.5), pz-float32((az+bz)*0.5)
		if float32(mx*mx)+float32(my*my)+float32(mz*mz) > float32(0.5*l2)+float32(2*R*R) {
			return px, py, pz, false
		}
	}
	L := float32(math.Sqrt(float64(l2)))
	inv := 1 / L
	ux, uy, uz = ux*inv, uy*inv, uz*inv
	sn := (ra - rb) * inv
	// One end sphere contains the other: the hull is the larger sphere.
	if sn >= 1 {
		return sphere(px, py, pz, ax, ay, az, ra, inside, -ux, -uy, -uz)
	}
	if sn <= -1 {
		return sphere(px, py, pz, bx, by, bz, rb, inside, ux, uy, uz)
	}
	cs := float32(math.Sqrt(float64(1 - float32(sn*sn))))
	dx, dy, dz := px-ax, py-ay, pz-az
	x := float32(dx*ux) + float32(dy*uy) + float32(dz*uz)
	qx, qy, qz := dx-float32(ux*x), dy-float32(uy*x), dz-float32(uz*x)
	y2 := float32(qx*qx) + float32(qy*qy) + float32(qz*qz)
	y := float32(math.Sqrt(float64(y2)))
	k := float32(x*cs) - float32(y*sn)
	if k < 0 || k > L*cs {
		// A cap. The fallback direction is never used: p at A gives k = 0
		// and p at B gives k = L*cs, both on the side.
		if k < 0 {
			return sphere(px, py, pz, ax, ay, az, ra, inside, 0, 1, 0)
		}
		return sphere(px, py, pz, bx, by, bz, rb, inside, 0, 1, 0)
	}
	sd := float32(x*sn) + float32(y*cs) - ra
	if inside {
		if sd <= 0 {
			return px, py, pz, false
		}
	} else if sd >= 0 {
		return px, py, pz, false
	}
	// Radial unit vector; on the axis any perpendicular will do.
	if y2 > tiny {
		iy := 1 / y
		qx, qy, qz = qx*iy, qy*iy, qz*iy
	} else {
		w := mathx.AnyPerpendicular(mgl32.Vec3{ux, uy, uz})
		qx, qy, qz = w[0], w[1], w[2]
	}
	nx, ny, nz := float32(ux*sn)+float32(qx*cs), float32(uy*sn)+float32(qy*cs), float32(uz*sn)+float32(qz*cs)
	return px - float32(nx*sd), py - float32(ny*sd), pz - float32(nz*sd), true
}
