package ecs_test

import (
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	sway "github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/rig"
)

// worldSkeletons gives a test system the world's clock and skeletons.
type worldSkeletons struct{ *sway.World }

func (w worldSkeletons) reg(p *components.Pose) *rig.Skeleton {
	return arche.GetResource[rig.Registry](w.ECS()).Skeletons[p.Skeleton]
}
