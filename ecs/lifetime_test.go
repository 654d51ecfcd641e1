package sway_test

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/internal/store"
)

// storeSizes is what the world's stores hold: bone slots of the pose
// pool (in use or free), chains, chain colliders and VRM springs.
type storeSizes struct {
	bones, chains, colliders, springs int
}

func storeSizesOf(w *sway.World) storeSizes {
	pool := arche.GetResource[rig.Pool](w.ECS())
	cs := arche.GetResource[store.ChainStore](w.ECS())
	ss := arche.GetResource[store.SpringStore](w.ECS())
	return storeSizes{pool.Len(), len(cs.Chains), len(cs.ColliderDescs), len(ss.VRM.Springs)}
}

// A character removed with arche's own calls (the natural calls on a
// world the game owns, see Attach) gives its storage back as
// RemoveCharacter does: after 2,000 spawn/despawn cycles, each character
// with chains and VRM springs, the stores hold the live characters and at
// most one spare character's room, and Trim leaves exactly the live ones
// (200 cycles with -short).
// Before storage was freed by the entity's going, every cycle left its
// pose and chains behind for good (2,003 characters' worth after Trim).
func TestRemovedEntitiesFreeTheirStorage(t *testing.T) {
	const live = 3
	cycles := 2000
	if testing.Short() {
		cycles = 200 // the race-detector run; a leak shows from the first cycle
	}
	removals := []struct {
		name   string
		remove func(w *sway.World, e arche.Entity)
	}{
		{"RemoveCharacter", func(w *sway.World, e arche.Entity) { must(t, w.RemoveCharacter(e)) }},
		{"RemoveEntity", func(w *sway.World, e arche.Entity) { w.ECS().RemoveEntity(e) }},
		// Removing the components a character's storage hangs on, one by
		// one, frees that storage (the entity stays, the game's own).
		{"Remove components", func(w *sway.World, e arche.Entity) {
			a := w.ECS()
			a.Remove(e, arche.ComponentID[components.Chains](a), arche.ComponentID[components.VRMSprings](a))
			a.Remove(e, arche.ComponentID[components.Pose](a), arche.ComponentID[components.Root](a))
		}},
		// A batch removal of every entity carrying a marker the game put on
		// the character.
		{"batch", func(w *sway.World, e arche.Entity) {
			a := w.ECS()
			marker := arche.ComponentID[doomed](a)
			a.Add(e, marker)
			a.Batch().RemoveEntities(arche.All(marker))
		}},
	}
	for _, how := range removals {
		t.Run(how.name, func(t *testing.T) {
			w, ents, sc := plainWorld(t, live, 1)
			defer w.Close()
			for i, e := range ents {
				chains, springs := hairChainsTailSprings(int64(i))
				must(t, addErr(w.Chains().Add(e, scene.Colliders(), chains)))
				must(t, addErr(w.VRMSprings().Add(e, scene.Colliders(), springs)))
			}
			must(t, w.Step(1.0/60))
			want := storeSizesOf(w)
			one := storeSizes{want.bones / live, want.chains / live, want.colliders / live, want.springs / live}
			bound := storeSizes{want.bones + one.bones, want.chains + one.chains, want.colliders + one.colliders, want.springs + one.springs}
			worst := want
			for c := 0; c < cycles; c++ {
				e, err := w.AddCharacter(sc.Skeleton, sway.At(mgl32.Vec3{float32(c % 7), 0, 0}))
				must(t, err)
				chains, springs := hairChainsTailSprings(int64(c))
				must(t, addErr(w.Chains().Add(e, scene.Colliders(), chains)))
				must(t, addErr(w.VRMSprings().Add(e, scene.Colliders(), springs)))
				must(t, w.Step(1.0/60))
				how.remove(w, e)
				must(t, w.Step(1.0/60))
				s := storeSizesOf(w)
				worst.bones, worst.chains = max(worst.bones, s.bones), max(worst.chains, s.chains)
				worst.colliders, worst.springs = max(worst.colliders, s.colliders), max(worst.springs, s.springs)
			}
			if worst.bones > bound.bones || worst.chains > bound.chains || worst.colliders > bound.colliders || worst.springs > bound.springs {
				t.Errorf("during %d cycles the stores grew to %+v; %d live characters hold %+v, one more %+v",
					cycles, worst, live, want, bound)
			}
			must(t, w.Trim())
			if got := storeSizesOf(w); got != want {
				t.Errorf("after %d cycles and Trim the stores hold %+v; the %d live characters hold %+v",
					cycles, got, live, want)
			}
			if n := w.NumCharacters(); n != live {
				t.Fatalf("%d characters, want %d", n, live)
			}
			// The survivors still step, and the freed room is reused.
			for f := 0; f < 5; f++ {
				must(t, w.Step(1.0/60))
			}
			e, err := w.AddCharacter(sc.Skeleton, sway.Identity())
			must(t, err)
			if got := storeSizesOf(w).bones; got != want.bones+one.bones {
				t.Errorf("a new character after the churn: %d bone slots, want %d", got, want.bones+one.bones)
			}
			must(t, w.RemoveCharacter(e))
		})
	}
}

// doomed marks the characters a batch removal takes.
type doomed struct{}

// A removal between set-up calls, with no Step between, is noticed by
// the next AddCharacter: the freed range is reused rather than the pool
// grown.
func TestRemovedEntityRoomReusedWithoutAStep(t *testing.T) {
	w, _, sc := plainWorld(t, 2, 1)
	defer w.Close()
	want := storeSizesOf(w).bones
	for c := 0; c < 100; c++ {
		e, err := w.AddCharacter(sc.Skeleton, sway.Identity())
		must(t, err)
		w.ECS().RemoveEntity(e)
	}
	if got := storeSizesOf(w).bones; got > want+want/2 {
		t.Fatalf("100 characters added and removed with RemoveEntity, no Step: %d bone slots, 2 live characters hold %d", got, want)
	}
	poses := generic.NewFilter1[components.Pose]().Query(w.ECS())
	n := poses.Count()
	poses.Close()
	if n != 2 {
		t.Fatalf("%d poses, want 2", n)
	}
}
