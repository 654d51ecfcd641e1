package skin

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// Job is one character's world transforms and one skin's joints.
type Job struct {
	// Pos, Rot and Scale are the world transforms of the character's
	// bones, indexed by bone (a pose pool range): position in metres,
	// unit rotation, per-axis scale, composed as components.Transform.
	Pos   []mgl32.Vec3
	Rot   []mgl32.Quat
	Scale []mgl32.Vec3
	// Joints holds the bone index of each joint, in the skin's order; a
	// bone may be listed more than once.
	Joints []int32
	// InvBind holds each joint's inverse bind matrix (column-major,
	// affine: the last row (0, 0, 0, 1) is not read), one per joint: it
	// maps the mesh's bind space to the joint's space at bind time.
	InvBind []mgl32.Mat4
}

// Validate checks the job at set-up: as many inverse bind matrices as
// joints, every joint a bone of Pos (Rot and Scale as long as Pos), and
// every inverse bind matrix usable (see InverseBindProblem).
func (j *Job) Validate() error {
	n := len(j.Pos)
	if len(j.Rot) != n || len(j.Scale) != n {
		return fmt.Errorf("skin: len(Pos), len(Rot), len(Scale) = %d, %d, %d: must be equal", n, len(j.Rot), len(j.Scale))
	}
	if len(j.InvBind) != len(j.Joints) {
		return fmt.Errorf("skin: %d inverse bind matrices for %d joints", len(j.InvBind), len(j.Joints))
	}
	for k, b := range j.Joints {
		if b < 0 || int(b) >= n {
			return fmt.Errorf("skin: Joints[%d] = %d, want 0 <= bone < %d", k, b, n)
		}
	}
	for k, m := range j.InvBind {
		if p := InverseBindProblem(m); p != "" {
			return fmt.Errorf("skin: InvBind[%d] %s", k, p)
		}
	}
	return nil
}

// Matrices writes joint k's skinning matrix, world transform of bone
// Joints[k] times InvBind[k], into dst[k] for every joint, and returns
// how many joints got the identity instead because their matrix was not
// finite. dst must hold at least len(j.Joints) matrices. j must have
// passed Validate; Matrices does not check it again.
//
// On amd64 assembly kernels run it (AVX2 eight joints at a time where
// the processor has it, SSE for the rest), following matricesGo
// operation for operation, so they give the same bits; build with the
// purego tag for the Go one.
func Matrices(dst []mgl32.Mat4, j *Job) int {
	joints := j.Joints
	if len(joints) == 0 {
		return 0
	}
	return matrices(dst[:len(joints)], j.Pos, j.Rot, j.Scale, joints, j.InvBind[:len(joints)])
}

// matricesGo is Matrices in Go: the kernel where there is no assembly
// one, and the definition the assembly one follows. Each product is
// converted to float32 before it is summed, so that Go does not fuse the
// two (GOAMD64=v3, arm64) and every build gives the same bits.
func matricesGo(dst []mgl32.Mat4, pos []mgl32.Vec3, rot []mgl32.Quat, scale []mgl32.Vec3, joints []int32, inv []mgl32.Mat4) int {
	inv = inv[:len(joints)]
	dst = dst[:len(joints)]
	bad := 0
	for k, b := range joints {
		p, q, s, ib := pos[b], rot[b], scale[b], &inv[k]
		// The 3×3 part A of the world transform: R(q) with column c
		// scaled by s[c] (components.Transform.Mat4).
		x, y, z, w := q.V[0], q.V[1], q.V[2], q.W
		x2, y2, z2 := x+x, y+y, z+z
		xx, yy, zz := float32(x*x2), float32(y*y2), float32(z*z2)
		xy, xz, yz := float32(x*y2), float32(x*z2), float32(y*z2)
		wx, wy, wz := float32(w*x2), float32(w*y2), float32(w*z2)
		a00, a10, a20 := (1-(yy+zz))*s[0], (xy+wz)*s[0], (xz-wy)*s[0]
		a01, a11, a21 := (xy-wz)*s[1], (1-(xx+zz))*s[1], (yz+wx)*s[1]
		a02, a12, a22 := (xz+wy)*s[2], (yz-wx)*s[2], (1-(xx+yy))*s[2]
		// M = W·B, B affine: each column of B's top three rows through
		// A, the last one plus p.
		col := func(b0, b1, b2 float32) (float32, float32, float32) {
			return float32(a00*b0) + float32(a01*b1) + float32(a02*b2),
				float32(a10*b0) + float32(a11*b1) + float32(a12*b2),
				float32(a20*b0) + float32(a21*b1) + float32(a22*b2)
		}
		m0, m1, m2 := col(ib[0], ib[1], ib[2])
		m4, m5, m6 := col(ib[4], ib[5], ib[6])
		m8, m9, m10 := col(ib[8], ib[9], ib[10])
		m12, m13, m14 := col(ib[12], ib[13], ib[14])
		m12, m13, m14 = m12+p[0], m13+p[1], m14+p[2]
		// One sum per row tells a non-finite entry: NaN or ±Inf in a row
		// makes r-r NaN (as does a sum overflowing, from entries near
		// 1e37).
		r0 := (m0 + m4) + (m8 + m12)
		r1 := (m1 + m5) + (m9 + m13)
		r2 := (m2 + m6) + (m10 + m14)
		if r0-r0 != 0 || r1-r1 != 0 || r2-r2 != 0 {
			dst[k] = mgl32.Ident4()
			bad++
			continue
		}
		dst[k] = mgl32.Mat4{m0, m1, m2, 0, m4, m5, m6, 0, m8, m9, m10, 0, m12, m13, m14, 1}
	}
	return bad
}

// Floats writes the matrices of Matrices into dst as 16 float32 values
// per joint, column-major, joint k at dst[16*k:16*k+16], and returns the
// same count. dst must hold at least 16*len(j.Joints) values.
//
// It runs Matrices on dst viewed as []mgl32.Mat4: an mgl32.Mat4 is a
// [16]float32, whose elements are laid out as 16 consecutive float32
// values with a float32's alignment, so the view is exactly the slice's
// memory and the two forms are equal bit for bit.
func Floats(dst []float32, j *Job) int {
	return Matrices(AsMat4(dst), j)
}

// AsMat4 returns f viewed as len(f)/16 matrices sharing its memory (any
// values past the last whole matrix are left out).
func AsMat4(f []float32) []mgl32.Mat4 {
	if len(f) < 16 {
		return nil
	}
	return unsafe.Slice((*mgl32.Mat4)(unsafe.Pointer(unsafe.SliceData(f))), len(f)/16)
}

// AffineTolerance is how far from (0, 0, 0, 1) the last row of an
// inverse bind matrix may be: files store the row as written, and the
// kernel takes it to be exactly (0, 0, 0, 1).
const AffineTolerance = 1e-5

// MinVolume bounds how close to singular an inverse bind matrix may be:
// the absolute determinant of its 3×3 part divided by the product of its
// column lengths (1 for orthogonal columns of any lengths, 0 for a flat
// matrix; by Hadamard's inequality at most 1) must be at least this.
const MinVolume = 1e-6

// InverseBindProblem returns "" when m can be an inverse bind matrix, and
// otherwise why not: an entry that is not finite, a last row other than
// (0, 0, 0, 1) within AffineTolerance, or a 3×3 part that is singular
// (see MinVolume). Set-up code.
func InverseBindProblem(m mgl32.Mat4) string {
	for _, v := range m {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return "must be finite"
		}
	}
	if math.Abs(float64(m[3])) > AffineTolerance || math.Abs(float64(m[7])) > AffineTolerance ||
		math.Abs(float64(m[11])) > AffineTolerance || math.Abs(float64(m[15])-1) > AffineTolerance {
		return fmt.Sprintf("must be affine: its last row is (%g, %g, %g, %g), want (0, 0, 0, 1)", m[3], m[7], m[11], m[15])
	}
	var c [3][3]float64
	for i := range 3 {
		for r := range 3 {
			c[i][r] = float64(m[4*i+r])
		}
	}
	det := c[0][0]*(c[1][1]*c[2][2]-c[1][2]*c[2][1]) -
		c[1][0]*(c[0][1]*c[2][2]-c[0][2]*c[2][1]) +
		c[2][0]*(c[0][1]*c[1][2]-c[0][2]*c[1][1])
	norm := func(v [3]float64) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }
	vol := norm(c[0]) * norm(c[1]) * norm(c[2])
	if !(vol > 0) || !(math.Abs(det) >= MinVolume*vol) {
		return "must be invertible: its 3×3 part is singular or nearly so"
	}
	return ""
}

// InverseOf returns the inverse of the affine matrix of a transform
// (position p, unit rotation q, per-axis scale s, as
// components.Transform.Mat4 builds it), computed in float64 and rounded
// once to float32: the inverse bind matrix of a joint whose model-space
// rest transform it is. It returns false for a zero or non-finite scale
// component or a non-finite input. Set-up code.
func InverseOf(p mgl32.Vec3, q mgl32.Quat, s mgl32.Vec3) (mgl32.Mat4, bool) {
	w, x, y, z := float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])
	// The rotation of q normalised in float64, as rows of R (so that the
	// inverse, Rᵀ, has them as columns).
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	if !(n > 0) || math.IsInf(n, 0) {
		return mgl32.Mat4{}, false
	}
	w, x, y, z = w/n, x/n, y/n, z/n
	r := [3][3]float64{ // r[row][col]
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
	var inv [3]float64
	for i := range 3 {
		f := float64(s[i])
		if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return mgl32.Mat4{}, false
		}
		inv[i] = 1 / f
	}
	pos := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	// (T·R·S)⁻¹ = S⁻¹·Rᵀ·T⁻¹: entry (i, c) of the 3×3 part is
	// R[c][i]/s[i], the translation -(S⁻¹·Rᵀ·p).
	var m mgl32.Mat4
	for c := range 3 {
		for i := range 3 {
			m[4*c+i] = float32(r[c][i] * inv[i])
		}
	}
	for i := range 3 {
		t := -(r[0][i]*pos[0] + r[1][i]*pos[1] + r[2][i]*pos[2]) * inv[i]
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return mgl32.Mat4{}, false
		}
		m[12+i] = float32(t)
	}
	m[15] = 1
	return m, true
}
