// Package mathx holds the small, pure float32 helpers that every sway kernel
// shares: finite checks, safe normalisation, robust from-to rotations and
// interpolation.
//
// mgl32 conventions apply throughout: a Quat is {W, V} with W first, a Mat4 is
// column-major. mgl32's Vec3.Normalize of a zero vector yields Inf/NaN and its
// QuatBetweenVectors inherits that; the helpers here never do: every function
// returns a finite result for finite input, and the "ok" results tell the
// caller when a fallback was used.
//
// Nothing here allocates.
package mathx
