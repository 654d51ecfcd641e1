package vrma

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

const keys = 6

// scenario is a clip rig with a motion and an avatar rig.
type scenario struct {
	name         string
	clip, avatar layout
	skip         []string // humanoid bones the clip does not animate
}

var scenarios = []scenario{
	{name: "T-pose clip onto A-pose avatar, identity rests",
		clip: layout{}, avatar: layout{aPose: true}},
	{name: "T-pose clip with rest rotations onto A-pose avatar with rest rotations",
		clip: layout{randomRest: 1, twist: true}, avatar: layout{aPose: true, randomRest: 2}},
	{name: "clip onto an avatar lacking upperChest, neck, shoulders, toes",
		clip:   layout{randomRest: 3},
		avatar: layout{randomRest: 4, drop: map[string]bool{"upperChest": true, "neck": true, "leftShoulder": true, "rightShoulder": true, "leftToes": true, "rightToes": true}}},
	{name: "clip lacking upperChest and jaw onto a full avatar",
		clip: layout{randomRest: 5, drop: map[string]bool{"upperChest": true, "jaw": true}}, avatar: layout{randomRest: 6}},
	{name: "clip not animating spine and head",
		clip: layout{randomRest: 7}, avatar: layout{randomRest: 8}, skip: []string{"spine", "head"}},
	{name: "VRM 0.x avatar",
		clip: layout{randomRest: 9}, avatar: layout{vrm0: true}},
	{name: "clip under a rotated, scaled armature onto a shorter avatar",
		clip:   layout{randomRest: 10, rootR: axisAngle(90, [3]float64{1, 0, 0}), rootScale: 0.01},
		avatar: layout{randomRest: 11, hipsHeight: 0.9, rootR: axisAngle(-20, [3]float64{0, 1, 0})}},
}

func (s scenario) run(t *testing.T) (*testRig, motion, *Clip, *testRig, *Avatar, *Result) {
	t.Helper()
	cr := build(s.clip)
	m := randomMotion(cr, keys, 42, s.skip...)
	c := clipOf(cr, m)
	ar := build(s.avatar)
	a := avatarOf(ar, s.avatar.vrm0)
	res, err := Retarget(c, a)
	if err != nil {
		t.Fatal(err)
	}
	checkFinite(t, res)
	return cr, m, c, ar, a, res
}

// checkFinite fails for a non-finite or non-unit output.
func checkFinite(t *testing.T, res *Result) {
	t.Helper()
	for _, tr := range res.Tracks {
		if len(tr.Rotations) != res.KeyCount {
			t.Fatalf("%s: %d rotations for %d keys", tr.Humanoid, len(tr.Rotations), res.KeyCount)
		}
		for k, q := range tr.Rotations {
			l := math.Sqrt(float64(q.W*q.W + q.V.Dot(q.V)))
			if math.IsNaN(l) || math.Abs(l-1) > 1e-6 {
				t.Fatalf("%s key %d: %v not unit", tr.Humanoid, k, q)
			}
			if k > 0 && q.Dot(tr.Rotations[k-1]) < 0 {
				t.Fatalf("%s key %d: hemisphere flips", tr.Humanoid, k)
			}
		}
		for k, v := range tr.Translations {
			for _, x := range v {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatalf("%s translation %d: %v", tr.Humanoid, k, v)
				}
			}
		}
	}
}

// TestRetargetMatchesReference checks Retarget bone by bone and key by key
// against the test-only float64 implementation of the guide's formulas.
func TestRetargetMatchesReference(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			_, _, c, ar, a, res := s.run(t)
			clip, ks, avatar := refInputs(c, a)
			tracks := map[string]Track{}
			for _, tr := range res.Tracks {
				if tr.Bone != "A_"+tr.Humanoid {
					t.Fatalf("track %s on bone %s", tr.Humanoid, tr.Bone)
				}
				tracks[tr.Humanoid] = tr
			}
			for k := range keys {
				want := refRetarget(clip, ks, avatar, k)
				for name, w := range want {
					got := ar.nodes[ar.index(name)].localR // no track: the rest
					if tr, ok := tracks[name]; ok {
						got = matOf(tr.Rotations[k])
					}
					if d := maxDiff(got, w); d > 2e-6 {
						t.Errorf("key %d %s: off the reference by %g\n got %v\nwant %v", k, name, d, got, w)
					}
				}
			}
		})
	}
}

// TestSameWorldMotion checks what the formula is for: every humanoid bone
// the avatar has turns from its rest by the same model-space rotation as
// the clip's bone (w W⁻¹), folded bones included; and the hips move by the
// clip's model-space position times the ratio of the hips heights.
func TestSameWorldMotion(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cr, m, c, ar, a, res := s.run(t)
			ratio := float64(a.HipsHeight) / float64(c.HipsHeight)
			for k := range keys {
				cp, ap := posedClip(cr, m, k), posedAvatar(ar, res, k)
				for _, n := range ap.nodes {
					if !n.human {
						continue
					}
					ci := cp.index(n.name)
					if ci < 0 {
						continue // the clip lacks it
					}
					cn := cp.nodes[ci]
					dc := cn.worldR.mul(cn.restWorR.t())
					da := n.worldR.mul(n.restWorR.t())
					if d := maxDiff(dc, da); d > 5e-6 {
						t.Errorf("key %d %s: turned %v, the clip's %v (off by %g)", k, n.name, da, dc, d)
					}
				}
				ch, ah := cp.nodes[cp.index("hips")].worldT, ap.nodes[ap.index("hips")].worldT
				for i := range ch {
					ch[i] *= ratio
				}
				if d := vecDiff(ch, ah); d > 2e-6 {
					t.Errorf("key %d hips at %v, want %v", k, ah, ch)
				}
			}
		})
	}
}

// TestAPoseUpperArmByHand: a clip authored on a T-pose rig whose rest
// rotations are the identity lowers the left arm straight down (local
// -90° about Z). On an avatar resting in an A-pose (arms 45° down, every
// other rest rotation the identity), the guide's formula turns the upper
// arm by the same -90° in model space from its rest: l' = L W⁻¹ N W with
// L = W = Rz(-45°) and N = Rz(-90°) is Rz(-135°), so the A-pose arm ends
// 135° below the horizontal. Given the avatar's T-pose instead of its
// rest (AvatarBone's documented meaning), the arm points straight down.
func TestAPoseUpperArmByHand(t *testing.T) {
	cr := build(layout{})
	m := motion{rot: map[string][]mat{"leftUpperArm": {axisAngle(-90, [3]float64{0, 0, 1})}}, hipsT: [][3]float64{cr.nodes[cr.index("hips")].localT}}
	c := clipOf(cr, m)
	ar := build(layout{aPose: true})
	a := avatarOf(ar, false)
	res, err := Retarget(c, a)
	if err != nil {
		t.Fatal(err)
	}
	var arm Track
	for _, tr := range res.Tracks {
		if tr.Humanoid == "leftUpperArm" {
			arm = tr
		}
	}
	// Rz(-135°) = (cos 67.5°, 0, 0, -sin 67.5°).
	want := mgl32.Quat{W: 0.38268343, V: mgl32.Vec3{0, 0, -0.92387953}}
	if got := arm.Rotations[0]; math.Abs(float64(got.Dot(want))) < 1-1e-6 {
		t.Fatalf("left upper arm local %v, want %v", got, want)
	}
	dir := func(p *testRig) [3]float64 {
		u, l := p.nodes[p.index("leftUpperArm")].worldT, p.nodes[p.index("leftLowerArm")].worldT
		d := [3]float64{l[0] - u[0], l[1] - u[1], l[2] - u[2]}
		n := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
		return [3]float64{d[0] / n, d[1] / n, d[2] / n}
	}
	if d := dir(posedAvatar(ar, res, 0)); vecDiff(d, [3]float64{-math.Sqrt2 / 2, -math.Sqrt2 / 2, 0}) > 1e-6 {
		t.Fatalf("A-pose arm points %v, want 135° below +X", d)
	}

	// The avatar's T-pose: its arms' rotations without the 45°.
	tpose := build(layout{})
	for _, name := range []string{"leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand"} {
		n := tpose.nodes[tpose.index(name)]
		a.Bones[name] = AvatarBone{Bone: "A_" + name, RestLocal: quatOfMat(n.localR), RestWorld: quatOfMat(n.worldR)}
	}
	if res, err = Retarget(c, a); err != nil {
		t.Fatal(err)
	}
	if d := dir(posedAvatar(ar, res, 0)); vecDiff(d, [3]float64{0, -1, 0}) > 1e-6 {
		t.Fatalf("with the T-pose given, the arm points %v, want straight down", d)
	}
}

// TestVRM0AndVRM1SameMotion plays one clip on a VRM 1.0 avatar (rest
// rotations anything, facing +Z) and on the same model laid out as a VRM
// 0.x file (facing -Z, identity rests, thumbs named the 0.x way) and turned
// as sway's loader turns it: every bone is at the same model-space place
// with the same turn from rest, and the hips at the same position. For the
// 0.x avatar each local rotation is three-vrm's: the normalised rotation
// with x and z negated.
func TestVRM0AndVRM1SameMotion(t *testing.T) {
	cr := build(layout{randomRest: 21, twist: true})
	m := randomMotion(cr, keys, 5)
	c := clipOf(cr, m)
	r1, r0 := build(layout{randomRest: 22}), build(layout{vrm0: true})
	a1, a0 := avatarOf(r1, false), avatarOf(r0, true)
	res1, err := Retarget(c, a1)
	if err != nil {
		t.Fatal(err)
	}
	res0, err := Retarget(c, a0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res0.Tracks) != len(res1.Tracks) {
		t.Fatalf("%d tracks on 0.x, %d on 1.0", len(res0.Tracks), len(res1.Tracks))
	}
	clip, ks, _ := refInputs(c, a0)
	for k := range keys {
		p1, p0 := posedAvatar(r1, res1, k), posedAvatar(r0, res0, k)
		for i, n1 := range p1.nodes {
			n0 := p0.nodes[i]
			if d := vecDiff(n0.worldT, n1.worldT); d > 2e-6 {
				t.Errorf("key %d %s at %v on 0.x, %v on 1.0", k, n1.name, n0.worldT, n1.worldT)
			}
			d1, d0 := n1.worldR.mul(n1.restWorR.t()), n0.worldR.mul(n0.restWorR.t())
			if d := maxDiff(d0, d1); d > 5e-6 {
				t.Errorf("key %d %s turned differently (by %g)", k, n1.name, d)
			}
		}
		for _, tr := range res0.Tracks {
			n := quatOfMat(refNormalised(clip[tr.Humanoid], ks[tr.Humanoid][k]))
			flipped := mgl32.Quat{W: n.W, V: mgl32.Vec3{-n.V[0], n.V[1], -n.V[2]}}
			if got := tr.Rotations[k]; math.Abs(float64(got.Dot(flipped))) < 1-1e-6 {
				t.Errorf("key %d %s: %v, three-vrm's %v", k, tr.Humanoid, got, flipped)
			}
		}
		// three-vrm's hips: the clip's model-space position (the hips
		// heights are equal) with x and z negated.
		ch := posedClip(cr, m, k).nodes[cr.index("hips")].worldT
		if got, want := mgl64(res0.Tracks[0].Translations[k]), [3]float64{-ch[0], ch[1], -ch[2]}; vecDiff(got, want) > 2e-6 {
			t.Errorf("key %d 0.x hips translation %v, want %v", k, got, want)
		}
	}
}

// TestVRM0ThumbNames: a 0.x avatar's thumbProximal and thumbIntermediate
// take the clip's thumbMetacarpal and thumbProximal.
func TestVRM0ThumbNames(t *testing.T) {
	q := mgl32.QuatRotate(0.5, mgl32.Vec3{0, 1, 0})
	id := mgl32.QuatIdent()
	c := &Clip{SampleRate: 30, KeyCount: 1, Bones: map[string]ClipBone{
		"leftThumbMetacarpal": {RestLocal: id, RestWorld: id, Rotations: []mgl32.Quat{q}},
		"leftThumbProximal":   {RestLocal: id, RestWorld: id, Rotations: []mgl32.Quat{q.Mul(q)}},
	}}
	a := &Avatar{VRM0: true, Bones: map[string]AvatarBone{
		"leftThumbProximal":     {Bone: "T1", RestLocal: id, RestWorld: id},
		"leftThumbIntermediate": {Bone: "T2", RestLocal: id, RestWorld: id},
		"leftThumbDistal":       {Bone: "T3", RestLocal: id, RestWorld: id},
	}}
	res, err := Retarget(c, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tracks) != 2 || res.Tracks[0].Bone != "T1" || res.Tracks[1].Bone != "T2" ||
		!res.Tracks[0].Rotations[0].ApproxEqual(q) || !res.Tracks[1].Rotations[0].ApproxEqual(q.Mul(q)) {
		t.Fatalf("tracks %+v", res.Tracks)
	}
	a.Bones["leftThumbMetacarpal"] = AvatarBone{Bone: "T0", RestLocal: id, RestWorld: id}
	if _, err := Retarget(c, a); !isField(err, "Bones[leftThumbProximal]") {
		t.Fatalf("two 0.x bones on one humanoid bone: %v", err)
	}
}

// TestHipsHeightScale: on a model scaled to hips 0.9 m from the clip's
// 1.0 m, the hips translation keys are the clip's times 0.9.
func TestHipsHeightScale(t *testing.T) {
	cr := build(layout{})
	m := randomMotion(cr, keys, 3)
	c := clipOf(cr, m)
	ar := build(layout{hipsHeight: 0.9})
	a := avatarOf(ar, false)
	if a.HipsHeight != 0.9 || c.HipsHeight != 1 {
		t.Fatalf("hips heights %g, %g", a.HipsHeight, c.HipsHeight)
	}
	res, err := Retarget(c, a)
	if err != nil {
		t.Fatal(err)
	}
	for k, got := range res.Tracks[0].Translations {
		want := c.HipsTranslations[k].Mul(0.9)
		if !got.ApproxEqualThreshold(want, 1e-6) {
			t.Errorf("key %d: hips %v, want 0.9 × %v = %v", k, got, c.HipsTranslations[k], want)
		}
	}
}

// TestFolding: with identity rests everywhere, an avatar lacking
// upperChest, neck and the shoulders takes their rotations into the
// bones below, and chest keeps its own.
func TestFolding(t *testing.T) {
	cr := build(layout{})
	m := randomMotion(cr, 2, 8)
	c := clipOf(cr, m)
	ar := build(layout{drop: map[string]bool{"upperChest": true, "neck": true, "leftShoulder": true, "rightShoulder": true, "leftToes": true}})
	res, err := Retarget(c, avatarOf(ar, false))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]mgl32.Quat{}
	for _, tr := range res.Tracks {
		got[tr.Humanoid] = tr.Rotations[1]
	}
	key := func(name string) mgl32.Quat { return c.Bones[name].Rotations[1] }
	for name, want := range map[string]mgl32.Quat{
		"chest":         key("chest"),
		"head":          key("upperChest").Mul(key("neck")).Mul(key("head")),
		"leftUpperArm":  key("upperChest").Mul(key("leftShoulder")).Mul(key("leftUpperArm")),
		"rightUpperArm": key("upperChest").Mul(key("rightShoulder")).Mul(key("rightUpperArm")),
		"leftFoot":      key("leftFoot"),
	} {
		if math.Abs(float64(got[name].Dot(want.Normalize()))) < 1-1e-6 {
			t.Errorf("%s: %v, want %v", name, got[name], want)
		}
	}
	for _, name := range []string{"upperChest", "neck", "leftShoulder", "leftToes"} {
		if _, ok := got[name]; ok {
			t.Errorf("a track for %s, which the avatar lacks", name)
		}
	}
}

func isField(err error, field string) bool {
	var fe *check.FieldError
	return errors.As(err, &fe) && fe.Field == field && errors.Is(err, check.ErrInvalid)
}

// TestBadInput: every bad value is a *check.FieldError naming it; near
// unit keys are normalised; nothing comes out NaN.
func TestBadInput(t *testing.T) {
	id := mgl32.QuatIdent()
	nan := float32(math.NaN())
	good := func() (*Clip, *Avatar) {
		c := &Clip{Name: "c", SampleRate: 30, KeyCount: 2, HipsHeight: 1,
			HipsParent:       Transform{Rotation: id, Scale: mgl32.Vec3{1, 1, 1}},
			HipsTranslations: []mgl32.Vec3{{0, 1, 0}, {0, 1, 0.5}},
			Bones: map[string]ClipBone{
				"hips":  {RestLocal: id, RestWorld: id, Rotations: []mgl32.Quat{id, id}},
				"spine": {RestLocal: id, RestWorld: id, Rotations: []mgl32.Quat{id, mgl32.QuatRotate(1, mgl32.Vec3{1, 0, 0})}},
			}}
		a := &Avatar{HipsHeight: 0.9, HipsParent: Transform{Rotation: id, Scale: mgl32.Vec3{1, 1, 1}},
			Bones: map[string]AvatarBone{"hips": {Bone: "H", RestLocal: id, RestWorld: id}, "spine": {Bone: "S", RestLocal: id, RestWorld: id}}}
		return c, a
	}
	for _, tc := range []struct {
		field string
		edit  func(*Clip, *Avatar)
	}{
		{"KeyCount", func(c *Clip, a *Avatar) { c.KeyCount = 0 }},
		{"SampleRate", func(c *Clip, a *Avatar) { c.SampleRate = nan }},
		{"Bones[spine].Rotations", func(c *Clip, a *Avatar) { b := c.Bones["spine"]; b.Rotations = b.Rotations[:1]; c.Bones["spine"] = b }},
		{"Bones[spine].Rotations[1]", func(c *Clip, a *Avatar) { c.Bones["spine"].Rotations[1] = mgl32.Quat{} }},
		{"Bones[spine].Rotations[0]", func(c *Clip, a *Avatar) { c.Bones["spine"].Rotations[0] = mgl32.Quat{W: nan} }},
		{"Bones[spine].Rotations[1]", func(c *Clip, a *Avatar) { c.Bones["spine"].Rotations[1] = mgl32.Quat{W: 2} }},
		{"Bones[hips].RestWorld", func(c *Clip, a *Avatar) { b := c.Bones["hips"]; b.RestWorld = mgl32.Quat{}; c.Bones["hips"] = b }},
		{"Bones[spine].RestLocal", func(c *Clip, a *Avatar) {
			b := a.Bones["spine"]
			b.RestLocal = mgl32.Quat{W: 0.5}
			a.Bones["spine"] = b
		}},
		{"Bones[spine].Bone", func(c *Clip, a *Avatar) { b := a.Bones["spine"]; b.Bone = ""; a.Bones["spine"] = b }},
		{"HipsTranslations", func(c *Clip, a *Avatar) { c.HipsTranslations = c.HipsTranslations[:1] }},
		{"HipsTranslations[1]", func(c *Clip, a *Avatar) { c.HipsTranslations[1][2] = nan }},
		{"HipsTranslations[1]", func(c *Clip, a *Avatar) { c.HipsTranslations[1][2] = 9e3; a.HipsHeight = 2 }},
		{"HipsHeight", func(c *Clip, a *Avatar) { c.HipsHeight = 0 }},
		{"HipsHeight", func(c *Clip, a *Avatar) { a.HipsHeight = -1 }},
		{"HipsParent.Rotation", func(c *Clip, a *Avatar) { c.HipsParent.Rotation = mgl32.Quat{} }},
		{"HipsParent.Scale", func(c *Clip, a *Avatar) { a.HipsParent.Scale = mgl32.Vec3{1, 0, 1} }},
		{"HipsParent.Translation", func(c *Clip, a *Avatar) { a.HipsParent.Translation[0] = float32(math.Inf(1)) }},
	} {
		c, a := good()
		tc.edit(c, a)
		res, err := Retarget(c, a)
		if !isField(err, tc.field) || res != nil {
			t.Errorf("%s: got %v, %v", tc.field, res, err)
		}
	}

	// Near unit (within UnitTolerance): normalised, not rejected.
	c, a := good()
	c.Bones["spine"].Rotations[1] = c.Bones["spine"].Rotations[1].Scale(1.0005)
	res, err := Retarget(c, a)
	if err != nil {
		t.Fatal(err)
	}
	checkFinite(t, res)
	if len(res.Tracks) != 2 || !res.Tracks[1].Rotations[1].ApproxEqual(mgl32.QuatRotate(1, mgl32.Vec3{1, 0, 0})) {
		t.Fatalf("tracks %+v", res.Tracks)
	}
	if want := (mgl32.Vec3{0, 0.9, 0.45}); !res.Tracks[0].Translations[1].ApproxEqual(want) {
		t.Fatalf("hips %v, want %v", res.Tracks[0].Translations[1], want)
	}

	// One key: a pose. Unknown names and eyes: warnings. No hips on the
	// avatar: the translation is dropped with a warning.
	c, a = good()
	c.KeyCount = 1
	c.HipsTranslations = c.HipsTranslations[:1]
	for name, b := range c.Bones {
		b.Rotations = b.Rotations[:1]
		c.Bones[name] = b
	}
	c.Bones["tail"] = ClipBone{RestLocal: id, RestWorld: id, Rotations: []mgl32.Quat{id}}
	c.Bones["leftEye"] = ClipBone{RestLocal: id, RestWorld: id, Rotations: []mgl32.Quat{id}}
	a.Bones["wing"] = AvatarBone{Bone: "W", RestLocal: id, RestWorld: id}
	delete(a.Bones, "hips")
	res, err = Retarget(c, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 4 || len(res.Tracks) != 1 || res.Tracks[0].Humanoid != "spine" {
		t.Fatalf("warnings %q, tracks %+v", res.Warnings, res.Tracks)
	}
}
