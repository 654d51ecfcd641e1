package chain

// Angle limits (Settings.LimitAngleDegrees). A segment from a particle's
// parent p to the particle x may turn away from its animated direction o
// (the animated pose's offset of the particle from its parent) by at most
// the limit angle θ: past it, x is turned about p in the plane of o and
// x - p until the angle is θ, its distance from p kept. The cone's axis
// follows the animation, as the springs' limits of the VRM draft and
// KawaiiPhysics' LimitAngle do, so a limit holds a strand near its
// animated shape without fixing it in the character's space.

// limitCone returns x turned about p into the cone of half-angle θ (cos,
// sin given) around o. A segment inside the cone, of no length, or an
// animated direction of no length, is left as it is; a segment pointing
// straight against o, which has no plane to turn in, is put on the cone's
// axis.
func limitCone(x0, x1, x2, p0, p1, p2, o0, o1, o2, cos, sin float32) (float32, float32, float32) {
	d0, d1, d2 := x0-p0, x1-p1, x2-p2
	dd, oo := dot3(d0, d1, d2), dot3(o0, o1, o2)
	if !(dd > 0) || !(oo > 0) {
		return x0, x1, x2
	}
	dl, ol := sqrt32(dd), sqrt32(oo)
	a0, a1, a2 := o0/ol, o1/ol, o2/ol // the axis
	along := float32(d0*a0) + float32(d1*a1) + float32(d2*a2)
	if along >= float32(dl*cos) {
		return x0, x1, x2 // inside the cone
	}
	// The part of d across the axis, as a unit vector.
	c0, c1, c2 := d0-float32(a0*along), d1-float32(a1*along), d2-float32(a2*along)
	cc := dot3(c0, c1, c2)
	if !(cc > float32(dd*1e-12)) {
		return p0 + float32(a0*dl), p1 + float32(a1*dl), p2 + float32(a2*dl)
	}
	u, v := float32(dl*cos), float32(dl*sin)/sqrt32(cc)
	return p0 + float32(a0*u) + float32(c0*v), p1 + float32(a1*u) + float32(c1*v), p2 + float32(a2*u) + float32(c2*v)
}
