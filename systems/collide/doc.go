// Package collide is the collider module shared by the dynamic-bone chains
// and the VRM spring bones: one description type, one world-space shape and
// one push-out routine, so that both systems see the same colliders behave
// the same way.
//
// # Outline
//
//   - Desc describes a collider in the space of the bone it is attached to:
//     a sphere, a capsule (optionally tapered: a different radius at each end)
//     or a plane, with a Bound that keeps particles Outside or Inside the
//     shape. NewSphere, NewCapsule and NewPlane build one; Validate reports a
//     bad value as a *check.FieldError.
//   - Shape is the collider placed in world space, made once per frame by
//     ToWorld from the bone's world transform. Radii scale by the largest
//     absolute component of the bone's world scale, so a collider never
//     shrinks inside the body it stands for under non-uniform scale.
//   - Collide treats a particle as a sphere and moves it to the nearest
//     position that does not penetrate an Outside shape (or does not leave
//     an Inside shape). Push does the same in place, for kernels that call
//     it per particle and collider.
//
// # Shapes
//
// A capsule is the convex hull of the sphere of radius RA at A and the
// sphere of radius RB at B. With RA != RB this is a "round cone": two sphere
// caps joined by a cone frustum tangent to both. Collide projects onto that
// exact surface. DynamicBone's tapered capsule instead pushes radially from
// the axis to a radius interpolated along it, which is neither the nearest
// point nor on the hull where the taper is steep; the exact projection costs
// the same (one square root more) and keeps the property that a pushed
// particle lies exactly on the surface.
//
// A plane's solid is the half-space behind its normal: Outside keeps
// particles on the side the normal points to, Inside keeps them behind it.
//
// # Degenerate input
//
// Collide never returns NaN or Inf for finite input. A particle exactly at a
// sphere centre is pushed along +Y (world up: hair resting on a head slides
// up and off rather than sideways); a particle exactly on a capsule axis is
// pushed along a fixed perpendicular of the axis; a capsule whose ends
// coincide, or whose one end sphere contains the other, behaves as the larger
// sphere. A negative particle radius counts as zero. For an Inside shape
// narrower than the particle the particle is moved to the shape's centre
// line.
package collide
