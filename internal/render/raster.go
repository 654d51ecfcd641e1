package render

import (
	"image"
	"math"
)

// canvas draws palette indices into one panel of a paletted image; every
// write is clipped to the panel.
type canvas struct {
	img  *image.Paletted
	clip image.Rectangle // the panel, in img's coordinates
}

func (c *canvas) set(x, y int, idx uint8) {
	if x < c.clip.Min.X || y < c.clip.Min.Y || x >= c.clip.Max.X || y >= c.clip.Max.Y {
		return
	}
	c.img.Pix[c.img.PixOffset(x, y)] = idx
}

// square fills a w×w block with its top-left corner at (x, y).
func (c *canvas) square(x, y, w int, idx uint8) {
	for dy := 0; dy < w; dy++ {
		for dx := 0; dx < w; dx++ {
			c.set(x+dx, y+dy, idx)
		}
	}
}

// line draws from (x0, y0) to (x1, y1) (coordinates in img) with a w-pixel
// brush. The segment is clipped to the panel first, so a far endpoint
// costs no more than a near one.
func (c *canvas) line(x0, y0, x1, y1 float64, w int, idx uint8) {
	margin := float64(w)
	ok := false
	x0, y0, x1, y1, ok = clipSegment(x0, y0, x1, y1,
		float64(c.clip.Min.X)-margin, float64(c.clip.Min.Y)-margin,
		float64(c.clip.Max.X)+margin, float64(c.clip.Max.Y)+margin)
	if !ok {
		return
	}
	// Bresenham between the containing pixels; the brush is centred.
	off := (w - 1) / 2
	ax, ay := int(math.Floor(x0)), int(math.Floor(y0))
	bx, by := int(math.Floor(x1)), int(math.Floor(y1))
	dx, dy := abs(bx-ax), -abs(by-ay)
	sx, sy := 1, 1
	if ax > bx {
		sx = -1
	}
	if ay > by {
		sy = -1
	}
	e := dx + dy
	for {
		c.square(ax-off, ay-off, w, idx)
		if ax == bx && ay == by {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			ax += sx
		}
		if e2 <= dx {
			e += dx
			ay += sy
		}
	}
}

// clipSegment clips a segment to [xmin, xmax]×[ymin, ymax] (Liang-Barsky);
// ok is false when nothing is left or an input is not finite.
func clipSegment(x0, y0, x1, y1, xmin, ymin, xmax, ymax float64) (cx0, cy0, cx1, cy1 float64, ok bool) {
	if !finite(x0) || !finite(y0) || !finite(x1) || !finite(y1) {
		return 0, 0, 0, 0, false
	}
	dx, dy := x1-x0, y1-y0
	t0, t1 := 0.0, 1.0
	for _, pq := range [4][2]float64{{-dx, x0 - xmin}, {dx, xmax - x0}, {-dy, y0 - ymin}, {dy, ymax - y0}} {
		p, q := pq[0], pq[1]
		if p == 0 {
			if q < 0 {
				return 0, 0, 0, 0, false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
	}
	if t0 > t1 {
		return 0, 0, 0, 0, false
	}
	return x0 + t0*dx, y0 + t0*dy, x0 + t1*dx, y0 + t1*dy, true
}

// disc fills the pixels whose centres lie within r of (x, y).
func (c *canvas) disc(x, y, r float64, idx uint8) {
	if !finite(x) || !finite(y) || !(r >= 0) || !c.touches(x, y, r) {
		return
	}
	for py := int(math.Floor(y - r)); py <= int(math.Floor(y+r)); py++ {
		for px := int(math.Floor(x - r)); px <= int(math.Floor(x+r)); px++ {
			ex, ey := float64(px)+0.5-x, float64(py)+0.5-y
			if ex*ex+ey*ey <= r*r {
				c.set(px, py, idx)
			}
		}
	}
	c.set(int(math.Floor(x)), int(math.Floor(y)), idx) // a disc thinner than a pixel still shows
}

// maxRadius bounds circle outlines: a larger circle is a straight line
// across any panel and would only cost time.
const maxRadius = 1 << 14

// circle draws the outline of the circle of radius r about (x, y).
func (c *canvas) circle(x, y, r float64, idx uint8) {
	if !finite(x) || !finite(y) || !(r >= 0) || r > maxRadius || !c.touches(x, y, r) {
		return
	}
	// One point per pixel of circumference, and enough for a round look.
	n := max(16, int(math.Ceil(2*math.Pi*r)))
	for k := 0; k < n; k++ {
		s, co := math.Sincos(2 * math.Pi * float64(k) / float64(n))
		c.set(int(math.Floor(x+r*co)), int(math.Floor(y+r*s)), idx)
	}
}

// touches reports whether the box around a circle meets the panel.
func (c *canvas) touches(x, y, r float64) bool {
	return x+r >= float64(c.clip.Min.X) && x-r <= float64(c.clip.Max.X) &&
		y+r >= float64(c.clip.Min.Y) && y-r <= float64(c.clip.Max.Y)
}

// capsule draws a tapered capsule's outline: both end circles and the two
// outer tangents between them (the orthographic silhouette of a
// sphere-swept cone). One circle inside the other leaves just the larger.
func (c *canvas) capsule(ax, ay, ra, bx, by, rb float64, idx uint8) {
	c.circle(ax, ay, ra, idx)
	c.circle(bx, by, rb, idx)
	dx, dy := bx-ax, by-ay
	d := math.Hypot(dx, dy)
	if !(d > math.Abs(ra-rb)) || !(d > 1e-9) {
		return
	}
	ux, uy := dx/d, dy/d
	k := (ra - rb) / d // cosine of the tangent normal against the axis
	h := math.Sqrt(math.Max(0, 1-k*k))
	for _, sign := range [2]float64{1, -1} {
		nx, ny := k*ux-sign*h*uy, k*uy+sign*h*ux
		c.line(ax+ra*nx, ay+ra*ny, bx+rb*nx, by+rb*ny, 1, idx)
	}
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
