package sway_test

import (
	"errors"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// A crowd whose look-at and IK targets point at one another's bones loses
// some of its members: every reference to a removed character is reported
// lost and keeps the bone's last position, none follows a new character
// that reuses the removed entity's slot, and the crowd, with its chains and
// springs compacted around the gaps, steps on with finite poses. Chains,
// springs and colliders refer only to their own character's bones, so
// removing a character cannot leave them a dangling reference; they are
// in the crowd to be compacted while the references are resolved.
func TestRemovedTargetsNeverDangle(t *testing.T) {
	const n = 12
	w, ents, sc := plainWorld(t, n, 2)
	defer w.Close()
	skel := sc.Skeleton
	head, hand := skel.Index("head"), skel.Index("hand.R")
	leg, err := sway.IKLimbFor(skel, "upper_leg.L", "lower_leg.L", "foot.L")
	must(t, err)
	for i, e := range ents {
		if i%2 == 0 {
			must(t, addErr(w.Chains().Add(e, scene.Colliders(), scene.ChainSpecs(newRand(int64(i))))))
		} else {
			must(t, addErr(w.VRMSprings().Add(e, scene.Colliders(), scene.VRMSpecs(newRand(int64(i))))))
		}
		must(t, addErr(w.LookAt().Add(e, sway.LookAtFor(skel))))
		must(t, addErr(w.IK().Add(e, leg)))
		// Character i looks at i+1's head and reaches for i+2's hand;
		// character 6 looks at its own head.
		must(t, w.LookAt().Of(e).SetTargetBone(ents[lookAtOf(i, n)], head))
		must(t, w.IK().Of(e).SetTargetBone(0, ents[(i+2)%n], hand))
	}
	stepMoving(t, w, ents, sc, 0, 10)

	// Remove 0 (looked at by 11, reached for by 10), 3 (looked at by 2,
	// reached for by 1) and 4 and 5 (a run: 4 looks at 5, 3 reaches for 5).
	removed := map[int]bool{0: true, 3: true, 4: true, 5: true}
	last := map[int]mgl32.Vec3{} // the removed targets' last positions: [i] head, [-i-1] hand
	for i := range removed {
		h, _ := w.BoneWorld(ents[i], head)
		k, _ := w.BoneWorld(ents[i], hand)
		last[i], last[-i-1] = h.Pos, k.Pos
	}
	gone := make([]arche.Entity, 0, len(removed))
	for i := range removed {
		must(t, w.RemoveCharacter(ents[i]))
		gone = append(gone, ents[i])
	}
	// New characters reuse the removed entities' slots (arche recycles
	// their IDs with a new generation); none may become a target.
	reused := 0
	for range removed {
		e, err := w.AddCharacter(skel, sway.At(mgl32.Vec3{30, 0, 30}))
		must(t, err)
		for _, g := range gone {
			if e.ID() == g.ID() {
				reused++
			}
		}
	}
	if reused == 0 {
		t.Fatal("no new character reused a removed entity's ID: the test does not test reuse")
	}
	var live []arche.Entity
	for i, e := range ents {
		if !removed[i] {
			live = append(live, e)
		}
	}
	for f := 10; f < 40; f++ {
		for i, e := range ents {
			if !removed[i] {
				must(t, w.SetRoot(e, sc.RootAt(i, float64(f+1)/60)))
			}
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatalf("frame %d: %v", f, err)
		}
		assertFinitePoses(t, w, live)
	}
	for i, e := range ents {
		if removed[i] {
			continue
		}
		lookTo, ikTo := lookAtOf(i, n), (i+2)%n
		point, _, lost, err := w.LookAt().Of(e).Target()
		must(t, err)
		if lost != removed[lookTo] || (lost && point != last[lookTo]) {
			t.Errorf("character %d looks at %d: point %v lost %v; removed %v, last %v", i, lookTo, point, lost, removed[lookTo], last[lookTo])
		}
		ikPoint, ikLost, err := w.IK().Of(e).Target(0)
		must(t, err)
		if ikLost != removed[ikTo] || (ikLost && ikPoint != last[-ikTo-1]) {
			t.Errorf("character %d reaches for %d: point %v lost %v; removed %v, last %v", i, ikTo, ikPoint, ikLost, removed[ikTo], last[-ikTo-1])
		}
	}
	// A removed character cannot be made a target again.
	for _, g := range gone {
		if err := w.LookAt().Of(ents[1]).SetTargetBone(g, head); !errors.Is(err, sway.ErrNotCharacter) {
			t.Errorf("LookAt.SetTargetBone at a removed character: %v", err)
		}
		if err := w.IK().Of(ents[1]).SetTargetBone(0, g, hand); !errors.Is(err, sway.ErrNotCharacter) {
			t.Errorf("IK.SetTargetBone at a removed character: %v", err)
		}
	}
	// The state with lost targets snapshots and restores.
	snap := snapshot(t, w)
	must(t, w.Restore(snap))
}

// lookAtOf is whom character i of n looks at: its neighbour, and 6 itself.
func lookAtOf(i, n int) int {
	if i == 6 {
		return i
	}
	return (i + 1) % n
}
