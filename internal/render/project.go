package render

import (
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// View is an orthographic view: world axis Right (0 X, 1 Y, 2 Z) runs to
// the panel's right, world axis Up to its top.
type View struct {
	Name      string
	Right, Up int
}

// The two standard views (see the package documentation).
var (
	Front = View{Name: "front (X-Y)", Right: 0, Up: 1}
	Side  = View{Name: "side (Z-Y)", Right: 2, Up: 1}
)

// Projection maps world metres to panel pixels: Centre is drawn at the
// middle of every panel, Scale pixels per metre.
type Projection struct {
	Centre mgl32.Vec3
	Scale  float32
}

// limit bounds projected coordinates so that far or non-finite points stay
// representable as ints; anything beyond is off every panel anyway.
const limit = 1 << 20

// Point returns world point p's continuous coordinates in view v of a
// panel of the given size, relative to the panel's top-left corner.
// Non-finite coordinates come back as +limit (off the panel).
func (pr Projection) Point(v View, size image.Point, p mgl32.Vec3) (x, y float64) {
	return pr.point2(v, size, float64(p[v.Right]), float64(p[v.Up]))
}

// point2 projects the world coordinates (a, b) along (Right, Up).
func (pr Projection) point2(v View, size image.Point, a, b float64) (x, y float64) {
	s := float64(pr.Scale)
	x = clampCoord(float64(size.X)/2 + s*(a-float64(pr.Centre[v.Right])))
	y = clampCoord(float64(size.Y)/2 - s*(b-float64(pr.Centre[v.Up])))
	return x, y
}

func clampCoord(c float64) float64 {
	if !(c > -limit && c < limit) { // also NaN
		if c < 0 {
			return -limit
		}
		return limit
	}
	return c
}

// Pixel returns the pixel of view v's panel (its top-left corner at
// origin) that contains world point p.
func (pr Projection) Pixel(v View, size, origin image.Point, p mgl32.Vec3) image.Point {
	x, y := pr.Point(v, size, p)
	return image.Point{X: origin.X + int(math.Floor(x)), Y: origin.Y + int(math.Floor(y))}
}
