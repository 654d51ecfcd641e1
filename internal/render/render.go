package render

import (
	"fmt"
	"image"
	"math"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/systems/collide"
)

// Renderer draws Frames into images of len(Views) panels side by side.
type Renderer struct {
	Views []View
	Size  image.Point // one panel, pixels
	// Widths in pixels: body bones and chain links; particle dot radius.
	BoneWidth, ChainWidth int
	ParticleRadius        float64
}

// MaxPanel bounds a panel's side, so that an image stays a sane size.
const MaxPanel = 4096

// New returns a renderer of the Front and Side views, each panel size×size
// pixels (1..MaxPanel), with 2-pixel bones, 1-pixel chains and 2-pixel
// particle dots.
func New(size int) (*Renderer, error) {
	if size < 1 || size > MaxPanel {
		return nil, check.Errorf("render.New", "size", size, "must be 1..%d", MaxPanel)
	}
	return &Renderer{
		Views: []View{Front, Side}, Size: image.Pt(size, size),
		BoneWidth: 2, ChainWidth: 1, ParticleRadius: 2,
	}, nil
}

// Bounds returns the image rectangle of one rendered frame.
func (r *Renderer) Bounds() image.Rectangle {
	return image.Rect(0, 0, r.Size.X*len(r.Views), r.Size.Y)
}

// NewImage returns a paletted image of Bounds with the renderer's Palette.
func (r *Renderer) NewImage() *image.Paletted { return image.NewPaletted(r.Bounds(), Palette) }

// Origin returns the top-left corner of view k's panel in an image whose
// bounds start at min.
func (r *Renderer) Origin(min image.Point, k int) image.Point {
	return min.Add(image.Pt(k*r.Size.X, 0))
}

// Draw clears dst's panels to Background and draws f in every view with
// projection pr. dst holds the panels from its Bounds().Min (a SubImage of
// a contact sheet works); pixels outside a panel are never written. Draw
// does not allocate. It returns an error only for an unusable projection.
func (r *Renderer) Draw(dst *image.Paletted, pr Projection, f *Frame) error {
	if !(pr.Scale > 0) || math.IsInf(float64(pr.Scale), 0) {
		return check.Errorf("render.Projection", "Scale", pr.Scale, "must be positive and finite")
	}
	for k, v := range r.Views {
		if v.Right < 0 || v.Right > 2 || v.Up < 0 || v.Up > 2 || v.Right == v.Up {
			return check.Errorf("render.View", fmt.Sprintf("[%d]", k), v, "axes must be two different ones of 0..2")
		}
	}
	for k, v := range r.Views {
		o := r.Origin(dst.Bounds().Min, k)
		c := canvas{img: dst, clip: image.Rectangle{Min: o, Max: o.Add(r.Size)}.Intersect(dst.Bounds())}
		r.drawView(&c, o, v, pr, f)
	}
	return nil
}

func (r *Renderer) drawView(c *canvas, o image.Point, v View, pr Projection, f *Frame) {
	for y := c.clip.Min.Y; y < c.clip.Max.Y; y++ {
		row := c.img.Pix[c.img.PixOffset(c.clip.Min.X, y):c.img.PixOffset(c.clip.Max.X, y)]
		for i := range row {
			row[i] = Background
		}
	}
	ox, oy := float64(o.X), float64(o.Y)
	proj := func(a, b float64) (float64, float64) {
		x, y := pr.point2(v, r.Size, a, b)
		return ox + x, oy + y
	}
	at := func(p [3]float32) (float64, float64) { return proj(float64(p[v.Right]), float64(p[v.Up])) }
	scale := float64(pr.Scale)
	// The panel's border on its left (the seam between views).
	c.line(ox, oy, ox, oy+float64(r.Size.Y), 1, Grid)
	if f.Ground {
		r.drawGround(c, v, pr, f.GroundY, proj)
	}
	for _, s := range f.Colliders {
		switch s.Kind {
		case collide.Sphere:
			x, y := at(s.A)
			c.circle(x, y, scale*float64(s.RA), ColliderColour)
		case collide.Capsule:
			ax, ay := at(s.A)
			bx, by := at(s.B)
			c.capsule(ax, ay, scale*float64(s.RA), bx, by, scale*float64(s.RB), ColliderColour)
		case collide.Plane:
			r.drawPlane(c, v, pr, s, proj)
		}
	}
	for _, s := range f.Gaze {
		r.segment(c, s, 1, GazeColour, at)
	}
	for _, s := range f.Bones {
		r.segment(c, s, r.BoneWidth, BoneColour, at)
	}
	for _, s := range f.Chains {
		r.segment(c, s, r.ChainWidth, ChainColour, at)
	}
	for _, p := range f.Particles {
		x, y := at(p)
		c.disc(x, y, r.ParticleRadius, ParticleColour)
	}
	for _, p := range f.Targets {
		x, y := at(p)
		const arm = 6
		c.line(x-arm, y-arm, x+arm, y+arm, 2, TargetColour)
		c.line(x-arm, y+arm, x+arm, y-arm, 2, TargetColour)
		c.circle(x, y, arm+3, TargetColour)
	}
}

func (r *Renderer) segment(c *canvas, s Segment, w int, idx uint8, at func([3]float32) (float64, float64)) {
	ax, ay := at(s.A)
	bx, by := at(s.B)
	c.line(ax, ay, bx, by, w, idx)
}

// drawGround draws the ground line and a tick at every whole metre of the
// view's horizontal axis, so that movement shows against a following
// camera.
func (r *Renderer) drawGround(c *canvas, v View, pr Projection, groundY float32, proj func(a, b float64) (float64, float64)) {
	g := float64(groundY)
	half := float64(r.Size.X) / 2 / float64(pr.Scale)
	centre := float64(pr.Centre[v.Right])
	lo, hi := centre-half-1, centre+half+1
	if !finite(lo) || !finite(hi) {
		return
	}
	x0, y := proj(lo, g)
	x1, _ := proj(hi, g)
	c.line(x0, y, x1, y, 1, Grid)
	if hi-lo > 4*MaxPanel {
		return // ticks closer than a pixel apart would only fill the line
	}
	for m := math.Ceil(lo); m <= hi; m++ {
		x, _ := proj(m, g)
		c.line(x, y, x, y+6, 1, Grid)
	}
}

// drawPlane draws a plane collider as its trace in the view: the line
// through its point across the panel, perpendicular to the normal's
// projection. A plane facing the viewer (normal along the line of sight)
// covers the view and is left out.
func (r *Renderer) drawPlane(c *canvas, v View, pr Projection, s collide.Shape, proj func(a, b float64) (float64, float64)) {
	na, nb := float64(s.N[v.Right]), float64(s.N[v.Up])
	n := math.Hypot(na, nb)
	if !(n > 1e-6) {
		return
	}
	// Long enough to cross the panel from any point on it.
	l := 2 * float64(r.Size.X+r.Size.Y) / float64(pr.Scale)
	da, db := -nb/n*l, na/n*l
	a, b := float64(s.A[v.Right]), float64(s.A[v.Up])
	x0, y0 := proj(a-da, b-db)
	x1, y1 := proj(a+da, b+db)
	c.line(x0, y0, x1, y1, 1, ColliderColour)
}
