package systems

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
)

// Compact drops the ranges of removed characters now, as the spring
// systems would at their next frame, and rebuilds the kernels' views.
// Set-up code (it makes its filters): call it between frames.
func (s *SpringStore) Compact(w *ecs.World) {
	vrm := newFeatureCharacters[components.VRMSprings]()
	s.VRM.prepareVRM(vrm.gather(w))
	vrm.release()
	simple := newFeatureCharacters[components.SimpleSprings]()
	s.Simple.prepareSimple(simple.gather(w))
	simple.release()
}

// Trim releases the store's spare capacity (set-up code: it copies).
// The kernels' views pointed into the old arrays: they are dropped, so
// that the old arrays can be freed, and rebuilt at the next frame.
func (s *SpringStore) Trim() {
	p := &s.VRM
	for k := range p.Springs {
		sp := &p.Springs[k]
		sp.State, sp.DstLocalRot, sp.Colliders = nil, nil, nil
	}
	clear(p.States)
	p.Springs, p.Info, p.States = trimSlice(p.Springs), trimSlice(p.Info), trimSlice(p.States)
	p.JointBone, p.JointDesc, p.Rot = trimSlice(p.JointBone), trimSlice(p.JointDesc), trimSlice(p.Rot)
	p.Prev, p.Cur = trimSlice(p.Prev), trimSlice(p.Cur)
	p.ColliderDescs, p.ColliderBones, p.Shapes = trimSlice(p.ColliderDescs), trimSlice(p.ColliderBones), trimSlice(p.Shapes)
	p.SetIndex, p.SetShapes = trimSlice(p.SetIndex), trimSlice(p.SetShapes)
	p.bound = false
	q := &s.Simple
	clear(q.States)
	q.Chains, q.States, q.Info = trimSlice(q.Chains), trimSlice(q.States), trimSlice(q.Info)
	q.JointBone, q.JointDesc = trimSlice(q.JointBone), trimSlice(q.JointDesc)
	q.Anim, q.Rot = trimSlice(q.Anim), trimSlice(q.Rot)
	q.LastTip, q.Velocity, q.LastAnim = trimSlice(q.LastTip), trimSlice(q.Velocity), trimSlice(q.LastAnim)
	q.bound = false
}
