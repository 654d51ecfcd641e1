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
// Every product that is added to or subtracted from is written float32(x*y)
// (float64(x*y) in float64 code): the explicit conversion rounds the
// product, so that Go does not fuse it with the sum into one multiply-add
// (it may at GOAMD64=v3 and above, and on other architectures). The results
// are then the same bits in every build, as the kernels that call these
// helpers need (.ci/fused lists any fused multiply-add left).
//
// Nothing here allocates.
package mathx
