package systems

import (
	"slices"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/rig"
)

// PoseLifetime frees the pose-pool ranges of characters that went without
// the pool being told: an entity removed with arche's own calls
// (World.RemoveEntity, a batch removal) or a components.Pose removed from
// a live entity. It notices them by count, the entities holding a Pose
// against the ranges the pool has handed out, so when nothing was lost a
// check costs one arche count and nothing per character.
//
// The chain and spring stores' losses are noticed the same way, by the
// chain prepare and spring systems (stores.go) and at Trim: every store
// keeps its ranges in a store.Ranges and follows its removal rule.
type PoseLifetime struct {
	filter *generic.Filter1[components.Pose]
	pool   generic.Resource[rig.Pool]
	live   []rig.Range // scratch, reused
}

// NewPoseLifetime returns the check for world w, which must have sway's
// resources (AddResources).
func NewPoseLifetime(w *ecs.World) *PoseLifetime {
	return &PoseLifetime{filter: generic.NewFilter1[components.Pose](), pool: generic.NewResource[rig.Pool](w)}
}

// Reclaim frees the ranges no character holds any more. Nothing moves:
// the lost ranges join the pool's free list, as after Pool.Release. It
// allocates only when characters were lost (the scratch list grows to the
// number of characters once). Call it on the goroutine that owns the
// world, between frames or at the start of one.
func (l *PoseLifetime) Reclaim(w *ecs.World) {
	pool := l.pool.Get()
	q := l.filter.Query(w)
	n := q.Count()
	if n == pool.Ranges() {
		q.Close()
		return
	}
	l.live = slices.Grow(l.live[:0], n)
	for q.Next() {
		p := q.Get()
		l.live = append(l.live, rig.Range{First: p.First, Count: p.Count})
	}
	slices.SortFunc(l.live, func(a, b rig.Range) int { return int(a.First) - int(b.First) })
	pool.Reclaim(l.live)
}
