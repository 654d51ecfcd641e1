package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
)

// headNod is a file animation laid out as Blender writes one: the head
// turns from its rest (the identity) to 90 degrees about +X over 1 s,
// LINEAR, two keys.
func headNod() gltfrig.FixtureAnimation {
	s := float32(math.Sqrt(0.5))
	return gltfrig.FixtureAnimation{Name: "nod", Channels: []gltfrig.FixtureChannel{{
		Node: "head", Path: "rotation", Interpolation: "LINEAR",
		Times:  []float32{0, 1},
		Values: []float32{0, 0, 0, 1, s, 0, 0, s}, // x, y, z, w
	}}}
}

// A file's animation plays through a blend space as a hand-built clip
// does: half a second into the 1 s nod the head has turned 45 degrees
// about the character's +X from its rest (slerp of the file's two keys),
// on a VRM 1.0 and a VRM 0.x avatar alike (the 0.x file's keys are about
// its own -X: it faces -Z, and the loader turns it to face +Z), and the
// rig's skeleton in the world is the one its characters share.
func TestRigAnimationPlays(t *testing.T) {
	for _, v := range []sway.RigVersion{sway.RigVRM1, sway.RigVRM0} {
		t.Run(v.String(), func(t *testing.T) {
			w, e, r := rigWorld(t, writeRigFile(t, v, gltfrig.FixtureOptions{Animations: []gltfrig.FixtureAnimation{headNod()}}))
			if len(r.Animations) != 1 || r.Animations[0].Name != "nod" || r.Animations[0].Duration != 1 {
				t.Fatalf("animations %+v", r.Animations)
			}
			skel, err := w.RigSkeleton(r)
			must(t, err)
			if mine, _ := w.Skeleton(e); mine != skel {
				t.Fatal("RigSkeleton is not the skeleton of the rig's character")
			}
			desc, err := r.Clip(0, skel, false)
			must(t, err)
			clip, err := w.AddClip(desc)
			must(t, err)
			space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
			must(t, err)
			must(t, addErr(w.Animation().Add(e, space, sway.DefaultAnimSettings())))
			for range 30 {
				must(t, w.Step(1.0/60))
			}
			head := skel.Index("head")
			hw, err := w.BoneWorld(e, head)
			must(t, err)
			root, err := w.Root(e)
			must(t, err)
			// The head's turn from its rest, in the character's space.
			turn := root.Rot.Conjugate().Mul(hw.Rot).Mul(skel.ModelRot()[head].Conjugate())
			want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{1, 0, 0})
			if d := quatDist(turn, want); d > 1e-5 {
				t.Fatalf("head turned %v from rest at 0.5 s, want 45 degrees about +X %v (%.2g rad off)", turn, want, d)
			}
		})
	}
}

// A file's skin gives the renderer its matrices: at the rest pose each is
// the joint's world transform times the file's inverse bind matrix, the
// identity for a VRM 1.0 file and, on a VRM 0.x file (which the loader
// turns half a turn about +Y), that half turn: the file's mesh comes out
// turned with the skeleton.
func TestRigSkinAtRest(t *testing.T) {
	for _, c := range []struct {
		v    sway.RigVersion
		want mgl32.Mat4
	}{
		{sway.RigVRM1, mgl32.Ident4()},
		{sway.RigVRM0, mgl32.HomogRotate3DY(math.Pi)},
	} {
		t.Run(c.v.String(), func(t *testing.T) {
			r, err := sway.LoadRig(writeRigFile(t, c.v, gltfrig.FixtureOptions{BindMatrices: true}))
			must(t, err)
			w, err := sway.NewWorld(sway.Options{Workers: 1})
			must(t, err)
			defer w.Close()
			e, err := w.AddRig(r, sway.Identity())
			must(t, err)
			if len(r.Skins) != 1 || len(r.Skins[0].Joints) == 0 {
				t.Fatalf("skins %+v", r.Skins)
			}
			skel, err := w.RigSkeleton(r)
			must(t, err)
			sk, err := sway.NewSkin(skel, r.Skins[0])
			must(t, err)
			m, err := w.SkinMatrices(e, sk, nil)
			must(t, err)
			for j := range m {
				for k := range m[j] {
					if d := m[j][k] - c.want[k]; d > 1e-5 || d < -1e-5 {
						t.Fatalf("joint %d (%s): %v, want %v", j, r.Skins[0].Joints[j], m[j], c.want)
					}
				}
			}
		})
	}
}

// Rig.NodeBones keeps the file's node order: every node of the skeleton
// names its bone, whose index in the world's skeleton the names give;
// nodes outside it (the fixture's mesh) map to "".
func TestRigNodeBones(t *testing.T) {
	w, _, r := rigWorld(t, writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{}))
	skel, err := w.RigSkeleton(r)
	must(t, err)
	bones, outside := 0, 0
	for node, name := range r.NodeBones {
		if name == "" {
			outside++
			continue
		}
		if skel.Index(name) < 0 {
			t.Fatalf("node %d names bone %q, which the skeleton does not have", node, name)
		}
		bones++
	}
	if bones != skel.NumBones() {
		t.Fatalf("%d nodes map to bones, the skeleton has %d", bones, skel.NumBones())
	}
	t.Logf("%d nodes: %d bones, %d outside the skeleton", len(r.NodeBones), bones, outside)
}

// Rig.AddedSprings lists the springs AddRig gives a character, in the
// handle's order: as many as it has, each with as many joints, a 1.0
// spring's tail left out, VRM 0.x springs whole.
func TestRigAddedSprings(t *testing.T) {
	for _, v := range []sway.RigVersion{sway.RigVRM1, sway.RigVRM0} {
		t.Run(v.String(), func(t *testing.T) {
			w, e, r := rigWorld(t, writeRigFile(t, v, gltfrig.FixtureOptions{Branch: v == sway.RigVRM0}))
			added := r.AddedSprings()
			h := w.VRMSprings().Of(e)
			if len(added) == 0 || len(added) != h.Len() {
				t.Fatalf("%d added springs, the character has %d", len(added), h.Len())
			}
			for i, a := range added {
				rs := r.Springs[a.Spring]
				if a.Name != rs.Name {
					t.Fatalf("spring %d: name %q, the rig's %q", i, a.Name, rs.Name)
				}
				want := len(rs.Joints)
				if rs.VirtualTail == 0 {
					want-- // 1.0: the last joint is only the tail
				}
				if len(a.Joints) > want || len(a.Joints) == 0 {
					t.Fatalf("spring %d (%s): %d joints of the rig spring's %d", i, a.Name, len(a.Joints), want)
				}
				if _, err := h.JointSettings(i, len(a.Joints)-1); err != nil {
					t.Fatalf("spring %d: its last joint %d: %v", i, len(a.Joints)-1, err)
				}
				if _, err := h.JointSettings(i, len(a.Joints)); err == nil {
					t.Fatalf("spring %d has more joints than AddedSprings says (%d)", i, len(a.Joints))
				}
			}
		})
	}
}
