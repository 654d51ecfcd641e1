// Package render draws characters, their dynamic chains, colliders and
// look-at targets into paletted images with an orthographic projection, for
// previews and debugging. It is pure Go on the standard image packages: no
// cgo, no display.
//
// # Projection
//
// An image holds one panel per View, side by side, each Size pixels. A
// view maps two world axes to the panel: View.Right runs to the panel's
// right, View.Up to its top; the third axis (the line of sight) is
// dropped. Front looks at the X-Y plane from +Z (a character facing +Z
// faces the viewer, its left, +X, on the panel's right); Side looks at the
// Z-Y plane from -X (+Z, forward, to the right).
//
// A Projection puts world point Centre at the middle of every panel and
// draws Scale pixels per metre. World point p lands at the continuous panel
// coordinates
//
//	x = Size.X/2 + Scale*(p[Right] - Centre[Right])
//	y = Size.Y/2 - Scale*(p[Up]    - Centre[Up])
//
// (y grows downward, as in package image), and on the pixel that contains
// that point: (floor x, floor y), offset by the panel's origin. Pixel
// returns it.
package render
