package store

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
	p.Springs, p.Info, p.States = TrimSlice(p.Springs), TrimSlice(p.Info), TrimSlice(p.States)
	p.JointBone, p.JointDesc, p.Rot = TrimSlice(p.JointBone), TrimSlice(p.JointDesc), TrimSlice(p.Rot)
	p.Prev, p.Cur = TrimSlice(p.Prev), TrimSlice(p.Cur)
	p.ColliderDescs, p.ColliderBones, p.Shapes = TrimSlice(p.ColliderDescs), TrimSlice(p.ColliderBones), TrimSlice(p.Shapes)
	p.SetIndex, p.SetShapes = TrimSlice(p.SetIndex), TrimSlice(p.SetShapes)
	p.springs.Trim()
	p.joints.Trim()
	p.colliders.Trim()
	p.sets.Trim()
	p.bound = false
	q := &s.Simple
	clear(q.States)
	q.Chains, q.States, q.Info = TrimSlice(q.Chains), TrimSlice(q.States), TrimSlice(q.Info)
	q.JointBone, q.JointDesc = TrimSlice(q.JointBone), TrimSlice(q.JointDesc)
	q.Anim, q.Rot = TrimSlice(q.Anim), TrimSlice(q.Rot)
	q.LastTip, q.Velocity, q.LastAnim = TrimSlice(q.LastTip), TrimSlice(q.Velocity), TrimSlice(q.LastAnim)
	q.chains.Trim()
	q.joints.Trim()
	q.bound = false
}
