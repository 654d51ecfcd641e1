package chain

import "github.com/go-gl/mathgl/mgl32"

// State is the part of a Chain that carries from one frame to the next,
// besides its particles' Pos, Prev and Collided: what a world snapshot
// saves. The rest of a Chain is set-up (settings, rest lengths, the
// particles' parameters and largest radius, which Refresh derives from the
// settings, the arrays' sizing, and whether it covers its root's subtree) or is written by Prepare (or the step)
// before every use in a frame (the movement, force, weight, scale, reach,
// step mode, lengths and count, the root's animated position, the
// freeze-plane normals, the culled colliders, the root's start in Variable
// mode); the cosine of the teleport angle is a
// cache of the settings, recomputed when they differ, and the packed step
// parameters are a cache of the settings, weight, scale and step length
// (SetState drops it, so the next Prepare packs afresh).
type State struct {
	Acc    float64    // the clock's time not yet simulated, seconds
	ObjPos mgl32.Vec3 // the character's position at the last Prepare
	ObjRot mgl32.Quat // and its rotation
	PrevH  float32    // the last sub-step's length in seconds (Variable mode)
	// Started: ObjPos/ObjRot hold a previous frame. Off: not simulated
	// last frame. Reset: return to the animated pose at the next Prepare.
	Started, Off, Reset bool
}

// State returns the chain's frame-to-frame state.
func (c *Chain) State() State {
	return State{
		Acc: c.acc, ObjPos: c.objPos, ObjRot: c.objRot, PrevH: c.prevH,
		Started: c.started, Off: c.off, Reset: c.reset,
	}
}

// SetState sets the chain's frame-to-frame state, as State returned it.
func (c *Chain) SetState(s State) {
	c.acc, c.objPos, c.objRot, c.prevH = s.Acc, s.ObjPos, s.ObjRot, s.PrevH
	c.started, c.off, c.reset = s.Started, s.Off, s.Reset
	c.packOK = false
}
