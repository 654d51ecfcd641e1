package sway_test

import (
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
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

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

func finite4(q mgl32.Quat) bool {
	return finite3(q.V) && !math.IsNaN(float64(q.W)) && !math.IsInf(float64(q.W), 0)
}
