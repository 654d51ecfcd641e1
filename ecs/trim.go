package sway

import (
	"slices"

	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems"
)

// compactStores drops what removed characters left in the stores now,
// rather than at the next frame: the chain and spring stores' released
// ranges, and the pose pool's gaps (every character's bones move down, in
// pool order, and its Pose.First follows). Set-up code, for Trim.
func (w *World) compactStores() {
	w.life.Reclaim(w.ecs)
	systems.CompactChains(w.ecs)
	systems.CompactSprings(w.ecs)
	if w.pool.FreeSlots() == 0 {
		return
	}
	var poses []*components.Pose
	q := generic.NewFilter1[components.Pose]().Query(w.ecs)
	for q.Next() {
		poses = append(poses, q.Get())
	}
	slices.SortFunc(poses, func(a, b *components.Pose) int { return int(a.First) - int(b.First) })
	live := make([]rig.Range, len(poses))
	for i, p := range poses {
		live[i] = rig.Range{First: p.First, Count: p.Count}
	}
	if w.pool.Compact(live) {
		for i, p := range poses {
			p.First = live[i].First
		}
	}
}
