package sway_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
)

// vrmaClipKeys is the fixture clip's key count: one second at 30 keys/s.
const vrmaClipKeys = 31

// vrmaWalkOptions is a one-second VRMA clip on the fixture's T-pose rig
// (hips 0.9 m high, identity rests): the hips bob, walk 0.3 m along +Z
// and sway about +Y; spine, chest, upperChest, neck and head bend and
// turn; the left upper arm drops 70°; the gaze turns 30° left and 20° up
// and a smile rises.
func vrmaWalkOptions() gltfrig.VRMAFixtureOptions {
	o := gltfrig.VRMAFixtureOptions{Rotations: map[string][]mgl32.Quat{}, Expressions: map[string][]float32{}}
	rot := func(deg float64, axis mgl32.Vec3) mgl32.Quat {
		return mgl32.QuatRotate(float32(deg*math.Pi/180), axis.Normalize())
	}
	for k := range vrmaClipKeys {
		u := float64(k) / (vrmaClipKeys - 1)
		s := math.Sin(2 * math.Pi * u)
		o.HipsTranslations = append(o.HipsTranslations, mgl32.Vec3{float32(0.02 * s), float32(0.9 + 0.03*s), float32(0.3 * u)})
		o.Rotations["hips"] = append(o.Rotations["hips"], rot(10*s, mgl32.Vec3{0, 1, 0}))
		o.Rotations["spine"] = append(o.Rotations["spine"], rot(12*s, mgl32.Vec3{1, 0.3, 0}))
		o.Rotations["chest"] = append(o.Rotations["chest"], rot(-8*u, mgl32.Vec3{0, 0, 1}))
		o.Rotations["upperChest"] = append(o.Rotations["upperChest"], rot(20*u, mgl32.Vec3{0, 1, 0}))
		o.Rotations["neck"] = append(o.Rotations["neck"], rot(15*s, mgl32.Vec3{1, 0, 0}))
		o.Rotations["head"] = append(o.Rotations["head"], rot(25*u, mgl32.Vec3{0.2, 1, 0}))
		o.Rotations["leftUpperArm"] = append(o.Rotations["leftUpperArm"], rot(-70*u, mgl32.Vec3{0, 0, 1}))
		o.Rotations["leftLowerArm"] = append(o.Rotations["leftLowerArm"], rot(-30*u, mgl32.Vec3{0, 1, 0}))
		o.LookAt = append(o.LookAt, rot(30*u, mgl32.Vec3{0, 1, 0}).Mul(rot(-20*u, mgl32.Vec3{1, 0, 0})))
		o.Expressions["happy"] = append(o.Expressions["happy"], float32(1.2*u))
	}
	off := mgl32.Vec3{0, 0.06, 0}
	o.LookAtOffset = &off
	return o
}

// writeVRMA writes a VRMA fixture to a temp file.
func writeVRMA(t testing.TB, o gltfrig.VRMAFixtureOptions) string {
	t.Helper()
	b, err := gltfrig.FixtureVRMA(o)
	must(t, err)
	path := filepath.Join(t.TempDir(), "clip.vrma")
	must(t, os.WriteFile(path, b, 0o644))
	return path
}

// quatAngle is the angle between two rotations, radians.
func quatAngle(a, b mgl32.Quat) float64 {
	a, b = a.Normalize(), b.Normalize()
	d := float64(a.W)*float64(b.W) + float64(a.V[0])*float64(b.V[0]) + float64(a.V[1])*float64(b.V[1]) + float64(a.V[2])*float64(b.V[2])
	// 2 atan2(|a - b|, |a + b|) is exact near 0, where 2 acos(|d|) is not.
	if d < 0 {
		b = mgl32.Quat{W: -b.W, V: b.V.Mul(-1)}
	}
	var dd, ss float64
	for i, x := range []float32{a.W - b.W, a.V[0] - b.V[0], a.V[1] - b.V[1], a.V[2] - b.V[2]} {
		y := []float32{a.W + b.W, a.V[0] + b.V[0], a.V[1] + b.V[1], a.V[2] + b.V[2]}[i]
		dd += float64(x) * float64(x)
		ss += float64(y) * float64(y)
	}
	return 2 * math.Atan2(math.Sqrt(dd), math.Sqrt(ss))
}

// vrmaPlayer is a character of a rig playing a VRMA clip through a 1D
// blend space.
type vrmaPlayer struct {
	w    *sway.World
	e    arche.Entity
	h    sway.Animation
	r    *sway.Rig
	skel *sway.Skeleton
}

func playVRMA(t *testing.T, r *sway.Rig, v *sway.VRMA) *vrmaPlayer {
	t.Helper()
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	t.Cleanup(func() { w.Close() })
	e, err := w.AddRig(r, sway.Identity())
	must(t, err)
	skel, err := w.Skeleton(e)
	must(t, err)
	desc, _, err := v.Clip(r, skel, true)
	must(t, err)
	clip, err := w.AddClip(desc)
	must(t, err)
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
	must(t, err)
	h, err := w.Animation().Add(e, space, sway.DefaultAnimSettings())
	must(t, err)
	return &vrmaPlayer{w, e, h, r, skel}
}

// turn returns a humanoid bone's world position and its model-space turn
// from its rest, D = w W⁻¹ (the root is the identity).
func (p *vrmaPlayer) turn(t *testing.T, human string) (mgl32.Vec3, mgl32.Quat) {
	t.Helper()
	i := p.skel.Index(p.r.HumanBone(human))
	if i < 0 {
		t.Fatalf("no bone for %s", human)
	}
	bw, err := p.w.BoneWorld(p.e, i)
	must(t, err)
	return bw.Pos, bw.Rot.Mul(p.skel.ModelRot()[i].Inverse())
}

func loadRig(t *testing.T, v sway.RigVersion) *sway.Rig {
	t.Helper()
	r, err := sway.LoadRig(writeRigFile(t, v, gltfrig.FixtureOptions{}))
	must(t, err)
	return r
}

// The fixture avatar's humanoid bones (its 1.0 and 0.x forms name them alike).
var fixtureHumans = []string{"hips", "spine", "chest", "neck", "head", "leftEye", "rightEye"}

// One VRMA clip retargeted onto the VRM 0.x and the VRM 1.0 form of the
// fixture avatar and played through a blend space moves every humanoid
// bone alike, frame by frame at 60 Hz: the same world position (within
// 1e-5 m) and the same world turn from its rest (within 1e-5 rad), and the
// hips at the same place. (The 0.x form's bones rest turned half a turn
// about +Y, so their world rotations differ by that; their turns do not.)
func TestVRMASameMotionOnVRM0AndVRM1(t *testing.T) {
	v, err := sway.LoadVRMA(writeVRMA(t, vrmaWalkOptions()))
	must(t, err)
	a := playVRMA(t, loadRig(t, sway.RigVRM1), v)
	b := playVRMA(t, loadRig(t, sway.RigVRM0), v)
	var worstPos, worstRot float64
	var moved float64
	for f := range 150 {
		must(t, a.w.Step(1.0/60))
		must(t, b.w.Step(1.0/60))
		for _, hb := range fixtureHumans {
			pa, da := a.turn(t, hb)
			pb, db := b.turn(t, hb)
			worstPos = math.Max(worstPos, float64(pa.Sub(pb).Len()))
			worstRot = math.Max(worstRot, quatAngle(da, db))
			if hb == "head" {
				moved = math.Max(moved, quatAngle(da, mgl32.QuatIdent()))
			}
		}
		if worstPos > 1e-5 || worstRot > 1e-5 {
			t.Fatalf("frame %d: VRM 0.x and 1.0 differ by %.3g m, %.3g rad", f, worstPos, worstRot)
		}
	}
	if moved < 0.3 {
		t.Fatalf("the head hardly moved (%.3f rad): the clip did not play", moved)
	}
	t.Logf("150 frames at 60 Hz: VRM 0.x vs 1.0 at most %.2g m and %.2g rad apart", worstPos, worstRot)
}

// On the fixture avatar (hips 1 m high, chest and neck resting turned
// about +X, no upperChest, no arms) the clip gives each humanoid bone
// the clip's model-space turn: the product of its keys down the humanoid
// hierarchy (the clip rests at the identity), upperChest folded into the
// neck as the guide says; the hips go where the clip puts them, scaled by
// 1/0.9. Checked at each key time (steps of 1/30 s) in both VRM forms,
// within 1e-4 rad and 1e-4 m.
func TestVRMAFollowsTheClipOnTheFixtureAvatar(t *testing.T) {
	o := vrmaWalkOptions()
	v, err := sway.LoadVRMA(writeVRMA(t, o))
	must(t, err)
	if v.Name != "Clip" || v.SampleRate != 30 || v.KeyCount != vrmaClipKeys || math.Abs(float64(v.Duration)-1) > 1e-6 {
		t.Fatalf("clip %q: %v keys/s, %d keys, %v s", v.Name, v.SampleRate, v.KeyCount, v.Duration)
	}
	chain := map[string][]string{
		"hips":    {"hips"},
		"spine":   {"hips", "spine"},
		"chest":   {"hips", "spine", "chest"},
		"neck":    {"hips", "spine", "chest", "upperChest", "neck"},
		"head":    {"hips", "spine", "chest", "upperChest", "neck", "head"},
		"leftEye": {"hips", "spine", "chest", "upperChest", "neck", "head"},
	}
	for _, ver := range []sway.RigVersion{sway.RigVRM1, sway.RigVRM0} {
		p := playVRMA(t, loadRig(t, ver), v)
		var worstPos, worstRot float64
		checked := 0
		for range 2 * vrmaClipKeys {
			must(t, p.w.Step(1.0/30))
			st, err := p.h.State()
			must(t, err)
			kf := float64(st.Time) * (vrmaClipKeys - 1)
			k := int(math.Round(kf))
			if math.Abs(kf-float64(k)) > 1e-3 {
				continue
			}
			checked++
			pos, _ := p.turn(t, "hips")
			want := o.HipsTranslations[k].Mul(1 / 0.9)
			worstPos = math.Max(worstPos, float64(pos.Sub(want).Len()))
			for bone, links := range chain {
				d := mgl32.QuatIdent()
				for _, l := range links {
					d = d.Mul(o.Rotations[l][k])
				}
				_, got := p.turn(t, bone)
				worstRot = math.Max(worstRot, quatAngle(got, d))
			}
		}
		if checked < vrmaClipKeys {
			t.Fatalf("%v: only %d frames fell on keys", ver, checked)
		}
		if worstPos > 1e-4 || worstRot > 1e-4 {
			t.Errorf("%v: the avatar departs from the clip by %.3g m, %.3g rad", ver, worstPos, worstRot)
		}
		t.Logf("%v: %d key frames, hips within %.2g m, turns within %.2g rad", ver, checked, worstPos, worstRot)
	}
}

// aPoseRig is a hand-built VRM 1.0 rig whose arms rest in an A-pose:
// 45° down, the upper arms turned -45° about +Z (their local axes follow
// the arms), the lower arms at the identity below them.
func aPoseRig() *sway.Rig {
	down := mgl32.QuatRotate(-math.Pi/4, mgl32.Vec3{0, 0, 1})
	bone := func(name, parent string, pos mgl32.Vec3, rot mgl32.Quat) sway.BoneDesc {
		b := sway.Bone(name, parent, pos)
		b.Rot = rot
		return b
	}
	id := mgl32.QuatIdent()
	bones := []sway.BoneDesc{
		bone("Root", "", mgl32.Vec3{}, id),
		bone("J_Hips", "Root", mgl32.Vec3{0, 1.1, 0}, id),
		bone("J_Spine", "J_Hips", mgl32.Vec3{0, 0.1, 0}, id),
		bone("J_Chest", "J_Spine", mgl32.Vec3{0, 0.15, 0}, id),
		bone("J_Neck", "J_Chest", mgl32.Vec3{0, 0.25, 0}, id),
		bone("J_Head", "J_Neck", mgl32.Vec3{0, 0.1, 0}, id),
		bone("J_L_UpperArm", "J_Chest", mgl32.Vec3{0.18, 0.2, 0}, down),
		bone("J_L_LowerArm", "J_L_UpperArm", mgl32.Vec3{0.28, 0, 0}, id),
		bone("J_L_Hand", "J_L_LowerArm", mgl32.Vec3{0.25, 0, 0}, id),
	}
	return &sway.Rig{Skeleton: sway.SkeletonDesc{Name: "apose", Bones: bones}, Version: sway.RigVRM1,
		Humanoid: map[string]string{"hips": "J_Hips", "spine": "J_Spine", "chest": "J_Chest", "neck": "J_Neck", "head": "J_Head",
			"leftUpperArm": "J_L_UpperArm", "leftLowerArm": "J_L_LowerArm", "leftHand": "J_L_Hand"}}
}

// A clip authored on a T-pose rig onto an avatar whose rest is an
// A-pose. The specification requires both rests to be the VRM T-pose
// and defines the retarget from the rests it is given: each avatar bone
// turns from its rest by the clip bone's model-space turn D, so the local
// key is l' = L' W'⁻¹ N W' (the guide's formula, computed here by hand in
// float64 for every key of every bone, within 1e-5 rad). An A-pose rest
// therefore keeps its 45° offset: when the clip drops the T-pose arm 70°,
// the A-pose arm points 115° below the horizontal (checked in the world,
// within 1e-3 m). Giving the clip's rig other rest rotations for the same
// posture (the specification allows any) changes nothing.
func TestVRMAOntoAPoseAvatar(t *testing.T) {
	o := vrmaWalkOptions()
	v, err := sway.LoadVRMA(writeVRMA(t, o))
	must(t, err)
	r := aPoseRig()
	p := playVRMA(t, r, v)
	desc, _, err := v.Clip(r, p.skel, true)
	must(t, err)

	// By hand: the clip rests at the identity, so N_b = l_b. The avatar
	// lacks upperChest, between chest and neck, so the neck takes
	// N_upperChest N_neck; it lacks the shoulder too, so the upper arm,
	// whose nearest ancestor it has is the chest, takes N_upperChest
	// N_leftShoulder N_leftUpperArm (the shoulder has no keys).
	folded := map[string][]string{"neck": {"upperChest", "neck"}, "leftUpperArm": {"upperChest", "leftShoulder", "leftUpperArm"}}
	for _, tr := range desc.Tracks {
		name := p.skel.BoneName(tr.Bone)
		var human string
		for h, b := range r.Humanoid {
			if b == name {
				human = h
			}
		}
		links := folded[human]
		if links == nil {
			links = []string{human}
		}
		L, W := p.skel.RestRot()[tr.Bone], p.skel.ModelRot()[tr.Bone]
		for k, got := range tr.Rotations {
			n := mgl32.QuatIdent()
			for _, l := range links {
				if keys, ok := o.Rotations[l]; ok {
					n = n.Mul(keys[k])
				}
			}
			want := L.Mul(W.Inverse()).Mul(n).Mul(W)
			if a := quatAngle(got, want); a > 1e-5 {
				t.Fatalf("%s key %d: %v, want %v (%.3g rad apart)", human, k, got, want, a)
			}
		}
	}

	// In the world, key by key: the upper arm turned by the clip's
	// D = N_hips N_spine N_chest N_upperChest N_leftUpperArm from its
	// A-pose rest; with the body's turn taken out, 45° + 70°·u below +X
	// (115° at the last key).
	checked, deepest := 0, 0.0
	for range 2 * vrmaClipKeys {
		must(t, p.w.Step(1.0/30))
		st, err := p.h.State()
		must(t, err)
		kf := float64(st.Time) * (vrmaClipKeys - 1)
		k := int(math.Round(kf))
		if math.Abs(kf-float64(k)) > 1e-3 {
			continue
		}
		up, err := p.w.BoneWorld(p.e, p.skel.Index("J_L_UpperArm"))
		must(t, err)
		lo, err := p.w.BoneWorld(p.e, p.skel.Index("J_L_LowerArm"))
		must(t, err)
		body := mgl32.QuatIdent()
		for _, l := range []string{"hips", "spine", "chest", "upperChest"} {
			body = body.Mul(o.Rotations[l][k])
		}
		dir := body.Inverse().Rotate(lo.Pos.Sub(up.Pos)).Normalize()
		deg := 45 + 70*float64(k)/(vrmaClipKeys-1)
		want := mgl32.Vec3{float32(math.Cos(deg * math.Pi / 180)), float32(-math.Sin(deg * math.Pi / 180)), 0}
		if d := dir.Sub(want).Len(); d > 1e-3 {
			t.Fatalf("key %d: the A-pose arm points %v relative to the body, want %v (%.1f° below +X)", k, dir, want, deg)
		}
		checked++
		deepest = math.Max(deepest, deg)
	}
	if checked < vrmaClipKeys || deepest < 112 {
		t.Fatalf("%d key frames checked, the arm at most %.1f° down", checked, deepest)
	}

	// The same posture authored on a rig with other rest rotations:
	// l = L W⁻¹ N W for each key, with W the rest's model rotation.
	o2 := vrmaWalkOptions()
	rests := map[string]mgl32.Quat{
		"spine":        mgl32.QuatRotate(0.7, mgl32.Vec3{1, 2, 3}.Normalize()),
		"upperChest":   mgl32.QuatRotate(-1.1, mgl32.Vec3{0, 1, 0}),
		"leftUpperArm": mgl32.QuatRotate(2.0, mgl32.Vec3{3, -1, 1}.Normalize()),
	}
	o2.Rest = rests
	world := map[string]mgl32.Quat{}
	for _, b := range gltfrig.VRMAFixtureBones() {
		parent := map[string]string{"spine": "hips", "chest": "spine", "upperChest": "chest", "neck": "upperChest", "head": "neck",
			"leftShoulder": "upperChest", "leftUpperArm": "leftShoulder", "leftLowerArm": "leftUpperArm"}[b]
		pw := mgl32.QuatIdent()
		if parent != "" {
			pw = world[parent]
		}
		l, ok := rests[b]
		if !ok {
			l = mgl32.QuatIdent()
		}
		world[b] = pw.Mul(l)
	}
	for b, keys := range o2.Rotations {
		W := world[b]
		L, ok := rests[b]
		if !ok {
			L = mgl32.QuatIdent()
		}
		out := make([]mgl32.Quat, len(keys))
		for k, n := range keys {
			out[k] = L.Mul(W.Inverse()).Mul(n).Mul(W).Normalize()
		}
		o2.Rotations[b] = out
	}
	v2, err := sway.LoadVRMA(writeVRMA(t, o2))
	must(t, err)
	desc2, _, err := v2.Clip(r, p.skel, true)
	must(t, err)
	if len(desc2.Tracks) != len(desc.Tracks) {
		t.Fatalf("%d tracks, want %d", len(desc2.Tracks), len(desc.Tracks))
	}
	worst := 0.0
	for i := range desc.Tracks {
		for k := range desc.Tracks[i].Rotations {
			worst = math.Max(worst, quatAngle(desc.Tracks[i].Rotations[k], desc2.Tracks[i].Rotations[k]))
		}
	}
	if worst > 1e-5 {
		t.Errorf("other clip rests for the same posture change the retarget by %.3g rad", worst)
	}
}

// The look-at keys read as the specification's yaw and pitch, give a
// direction, and drive sway's look-at: aimed at the point the last key
// looks at, 20 m from the head (its frame the character's root, turned
// 0.5 rad), the head turns so that the look-at space's +Z (the model's
// +Z turned with the head) faces it, within 0.5°. The fixture's head
// rests tilted 2° about +X, so the head's look axes are set to the
// model's +Z and +Y in head space.
func TestVRMALookAtDrivesLookAt(t *testing.T) {
	v, err := sway.LoadVRMA(writeVRMA(t, vrmaWalkOptions()))
	must(t, err)
	if len(v.LookAt) != vrmaClipKeys || v.LookAtOffset != (mgl32.Vec3{0, 0.06, 0}) {
		t.Fatalf("%d gaze keys, offset %v", len(v.LookAt), v.LookAtOffset)
	}
	last := v.LookAt[vrmaClipKeys-1]
	if math.Abs(float64(last.YawDegrees)-30) > 1e-3 || math.Abs(float64(last.PitchDegrees)+20) > 1e-3 {
		t.Fatalf("last gaze key %+v, want yaw 30°, pitch -20° (up)", last)
	}
	// (sin 30° cos 20°, sin 20°, cos 30° cos 20°)
	want := mgl32.Vec3{0.469846, 0.342020, 0.813798}
	if d := last.Direction().Sub(want).Len(); d > 1e-5 {
		t.Fatalf("direction %v, want %v", last.Direction(), want)
	}
	if len(v.Expressions) != 1 || v.Expressions[0].Name != "happy" || !v.Expressions[0].Preset || v.Expressions[0].Weights[vrmaClipKeys-1] != 1 {
		t.Errorf("expressions %+v", v.Expressions)
	}

	r := loadRig(t, sway.RigVRM1)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	root := sway.At(mgl32.Vec3{1, 0, 2})
	root.Rot = mgl32.QuatRotate(0.5, mgl32.Vec3{0, 1, 0})
	e, err := w.AddRig(r, root)
	must(t, err)
	skel, err := w.Skeleton(e)
	must(t, err)
	head := skel.Index(r.HumanBone("head"))
	s := sway.LookAtFor(skel)
	s.Eyes = [2]sway.LookAtEye{}
	restInv := skel.ModelRot()[head].Inverse()
	s.Head.Forward, s.Head.Up = restInv.Rotate(mgl32.Vec3{0, 0, 1}), restInv.Rotate(mgl32.Vec3{0, 1, 0})
	la, err := w.LookAt().Add(e, s)
	must(t, err)
	must(t, w.Step(1.0/60))
	hw, err := w.BoneWorld(e, head)
	must(t, err)
	origin := hw.Pos.Add(hw.Rot.Rotate(v.LookAtOffset))
	must(t, la.SetTarget(last.Target(origin, root.Rot, 20)))
	for range 240 {
		must(t, w.Step(1.0/60))
	}
	hw, err = w.BoneWorld(e, head)
	must(t, err)
	fwd := hw.Rot.Mul(skel.ModelRot()[head].Inverse()).Rotate(mgl32.Vec3{0, 0, 1})
	gaze := root.Rot.Rotate(last.Direction())
	if a := math.Acos(math.Min(1, float64(fwd.Dot(gaze)))) * 180 / math.Pi; a > 0.5 {
		t.Errorf("after 4 s the head faces %v, %.2f° from the gaze %v", fwd, a, gaze)
	} else {
		t.Logf("the head faces the clip's gaze within %.3f°", a)
	}
}

// Hostile files and misuse give *FieldError values naming the JSON path
// or the argument.
func TestVRMARejects(t *testing.T) {
	b, err := gltfrig.FixtureVRMA(vrmaWalkOptions())
	must(t, err)
	bad := bytes.Replace(b, []byte(`"specVersion":"1.0"`), []byte(`"specVersion":"9.9"`), 1)
	if bytes.Equal(bad, b) {
		t.Fatal("specVersion not found in the fixture")
	}
	path := filepath.Join(t.TempDir(), "bad.vrma")
	must(t, os.WriteFile(path, bad, 0o644))
	_, err = sway.LoadVRMA(path)
	var fe *sway.FieldError
	if !errors.As(err, &fe) || fe.Field != "extensions.VRMC_vrm_animation.specVersion" || !errors.Is(err, sway.ErrInvalid) {
		t.Errorf("unknown specVersion: %v", err)
	}
	// A VRM avatar is no VRMA.
	_, err = sway.LoadVRMA(writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{}))
	if !errors.As(err, &fe) || fe.Field != "extensions.VRMC_vrm_animation" {
		t.Errorf("an avatar read as a VRMA: %v", err)
	}

	v, err := sway.LoadVRMA(writeVRMA(t, vrmaWalkOptions()))
	must(t, err)
	r := loadRig(t, sway.RigVRM1)
	p := playVRMA(t, r, v)
	other := aPoseRig()
	for name, c := range map[string]func() error{
		"nil rig":      func() error { _, _, err := v.Clip(nil, p.skel, true); return err },
		"nil skeleton": func() error { _, _, err := v.Clip(r, nil, true); return err },
		"nil clip":     func() error { _, _, err := (*sway.VRMA)(nil).Clip(r, p.skel, true); return err },
		"no humanoid":  func() error { _, _, err := v.Clip(&sway.Rig{Skeleton: r.Skeleton}, p.skel, true); return err },
		"another rig's skeleton": func() error {
			_, _, err := v.Clip(other, p.skel, true)
			return err
		},
	} {
		err := c()
		if !errors.As(err, &fe) || !errors.Is(err, sway.ErrInvalid) {
			t.Errorf("%s: %v (%T), want a *FieldError", name, err, err)
		}
	}
}

// What the retarget leaves out comes back as warnings: a clip whose hips
// move, played on an avatar whose humanoid map has no hips, keeps its
// rotations and warns that the hips translation was skipped.
func TestVRMAClipWarnings(t *testing.T) {
	v, err := sway.LoadVRMA(writeVRMA(t, vrmaWalkOptions()))
	must(t, err)
	r, err := sway.LoadRig(writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{}))
	must(t, err)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	skel, err := w.RigSkeleton(r)
	must(t, err)
	if _, warnings, err := v.Clip(r, skel, true); err != nil || len(warnings) != 0 {
		t.Fatalf("the full avatar: warnings %q, %v", warnings, err)
	}
	delete(r.Humanoid, "hips")
	_, warnings, err := v.Clip(r, skel, true)
	if err != nil || len(warnings) == 0 || !strings.Contains(strings.Join(warnings, "; "), "hips") {
		t.Fatalf("an avatar without hips: warnings %q, %v; want one about the hips", warnings, err)
	}
}
