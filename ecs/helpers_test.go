package sway_test

import (
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/scene"
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

// addErr drops the handle an Add returns, for a test that only checks the
// error.
func addErr[H any](_ H, err error) error { return err }

// setPaused pauses (p) or resumes a feature.
func setPaused(h interface {
	Pause() error
	Resume() error
}, p bool) error {
	if p {
		return h.Pause()
	}
	return h.Resume()
}

// hairChainsTailSprings splits the standard rig's secondary bones between
// the two models, for a character that has both (a bone may be driven by
// one feature only): the hair as dynamic chains, the ears and tail as VRM
// springs.
func hairChainsTailSprings(seed int64) ([]sway.ChainSpec, []sway.VRMSpringSpec) {
	return scene.ChainSpecs(newRand(seed))[:scene.HairChains], scene.VRMSpecs(newRand(seed))[scene.HairChains:]
}
