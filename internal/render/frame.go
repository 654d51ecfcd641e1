package render

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// Segment is a line between two world points.
type Segment struct{ A, B mgl32.Vec3 }

// Frame is what one image shows, in world metres. The renderer only reads
// it; a caller reuses one Frame across images by truncating its slices.
type Frame struct {
	Bones     []Segment       // body bones, parent to child
	Chains    []Segment       // dynamic chain bones and particle links
	Particles []mgl32.Vec3    // chain particles, drawn as dots
	Colliders []collide.Shape // world-space colliders (sphere, capsule, plane)
	Targets   []mgl32.Vec3    // look-at targets, drawn as crosses
	Gaze      []Segment       // e.g. head to look-at target
	Ground    bool            // draw the ground line y = GroundY with a tick every metre
	GroundY   float32
}

// Reset empties the frame, keeping its slices' storage.
func (f *Frame) Reset() {
	f.Bones, f.Chains, f.Particles = f.Bones[:0], f.Chains[:0], f.Particles[:0]
	f.Colliders, f.Targets, f.Gaze = f.Colliders[:0], f.Targets[:0], f.Gaze[:0]
	f.Ground, f.GroundY = false, 0
}

// AddSkeleton adds a pose's bones as segments from each bone to its
// parent: to Chains when chain(bone) is true (nil: never), else to Bones.
func (f *Frame) AddSkeleton(pos []mgl32.Vec3, parents []int32, chain func(bone int) bool) {
	for i, p := range parents {
		if p < 0 || int(p) >= len(pos) || i >= len(pos) {
			continue
		}
		s := Segment{A: pos[p], B: pos[i]}
		if chain != nil && chain(i) {
			f.Chains = append(f.Chains, s)
		} else {
			f.Bones = append(f.Bones, s)
		}
	}
}
