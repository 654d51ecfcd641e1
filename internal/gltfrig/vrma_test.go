package gltfrig

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/vrma"
)

// vrmaWalk is a one-second fixture clip: the hips bob and walk 0.3 m
// along +Z, the spine and the left upper arm turn, a smile rises beyond
// 1 (clamped) and the gaze turns 30° left and 20° up.
func vrmaWalk() VRMAFixtureOptions {
	const keys = 31
	o := VRMAFixtureOptions{Rotations: map[string][]mgl32.Quat{}, Expressions: map[string][]float32{}}
	off := mgl32.Vec3{0, 0.06, 0.02}
	o.LookAtOffset = &off
	for k := range keys {
		u := float64(k) / (keys - 1)
		o.HipsTranslations = append(o.HipsTranslations, mgl32.Vec3{0, float32(0.9 + 0.03*math.Sin(2*math.Pi*u)), float32(0.3 * u)})
		o.Rotations["spine"] = append(o.Rotations["spine"], axisAngle(10*math.Sin(2*math.Pi*u), mgl32.Vec3{0, 1, 0}))
		o.Rotations["leftUpperArm"] = append(o.Rotations["leftUpperArm"], axisAngle(-70*u, mgl32.Vec3{0, 0, 1}))
		o.Rotations["head"] = append(o.Rotations["head"], axisAngle(15*u, mgl32.Vec3{1, 0, 0}))
		o.Expressions["happy"] = append(o.Expressions["happy"], float32(1.5*u))
		o.Expressions["wink"] = append(o.Expressions["wink"], float32(-0.5+u))
		// Ry(yaw) Rx(pitch): yaw 30° u, pitch -20° u (up).
		o.LookAt = append(o.LookAt, axisAngle(30*u, mgl32.Vec3{0, 1, 0}).Mul(axisAngle(-20*u, mgl32.Vec3{1, 0, 0})))
	}
	return o
}

func vrmaGLB(t testing.TB, o VRMAFixtureOptions) []byte {
	t.Helper()
	glb, err := FixtureVRMA(o)
	if err != nil {
		t.Fatal(err)
	}
	return glb
}

// The fixture reads back as written: the humanoid map by Unity node
// names, rests, keys at 30 keys/s, the hips height and parent, the
// expressions clamped and the gaze as yaw and pitch.
func TestVRMAReadsTheFixture(t *testing.T) {
	o := vrmaWalk()
	v, err := DecodeVRMA(bytes.NewReader(vrmaGLB(t, o)))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Warnings) != 0 {
		t.Errorf("warnings: %q", v.Warnings)
	}
	if v.SpecVersion != "1.0" || v.Humanoid["hips"] != "Hips" || v.Humanoid["leftUpperArm"] != "LeftUpperArm" || len(v.Humanoid) != len(VRMAFixtureBones()) {
		t.Fatalf("version %q, humanoid %v", v.SpecVersion, v.Humanoid)
	}
	if v.LookAtOffset != (mgl32.Vec3{0, 0.06, 0.02}) {
		t.Errorf("offset %v", v.LookAtOffset)
	}
	if len(v.Animations) != 1 {
		t.Fatalf("%d animations", len(v.Animations))
	}
	a := v.Animations[0]
	c := a.Clip
	if a.Name != "Clip" || c.SampleRate != 30 || c.KeyCount != 31 || math.Abs(float64(a.Duration)-1) > 1e-6 {
		t.Fatalf("clip %q at %v keys/s, %d keys, %v s", a.Name, c.SampleRate, c.KeyCount, a.Duration)
	}
	if math.Abs(float64(c.HipsHeight)-0.9) > 1e-6 || c.HipsParent.Rotation != mgl32.QuatIdent() || c.HipsParent.Translation != (mgl32.Vec3{}) {
		t.Errorf("hips height %v, parent %+v", c.HipsHeight, c.HipsParent)
	}
	for k := range c.KeyCount {
		if d := c.HipsTranslations[k].Sub(o.HipsTranslations[k]).Len(); d > 1e-6 {
			t.Fatalf("hips key %d: %v, want %v", k, c.HipsTranslations[k], o.HipsTranslations[k])
		}
		for _, b := range []string{"spine", "leftUpperArm", "head"} {
			if d := c.Bones[b].Rotations[k].Dot(o.Rotations[b][k]); math.Abs(float64(d)) < 1-1e-6 {
				t.Fatalf("%s key %d: %v, want %v", b, k, c.Bones[b].Rotations[k], o.Rotations[b][k])
			}
		}
	}
	if len(c.Bones) != len(VRMAFixtureBones()) || c.Bones["chest"].Rotations != nil || c.Bones["chest"].RestWorld != mgl32.QuatIdent() {
		t.Errorf("bones %d, chest %+v", len(c.Bones), c.Bones["chest"])
	}
	if len(a.Expressions) != 2 || a.Expressions[0].Name != "happy" || !a.Expressions[0].Preset || a.Expressions[1].Name != "wink" || a.Expressions[1].Preset {
		t.Fatalf("expressions %+v", a.Expressions)
	}
	for k := range c.KeyCount {
		u := float32(k) / 30
		if w, want := a.Expressions[0].Weights[k], min(1.5*u, 1); math.Abs(float64(w-want)) > 1e-6 {
			t.Fatalf("happy key %d: %v, want %v", k, w, want)
		}
		if w, want := a.Expressions[1].Weights[k], max(u-0.5, 0); math.Abs(float64(w-want)) > 1e-6 {
			t.Fatalf("wink key %d: %v, want %v", k, w, want)
		}
		if g := a.LookAt[k]; math.Abs(float64(g.YawDegrees-30*u)) > 1e-3 || math.Abs(float64(g.PitchDegrees+20*u)) > 1e-3 {
			t.Fatalf("gaze key %d: %+v, want yaw %v pitch %v", k, g, 30*u, -20*u)
		}
	}
	// The clip retargets onto its own rig as the identity map.
	av := vrma.Avatar{Bones: map[string]vrma.AvatarBone{}, HipsParent: c.HipsParent, HipsHeight: c.HipsHeight}
	for name, b := range c.Bones {
		av.Bones[name] = vrma.AvatarBone{Bone: v.Humanoid[name], RestLocal: b.RestLocal, RestWorld: b.RestWorld}
	}
	res, err := vrma.Retarget(&c, &av)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range res.Tracks {
		if tr.Humanoid == "leftUpperArm" {
			if d := tr.Rotations[30].Dot(o.Rotations["leftUpperArm"][30]); math.Abs(float64(d)) < 1-1e-6 {
				t.Errorf("retargeted onto itself, the arm's last key is %v", tr.Rotations[30])
			}
		}
	}
}

// Rest rotations of the clip's nodes (the specification allows any) are
// read relative to the parent node and composed in model space.
func TestVRMARestRotations(t *testing.T) {
	o := vrmaWalk()
	o.Rest = map[string]mgl32.Quat{"spine": axisAngle(40, mgl32.Vec3{1, 2, 3}), "chest": axisAngle(-25, mgl32.Vec3{0, 1, 0})}
	v, err := DecodeVRMA(bytes.NewReader(vrmaGLB(t, o)))
	if err != nil {
		t.Fatal(err)
	}
	c := v.Animations[0].Clip
	want := o.Rest["spine"].Mul(o.Rest["chest"])
	if d := c.Bones["chest"].RestWorld.Dot(want); math.Abs(float64(d)) < 1-1e-6 {
		t.Errorf("chest rest world %v, want %v", c.Bones["chest"].RestWorld, want)
	}
	if d := c.Bones["chest"].RestLocal.Dot(o.Rest["chest"]); math.Abs(float64(d)) < 1-1e-6 {
		t.Errorf("chest rest local %v", c.Bones["chest"].RestLocal)
	}
	// upperChest hangs under the chest with the identity: its world is the chest's.
	if d := c.Bones["upperChest"].RestWorld.Dot(want); math.Abs(float64(d)) < 1-1e-6 {
		t.Errorf("upperChest rest world %v", c.Bones["upperChest"].RestWorld)
	}
}

// The draft version, unknown names, the eyes, look-at expressions and
// channels the extension does not define are read with warnings.
func TestVRMAWarnings(t *testing.T) {
	o := vrmaWalk()
	o.SpecVersion = "1.0-draft"
	o.Expressions["lookUp"] = o.Expressions["happy"]
	glb := vrmaGLB(t, o)
	glb = mutateBin(t, glb, "extensions.VRMC_vrm_animation.humanoid.humanBones.tail", map[string]any{"node": 0}, false)
	glb = mutateBin(t, glb, "extensions.VRMC_vrm_animation.humanoid.humanBones.leftEye", map[string]any{"node": 0}, false)
	// the hips translation channel moved to the spine (node 2): not allowed
	glb = mutateBin(t, glb, "animations[0].channels[0].target.node", 2, false)
	v, err := DecodeVRMA(bytes.NewReader(glb))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(v.Warnings, "\n")
	for _, want := range []string{"1.0-draft", "humanBones.tail", "humanBones.leftEye", "lookUp", "only the hips may move"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning about %q in:\n%s", want, all)
		}
	}
}

// Hostile VRMA files are rejected with the JSON path of the bad value.
func TestRejectVRMA(t *testing.T) {
	good := vrmaGLB(t, vrmaWalk())
	const ext = "extensions.VRMC_vrm_animation"
	m := func(path string, v any) []byte { return mutateBin(t, good, path, v, false) }
	del := func(path string) []byte { return mutateBin(t, good, path, nil, true) }
	cases := []struct {
		name string
		file []byte
		path string
	}{
		{"no extension", del(ext), ext},
		{"no specVersion", del(ext + ".specVersion"), ext + ".specVersion"},
		{"unknown specVersion", m(ext+".specVersion", "2.0"), ext + ".specVersion"},
		{"specVersion a number", m(ext+".specVersion", 1), ext + ".specVersion"},
		{"hips node out of range", m(ext+".humanoid.humanBones.hips.node", 999), ext + ".humanoid.humanBones.hips.node"},
		{"hips node negative", m(ext+".humanoid.humanBones.hips.node", -1), ext + ".humanoid.humanBones.hips.node"},
		{"hips node missing", del(ext + ".humanoid.humanBones.hips.node"), ext + ".humanoid.humanBones.hips.node"},
		{"no hips", del(ext + ".humanoid.humanBones.hips"), ext + ".humanoid.humanBones.hips"},
		{"two bones on one node", m(ext+".humanoid.humanBones.spine.node", 1), ext + ".humanoid.humanBones.spine.node"},
		{"expression on a bone", m(ext+".expressions.preset.happy.node", 1), ext + ".expressions.preset.happy.node"},
		{"lookAt on a bone", m(ext+".lookAt.node", 2), ext + ".lookAt.node"},
		{"lookAt node out of range", m(ext+".lookAt.node", 1<<40), ext + ".lookAt.node"},
		{"offset of 2 numbers", m(ext+".lookAt.offsetFromHeadBone", []float64{0, 1}), ext + ".lookAt.offsetFromHeadBone"},
		{"offset huge", m(ext+".lookAt.offsetFromHeadBone", []float64{0, 1e30, 0}), ext + ".lookAt.offsetFromHeadBone"},
		{"humanBones not an object", m(ext+".humanoid.humanBones", []int{1}), ext + ".humanoid.humanBones"},
		{"no animations", del("animations"), "animations"},
		{"hips at height 0", m("nodes[1].translation", []float64{0, 0, 0}), ext + ".humanoid.humanBones.hips.node"},
		{"NaN-free bad rotation key", m("nodes[2].rotation", []float64{0, 0, 0, 2}), "nodes[2].rotation"},
		{"channel on no node", m("animations[0].channels[1].target.node", 5000), "animations[0].channels[1].target.node"},
	}
	for _, c := range cases {
		_, err := DecodeVRMA(bytes.NewReader(c.file))
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Type != errType || !errors.Is(err, check.ErrInvalid) {
			t.Errorf("%s: error %v (%T), want a *check.FieldError", c.name, err, err)
			continue
		}
		if !strings.HasPrefix(fe.Field, c.path) {
			t.Errorf("%s: error at %q, want %q: %v", c.name, fe.Field, c.path, err)
		}
	}
	// A file without humanoid (expressions only) is a clip with no bones.
	v, err := DecodeVRMA(bytes.NewReader(del(ext + ".humanoid")))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Humanoid) != 0 || len(v.Animations[0].Expressions) != 2 {
		t.Errorf("humanoid %v, expressions %d", v.Humanoid, len(v.Animations[0].Expressions))
	}
}

// FuzzVRMA: whatever the bytes, DecodeVRMA returns a VRMA whose clip
// retargets onto itself, or a *check.FieldError naming a path, within
// the loader's allocation bound. Seeded from the fixture.
func FuzzVRMA(f *testing.F) {
	f.Add(vrmaGLB(f, vrmaWalk()))
	o := vrmaWalk()
	o.Rest = map[string]mgl32.Quat{"spine": axisAngle(40, mgl32.Vec3{1, 2, 3})}
	o.Drop = []string{"upperChest", "leftShoulder"}
	f.Add(vrmaGLB(f, o))
	js, _ := toGLTF(f, vrmaGLB(f, vrmaWalk()), "")
	f.Add(js)
	f.Fuzz(func(t *testing.T, data []byte) {
		var v *VRMA
		var err error
		n := allocated(func() { v, err = DecodeVRMA(bytes.NewReader(data)) })
		if err != nil {
			fieldOrIO(t, err)
			if limit := uint64(1<<20 + 512*len(data) + 40*MaxResampledKeys); n > limit {
				t.Fatalf("%d bytes of input allocated %d bytes before a rejection", len(data), n)
			}
			return
		}
		for _, a := range v.Animations {
			c := a.Clip
			av := vrma.Avatar{Bones: map[string]vrma.AvatarBone{}, HipsParent: c.HipsParent, HipsHeight: c.HipsHeight}
			for name, b := range c.Bones {
				av.Bones[name] = vrma.AvatarBone{Bone: v.Humanoid[name], RestLocal: b.RestLocal, RestWorld: b.RestWorld}
			}
			if _, err := vrma.Retarget(&c, &av); err != nil {
				t.Fatalf("a loaded clip does not retarget onto its own rig: %v", err)
			}
			for _, g := range a.LookAt {
				if math.IsNaN(float64(g.YawDegrees)) || math.IsNaN(float64(g.PitchDegrees)) {
					t.Fatalf("gaze %+v", g)
				}
			}
			for _, e := range a.Expressions {
				for _, w := range e.Weights {
					if !(w >= 0 && w <= 1) {
						t.Fatalf("expression %s weight %v", e.Name, w)
					}
				}
			}
		}
	})
}
