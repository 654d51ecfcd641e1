package vrma

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// q64 is a quaternion in float64 (w, x, y, z): the products of a retarget
// (up to a dozen per key when bones are folded) are formed in float64 and
// rounded once.
type q64 [4]float64

var ident64 = q64{1, 0, 0, 0}

func toQ64(q mgl32.Quat) q64 {
	return q64{float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])}
}

func (a q64) mul(b q64) q64 {
	return q64{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}

// inv is the inverse of a unit quaternion.
func (a q64) inv() q64 { return q64{a[0], -a[1], -a[2], -a[3]} }

func (a q64) dot(b q64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }

// unit normalises a; the inputs are unit within a tolerance, so the length
// is never near zero.
func (a q64) unit() q64 {
	n := math.Sqrt(a.dot(a))
	return q64{a[0] / n, a[1] / n, a[2] / n, a[3] / n}
}

func (a q64) neg() q64 { return q64{-a[0], -a[1], -a[2], -a[3]} }

func (a q64) quat() mgl32.Quat {
	return mgl32.Quat{W: float32(a[0]), V: mgl32.Vec3{float32(a[1]), float32(a[2]), float32(a[3])}}
}

// rotate turns v by the unit quaternion a.
func (a q64) rotate(v [3]float64) [3]float64 {
	p := a.mul(q64{0, v[0], v[1], v[2]}).mul(a.inv())
	return [3]float64{p[1], p[2], p[3]}
}
