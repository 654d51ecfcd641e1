package sway_test

import (
	"fmt"
	"testing"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/scene"
)

// Trim after churn closes the gaps in every store without changing a
// pose: a trimmed world steps on exactly like an untrimmed twin.
func TestTrimAfterChurnKeepsPoses(t *testing.T) {
	for k := range 2 {
		s := newFullScene(t, 30, 2, k == 1)
		s.step(t, 5)
		for _, i := range []int{3, 7, 8, 20} {
			must(t, s.w.RemoveCharacter(s.ents[i]))
			s.ents[i] = arche.Entity{}
		}
		s.step(t, 1)
		twin := newFullScene(t, 30, 2, k == 1)
		twin.step(t, 5)
		for _, i := range []int{3, 7, 8, 20} {
			must(t, twin.w.RemoveCharacter(twin.ents[i]))
			twin.ents[i] = arche.Entity{}
		}
		twin.step(t, 1)
		pool := arche.GetResource[rig.Pool](twin.w.ECS())
		if pool.FreeSlots() == 0 {
			t.Fatal("no gap to close")
		}
		if err := twin.w.Trim(); err != nil {
			t.Fatal(err)
		}
		if pool.FreeSlots() != 0 || pool.Len() != 26*scene.BonesPerChar {
			t.Fatalf("after Trim: pool of %d slots, %d free", pool.Len(), pool.FreeSlots())
		}
		sameSums(t, fmt.Sprintf("vrm %v: untrimmed and trimmed", k == 1), s.stepSums(t, 20), twin.stepSums(t, 20))
		s.w.Close()
		twin.w.Close()
	}
}
