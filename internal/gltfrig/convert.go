package gltfrig

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
)

// f32 reads an optional number; non-finite after the conversion to
// float32 (1e300 is finite in JSON but not in float32) is rejected.
func f32(path string, p *float64, def float32) (float32, error) {
	if p == nil {
		return def, nil
	}
	v := float32(*p)
	if !mathx.IsFinite(v) {
		return 0, bad(path, *p, "must be a finite float32")
	}
	return v, nil
}

// nonNeg is f32 that also rejects negative values.
func nonNeg(path string, p *float64, def float32) (float32, error) {
	v, err := f32(path, p, def)
	if err == nil && v < 0 {
		err = bad(path, v, "must be >= 0")
	}
	return v, err
}

// unit is f32 restricted to [0, 1].
func unit(path string, p *float64, def float32) (float32, error) {
	v, err := f32(path, p, def)
	if err == nil && (v < 0 || v > 1) {
		err = bad(path, v, "must be in [0, 1]")
	}
	return v, err
}

// vec3 reads an optional number[3].
func vec3(path string, v []float64, def mgl32.Vec3) (mgl32.Vec3, error) {
	if v == nil {
		return def, nil
	}
	if len(v) != 3 {
		return def, bad(path, v, "must have 3 numbers")
	}
	out := mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])}
	if !mathx.Vec3Finite(out) {
		return def, bad(path, v, "must be finite float32 numbers")
	}
	return out, nil
}

func unitQuat(path string, q mgl32.Quat) (mgl32.Quat, error) {
	n, err := check.UnitQuat(errType, path, q, rig.RotationTolerance)
	if err != nil {
		var fe *check.FieldError
		if errors.As(err, &fe) {
			fe.Value = [4]float32{q.V[0], q.V[1], q.V[2], q.W} // as glTF writes it: x, y, z, w
		}
		return q, err
	}
	return n, nil
}

const (
	affineTol = 1e-6 // the bottom row of a node matrix against (0, 0, 0, 1)
	shearTol  = 1e-3 // cosine between the matrix's scaled-out axes
)

// decompose splits a column-major node matrix into translation, rotation
// (x, y, z, w) and scale, as glTF requires node matrices to allow. A
// mirror (negative determinant) becomes a negative x scale. A matrix with
// a zero axis, shear or a projective row is rejected.
func decompose(m [16]float64) (t [3]float64, r [4]float64, s [3]float64, err error) {
	for _, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return t, r, s, errors.New("must be finite")
		}
	}
	if math.Abs(m[3]) > affineTol || math.Abs(m[7]) > affineTol || math.Abs(m[11]) > affineTol || math.Abs(m[15]-1) > affineTol {
		return t, r, s, errors.New("the last row must be (0, 0, 0, 1)")
	}
	t = [3]float64{m[12], m[13], m[14]}
	cols := [3][3]float64{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}}
	for a := range cols {
		c := cols[a]
		s[a] = math.Sqrt(c[0]*c[0] + c[1]*c[1] + c[2]*c[2])
		if !(s[a] > 1e-12) || math.IsInf(s[a], 0) {
			return t, r, s, errors.New("an axis has zero (or overflowing) length")
		}
		cols[a] = [3]float64{c[0] / s[a], c[1] / s[a], c[2] / s[a]}
	}
	dot := func(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	if math.Abs(dot(cols[0], cols[1])) > shearTol || math.Abs(dot(cols[0], cols[2])) > shearTol || math.Abs(dot(cols[1], cols[2])) > shearTol {
		return t, r, s, errors.New("has shear: not a translation, rotation and scale")
	}
	c1, c2 := cols[1], cols[2]
	cross := [3]float64{c1[1]*c2[2] - c1[2]*c2[1], c1[2]*c2[0] - c1[0]*c2[2], c1[0]*c2[1] - c1[1]*c2[0]}
	if dot(cols[0], cross) < 0 {
		s[0] = -s[0]
		cols[0] = [3]float64{-cols[0][0], -cols[0][1], -cols[0][2]}
	}
	r = matToQuat(cols)
	return t, r, s, nil
}

// matToQuat converts a rotation given by its columns to (x, y, z, w),
// choosing the largest diagonal term to divide by (Shepperd).
func matToQuat(c [3][3]float64) [4]float64 {
	m00, m11, m22 := c[0][0], c[1][1], c[2][2]
	m01, m02 := c[1][0], c[2][0] // row 0: columns 1 and 2
	m10, m12 := c[0][1], c[2][1]
	m20, m21 := c[0][2], c[1][2]
	var x, y, z, w float64
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		k := math.Sqrt(tr+1) * 2
		w, x, y, z = k/4, (m21-m12)/k, (m02-m20)/k, (m10-m01)/k
	case m00 > m11 && m00 > m22:
		k := math.Sqrt(1+m00-m11-m22) * 2
		w, x, y, z = (m21-m12)/k, k/4, (m01+m10)/k, (m02+m20)/k
	case m11 > m22:
		k := math.Sqrt(1+m11-m00-m22) * 2
		w, x, y, z = (m02-m20)/k, (m01+m10)/k, k/4, (m12+m21)/k
	default:
		k := math.Sqrt(1+m22-m00-m11) * 2
		w, x, y, z = (m10-m01)/k, (m02+m20)/k, (m12+m21)/k, k/4
	}
	n := math.Sqrt(x*x + y*y + z*z + w*w)
	return [4]float64{x / n, y / n, z / n, w / n}
}
