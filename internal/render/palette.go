package render

import "image/color"

// Palette indices of what the renderer draws.
const (
	Background uint8 = iota
	Grid             // ground, ticks, panel borders
	BoneColour
	ChainColour
	ParticleColour
	ColliderColour
	TargetColour
	GazeColour
)

// Palette is the renderer's palette, indexed by the constants above: dark
// background, light bones, orange chains with yellow particles, cyan
// colliders, a red target.
var Palette = color.Palette{
	Background:     color.RGBA{0x1c, 0x1d, 0x24, 0xff},
	Grid:           color.RGBA{0x4a, 0x4c, 0x58, 0xff},
	BoneColour:     color.RGBA{0xd8, 0xd8, 0xd8, 0xff},
	ChainColour:    color.RGBA{0xff, 0x96, 0x3c, 0xff},
	ParticleColour: color.RGBA{0xff, 0xe0, 0x66, 0xff},
	ColliderColour: color.RGBA{0x4c, 0xc9, 0xf0, 0xff},
	TargetColour:   color.RGBA{0xff, 0x4d, 0x6d, 0xff},
	GazeColour:     color.RGBA{0x8a, 0x3a, 0x4c, 0xff},
}
