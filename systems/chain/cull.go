package chain

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// maxCull is how many of a chain's colliders get a bounding-sphere
// pre-test; further ones are always tested.
const maxCull = 8

// cullSphere is a collider's bounding sphere for a cheap rejection test
// before collide.Collide. A particle outside it cannot touch the shape.
type cullSphere struct {
	k      int32      // index into shapes
	always bool       // planes and Inside shapes: no bound
	c      mgl32.Vec3 // centre
	r      float32    // radius
}

// cullList fills dst with the chain's colliders that can reach the chain
// this step: those whose bounding sphere meets the sphere of radius reach
// around root. It returns how many it kept.
func cullList(dst *[maxCull]cullSphere, idx []int32, shapes []collide.Shape, root mgl32.Vec3, reach float32) int {
	n := 0
	for _, k := range idx[:min(len(idx), maxCull)] {
		if uint(k) >= uint(len(shapes)) {
			continue
		}
		s := &shapes[k]
		b := cullSphere{k: k}
		switch {
		case s.Bound == collide.Inside || s.Kind == collide.Plane:
			b.always = true
		case s.Kind == collide.Sphere:
			b.c, b.r = s.A, s.RA
		default:
			b.c = mathx.LerpVec3(s.A, s.B, 0.5)
			b.r = 0.5*mathx.Len(s.B.Sub(s.A)) + max(s.RA, s.RB)
		}
		if !b.always {
			d := b.c.Sub(root)
			if lim := b.r + reach; mathx.Dot(d, d) > lim*lim {
				continue // too far from the whole chain
			}
		}
		dst[n] = b
		n++
	}
	return n
}

// collideCulled pushes the particle of radius r at x out of the culled
// shapes, then out of any listed beyond maxCull.
func collideCulled(x mgl32.Vec3, r float32, cull []cullSphere, idx []int32, shapes []collide.Shape) (mgl32.Vec3, bool) {
	touched := false
	for b := range cull {
		cs := &cull[b]
		if !cs.always {
			d0, d1, d2 := x[0]-cs.c[0], x[1]-cs.c[1], x[2]-cs.c[2]
			if lim := cs.r + r; d0*d0+d1*d1+d2*d2 >= lim*lim {
				continue
			}
		}
		var moved bool
		x, moved = collide.Collide(x, r, &shapes[cs.k])
		touched = touched || moved
	}
	if len(idx) > maxCull {
		var moved bool
		x, moved = collideAll(x, r, idx[maxCull:], shapes)
		touched = touched || moved
	}
	return x, touched
}

// reach returns how far from the root particle any particle of p can be:
// the sum of the kept lengths (a path is never longer), plus the largest
// particle radius.
func reach(p Particles, scale float32) float32 {
	var sum, rmax float32
	for i := 1; i < len(p.RestLen); i++ {
		sum += p.RestLen[i]
		rmax = max(rmax, p.Radius[i])
	}
	r := sum + rmax*scale
	if !mathx.IsFinite(r) {
		return float32(math.Inf(1))
	}
	return r
}
