// Package skin writes skinning matrices: for each joint of a skin, the
// joint's world transform times its inverse bind matrix, the matrix a
// vertex shader applies to a vertex bound to that joint.
//
// Outline:
//   - [Job]: one character's world transforms (indexed by bone) and one
//     skin's joints (bone indices, in the skin's order) and inverse bind
//     matrices; Validate checks it at set-up.
//   - [Matrices] writes the job's matrices into a caller-owned
//     []mgl32.Mat4, [Floats] into a flat []float32 (16 per joint) for GPU
//     upload. Both are column-major, joint j at dst[j] (or
//     dst[16*j:16*j+16]).
//   - [InverseBindProblem] says whether a matrix can be an inverse bind
//     matrix; [InverseOf] is the inverse bind matrix of a model-space rest
//     transform, for skeletons built in code.
//
// # Math
//
// A joint's world transform (position p, unit rotation q, per-axis scale
// s) is the affine matrix T(p)·R(q)·S(s) of components.Transform.Mat4:
// column c of its 3×3 part is column c of R(q) times s[c]. An inverse
// bind matrix B is affine (its last row is (0, 0, 0, 1); Validate and
// InverseBindProblem require it and the kernel does not read that row),
// so the product M = W·B is affine too:
//
//	M[c] = A·B[c]       for the columns c = 0, 1, 2 (rows 0..2)
//	M[3] = A·B[3] + p
//
// with A the 3×3 part of W, and the last row of M written as (0, 0, 0, 1).
// The matrices map a vertex from the mesh's bind space to world space.
//
// Floats is Matrices on the same memory: it reinterprets the []float32 as
// []mgl32.Mat4 (an mgl32.Mat4 is a [16]float32, so 16 consecutive
// float32 values are one matrix, with the same size and alignment), so the
// two forms come from one loop and are equal bit for bit. On amd64 the
// loop is assembly that follows the Go definition, matricesGo, operation
// for operation, with no fused multiply-add: the same bits (tested). With
// AVX2 (detected at run time) a kernel takes eight joints at a time, one
// per vector lane (kernel8_amd64.s); an SSE kernel (kernel_amd64.s, one
// matrix column per vector) takes the joints left over, or all of them
// without AVX2. The purego build tag selects the Go one.
//
// # Degenerate cases
//
//   - Zero joints: nothing is written.
//   - A joint whose matrix is not finite (a NaN or ±Inf world transform,
//     or a product that overflows) gets the identity matrix: its vertices
//     stay where the bind pose put them in the mesh's space. Nothing
//     non-finite is ever written; Matrices returns how many joints got
//     the identity.
//   - A joint index out of range, joint and inverse bind slices of
//     different lengths, a non-finite, non-affine or singular inverse bind
//     matrix: rejected by Validate, at set-up. The per-frame functions do
//     not check (Go's bounds checks still stop a bad index).
//
// Nothing here allocates.
package skin
