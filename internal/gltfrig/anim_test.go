package gltfrig

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// mixed is an animation of three channels with different key times and
// interpolations: the smallest key interval is 0.5 s, so the grid is
// 30 keys/s over 2 s (61 keys), and key 15 is at 0.5 s, 45 at 1.5 s.
func mixed() FixtureAnimation {
	return FixtureAnimation{Name: "Mixed", Channels: []FixtureChannel{
		{Node: "hips", Path: "translation", Times: []float32{0, 1, 2},
			Values: []float32{0, 1, 0, 0.2, 1, -0.4, 0.2, 1.5, -0.4}},
		{Node: "spine", Path: "scale", Interpolation: "STEP", Times: []float32{0, 0.5, 2},
			Values: []float32{1, 1, 1, 2, 2, 2, 0.5, 0.5, 0.5}},
		// Key 0: in-tangent (unused), value, out-tangent; key 1 the same.
		{Node: "neck", Path: "translation", Interpolation: "CUBICSPLINE", Times: []float32{0, 2},
			Values: []float32{5, 0, 0, 0, 0.1, 0, 1, 0, 0, -1, 0, 0, 1, 0.1, 0, 7, 0, 0}},
	}}
}

// turn is a LINEAR rotation whose second key is the negated quaternion of
// a quarter turn about +Y (the same rotation, the other hemisphere), plus
// channels the loader ignores: Body is no joint, and weights are morphs.
func turn() FixtureAnimation {
	h := float32(math.Sqrt(0.5))
	return FixtureAnimation{Name: "Turn", Channels: []FixtureChannel{
		{Node: "hairL0", Path: "rotation", Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 0, -h, 0, -h}},
		{Node: "Body", Path: "translation", Times: []float32{0, 1}, Values: []float32{0, 0, 0, 0, 1, 0}},
		{Node: "Body", Path: "weights", Times: []float32{0, 1}, Values: []float32{0, 1}},
	}}
}

// quantized holds rotations written as normalized integers: rotX(60°) =
// (0.5, 0, 0, cos 30°) is SHORT (16384, 0, 0, 28377) and BYTE
// (64, 0, 0, 110).
func quantized() FixtureAnimation {
	c := float32(math.Cos(math.Pi / 6))
	keys := []float32{0.5, 0, 0, c, 0, 0, 0, 1}
	return FixtureAnimation{Name: "Quantized", Channels: []FixtureChannel{
		{Node: "chest", Path: "rotation", Times: []float32{0, 1}, Values: keys, ComponentType: compShort},
		{Node: "neck", Path: "rotation", Times: []float32{0, 1}, Values: keys, ComponentType: compByte},
	}}
}

func animated(v Version, interleaved bool) FixtureOptions {
	return FixtureOptions{Animations: []FixtureAnimation{mixed(), turn(), quantized()}, Interleaved: interleaved}
}

// LINEAR, STEP and CUBICSPLINE channels with their own key times,
// sampled between their keys, against numbers worked out by hand.
func TestAnimationInterpolations(t *testing.T) {
	for _, il := range []bool{false, true} {
		r := decodeBytes(t, fixtureGLB(t, VersionVRM1, animated(VersionVRM1, il)))
		if len(r.Animations) != 3 {
			t.Fatalf("%d animations", len(r.Animations))
		}
		a := &r.Animations[0]
		if a.Name != "Mixed" || a.Duration != 2 || a.SampleRate != 30 || a.KeyCount != 61 || a.Channels != 3 ||
			strings.Join(a.Interpolations, ",") != "LINEAR,STEP,CUBICSPLINE" {
			t.Fatalf("Mixed: %q %g s %g/s %d keys %d channels %v", a.Name, a.Duration, a.SampleRate, a.KeyCount, a.Channels, a.Interpolations)
		}
		hips, spine, neck := track(t, a, "hips"), track(t, a, "spine"), track(t, a, "neck")
		if hips.Rotations != nil || hips.Scales != nil || spine.Translations != nil || neck.Rotations != nil {
			t.Error("a channel the file does not animate has keys")
		}
		const tol = 1e-6
		for _, c := range []struct {
			name string
			got  mgl32.Vec3
			want [3]float64
		}{
			// LINEAR: (0,1,0) → (0.2,1,-0.4) → (0.2,1.5,-0.4) at 0, 1, 2 s.
			{"hips k0", hips.Translations[0], [3]float64{0, 1, 0}},
			{"hips 0.5 s", hips.Translations[15], [3]float64{0.1, 1, -0.2}},
			{"hips 1.5 s", hips.Translations[45], [3]float64{0.2, 1.25, -0.4}},
			{"hips 2 s", hips.Translations[60], [3]float64{0.2, 1.5, -0.4}},
			// STEP at 0, 0.5, 2 s: the key before holds until the next.
			{"spine 0.467 s", spine.Scales[14], [3]float64{1, 1, 1}},
			{"spine 0.5 s", spine.Scales[15], [3]float64{2, 2, 2}},
			{"spine 1.967 s", spine.Scales[59], [3]float64{2, 2, 2}},
			{"spine 2 s", spine.Scales[60], [3]float64{0.5, 0.5, 0.5}},
			// CUBICSPLINE over td = 2 s, x from 0 (out-tangent 1/s) to 1
			// (in-tangent -1/s): at s = 0.25, h00 = 0.84375, h10 = 0.140625,
			// h01 = 0.15625, h11 = -0.046875, so x = 2·0.140625 + 0.15625 +
			// 2·0.046875 = 0.53125; at s = 0.5, 0.25 + 0.5 + 0.25 = 1; at
			// s = 0.75, 0.09375 + 0.84375 + 0.28125 = 1.21875.
			{"neck 0.5 s", neck.Translations[15], [3]float64{0.53125, 0.1, 0}},
			{"neck 1 s", neck.Translations[30], [3]float64{1, 0.1, 0}},
			{"neck 1.5 s", neck.Translations[45], [3]float64{1.21875, 0.1, 0}},
			{"neck 2 s", neck.Translations[60], [3]float64{1, 0.1, 0}},
		} {
			if !keyNear(c.got, c.want, tol) {
				t.Errorf("interleaved %v: %s = %v, want %v", il, c.name, c.got, c.want)
			}
		}
	}
}

// A LINEAR rotation from the identity to -(quarter turn about +Y) goes
// the short way, as the specification's slerp does (s = sign(a·b)): half
// way it is the eighth turn (0, sin 22.5°, 0, cos 22.5°) =
// (0, 0.38268343, 0, 0.92387953); each key is in the hemisphere of the
// one before. Channels on a node outside the skeleton and on morph
// weights are ignored with a warning.
func TestAnimationHemisphere(t *testing.T) {
	r := decodeBytes(t, fixtureGLB(t, VersionVRM1, animated(VersionVRM1, false)))
	a := &r.Animations[1]
	if a.Name != "Turn" || a.KeyCount != 31 || a.SampleRate != 30 || len(a.Tracks) != 1 || a.Channels != 3 {
		t.Fatalf("Turn: %+v", a)
	}
	rot := track(t, a, "hairL0").Rotations
	for _, c := range []struct {
		k    int
		want [4]float64
	}{
		{0, [4]float64{0, 0, 0, 1}},
		{15, [4]float64{0, 0.38268343, 0, 0.92387953}},
		{30, [4]float64{0, math.Sqrt(0.5), 0, math.Sqrt(0.5)}},
	} {
		if !keyRot(rot[c.k], c.want, 1e-6) {
			t.Errorf("key %d = %v, want ±%v", c.k, rot[c.k], c.want)
		}
	}
	for k := 1; k < len(rot); k++ {
		if rot[k].Dot(rot[k-1]) < 0 {
			t.Errorf("key %d is in the other hemisphere", k)
		}
		if a := angle(rot[k], rot[k-1]); a > 3.01*math.Pi/180 {
			t.Errorf("keys %d and %d are %g° apart (the long way?)", k-1, k, a*180/math.Pi)
		}
	}
	var outside, weights bool
	for _, w := range r.Warnings {
		outside = outside || strings.Contains(w, "animations[1]: channels 1 (Body) ignored: their nodes are outside the skeleton")
		weights = weights || strings.Contains(w, "animations[1]: channels 2 (weights) ignored")
	}
	if !outside || !weights {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// angle is the rotation angle between two unit quaternions, in radians,
// from the chord between them (acos of a float32 dot product cannot tell
// angles under about 1e-3 rad).
func angle(a, b mgl32.Quat) float64 {
	if a.Dot(b) < 0 {
		b = mgl32.Quat{W: -b.W, V: b.V.Mul(-1)}
	}
	d := [4]float64{float64(a.W - b.W), float64(a.V[0] - b.V[0]), float64(a.V[1] - b.V[1]), float64(a.V[2] - b.V[2])}
	c := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2] + d[3]*d[3])
	return 4 * math.Asin(min(c/2, 1))
}

// Normalized integer rotations read as the specification's formulas:
// SHORT (16384, 0, 0, 28377)/32767 = (0.50001526, 0, 0, 0.86602374),
// length 1.0000062, normalised (0.50001216, 0, 0, 0.86601838); BYTE
// (64, 0, 0, 110)/127, length 1.0020749, normalised (0.50289358, 0, 0,
// 0.86434834). The identity (0, 0, 0, 32767 or 127) is exact.
func TestAnimationNormalizedRotations(t *testing.T) {
	r := decodeBytes(t, fixtureGLB(t, VersionVRM1, animated(VersionVRM1, false)))
	a := &r.Animations[2]
	chest, neck := track(t, a, "chest").Rotations, track(t, a, "neck").Rotations
	for _, c := range []struct {
		name string
		got  mgl32.Quat
		want [4]float64
	}{
		{"SHORT", chest[0], [4]float64{0.50001216, 0, 0, 0.86601838}},
		{"BYTE", neck[0], [4]float64{0.50289358, 0, 0, 0.86434834}},
		{"SHORT identity", chest[30], [4]float64{0, 0, 0, 1}},
		{"BYTE identity", neck[30], [4]float64{0, 0, 0, 1}},
	} {
		if !keyRot(c.got, c.want, 2e-7) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	// The formulas at the ends of each range.
	for _, c := range []struct {
		b    []byte
		ct   int
		want float32
	}{
		{[]byte{0x80}, compByte, -1}, {[]byte{0x81}, compByte, -1}, {[]byte{0x7f}, compByte, 1},
		{[]byte{0xff}, compUbyte, 1}, {[]byte{0x00, 0x80}, compShort, -1}, {[]byte{0x01, 0x80}, compShort, -1},
		{[]byte{0xff, 0x7f}, compShort, 1}, {[]byte{0xff, 0xff}, compUshort, 1}, {[]byte{0x01, 0x00}, compShort, 1.0 / 32767},
	} {
		if got := component(c.b, c.ct); got != c.want {
			t.Errorf("%s %x: %g, want %g", compNames[c.ct], c.b, got, c.want)
		}
	}
}

// A 0.x file holds its nodes and keys turned half a turn about +Y; the
// loader turns the root bones' keys as it turns their rest pose, so every
// bone moves through the same model-space positions as in the 1.0 form.
func TestAnimationVRM0(t *testing.T) {
	h := float32(math.Sqrt(0.5))
	o := func() FixtureOptions {
		o := animated(VersionVRM1, false)
		o.Animations = append(o.Animations, FixtureAnimation{Name: "Root", Channels: []FixtureChannel{
			{Node: "Armature", Path: "rotation", Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, 0, h, 0, h}},
			{Node: "Armature", Path: "translation", Times: []float32{0, 1}, Values: []float32{0, 0, 0, 0.5, 0, 1}},
			{Node: "hips", Path: "rotation", Times: []float32{0, 1}, Values: quatXYZW(axisAngle(40, mgl32.Vec3{1, 1, 0}))},
		}})
		o.Animations[3].Channels[2].Values = append(o.Animations[3].Channels[2].Values, quatXYZW(axisAngle(-30, mgl32.Vec3{0, 0, 1}))...)
		return o
	}
	r1 := decodeBytes(t, fixtureGLB(t, VersionVRM1, o()))
	r0 := decodeBytes(t, fixtureGLB(t, VersionVRM0, o()))
	for ai := range r1.Animations {
		a1, a0 := &r1.Animations[ai], &r0.Animations[ai]
		if a1.KeyCount != a0.KeyCount || len(a1.Tracks) != len(a0.Tracks) {
			t.Fatalf("%s: the forms differ: %d/%d keys, %d/%d tracks", a1.Name, a1.KeyCount, a0.KeyCount, len(a1.Tracks), len(a0.Tracks))
		}
		for k := 0; k < a1.KeyCount; k += 5 {
			w1, w0 := worldPositions(r1, a1, k), worldPositions(r0, a0, k)
			for bone, p := range w1 {
				if mgl32.Vec3(p).Sub(w0[bone]).Len() > 1e-5 {
					t.Errorf("%s key %d: %s at %v in 1.0, %v in 0.x", a1.Name, k, bone, p, w0[bone])
				}
			}
		}
	}
	// The root's first keys are its rest pose in both forms.
	for _, r := range []*Rig{r1, r0} {
		tr := track(t, &r.Animations[3], "Armature")
		if rest := r.Skeleton.Bones[0]; !keyRot(tr.Rotations[0], [4]float64{float64(rest.Rot.V[0]), float64(rest.Rot.V[1]), float64(rest.Rot.V[2]), float64(rest.Rot.W)}, 1e-7) {
			t.Errorf("%s: the root's first key %v is not its rest %v", r.Version, tr.Rotations[0], rest.Rot)
		}
	}
}

// worldPositions composes the bones' local transforms at key k of a
// (the rest pose where a has no keys) into model-space positions.
func worldPositions(r *Rig, a *Animation, k int) map[string]mgl32.Vec3 {
	out := map[string]mgl32.Vec3{}
	for n, m := range worldMatrices(r, a, k) {
		out[n] = m.Col(3).Vec3()
	}
	return out
}

// worldMatrices composes the bones' local transforms at key k of a (the
// rest pose where a has no keys) into model-space transforms; bones are
// in node order (the first is nodes[0] unless the rig has a scene bone).
func worldMatrices(r *Rig, a *Animation, k int) map[string]mgl32.Mat4 {
	local := map[string]mgl32.Mat4{}
	parent := map[string]string{}
	for _, b := range r.Skeleton.Bones {
		pos, rot, scl := b.Pos, b.Rot, b.Scale
		for _, tr := range a.Tracks {
			if tr.Bone != b.Name {
				continue
			}
			if tr.Translations != nil {
				pos = tr.Translations[k]
			}
			if tr.Rotations != nil {
				rot = tr.Rotations[k]
			}
			if tr.Scales != nil {
				scl = tr.Scales[k]
			}
		}
		local[b.Name] = mgl32.Translate3D(pos[0], pos[1], pos[2]).Mul4(rot.Mat4()).Mul4(mgl32.Scale3D(scl[0], scl[1], scl[2]))
		parent[b.Name] = b.Parent
	}
	world := map[string]mgl32.Mat4{}
	var of func(string) mgl32.Mat4
	of = func(n string) mgl32.Mat4 {
		if m, ok := world[n]; ok {
			return m
		}
		m := local[n]
		if p := parent[n]; p != "" {
			m = of(p).Mul4(m)
		}
		world[n] = m
		return m
	}
	for n := range local {
		of(n)
	}
	return world
}

// Key times on a 24 keys/s grid resample at 48 keys/s, so that every
// file key is a grid key; keys at 240/s resample at MaxSampleRate; an
// animation of one key is a pose.
func TestSampleGrid(t *testing.T) {
	for _, c := range []struct {
		duration, dt float64
		rate         float32
		keys         int
	}{
		{1, 1.0 / 24, 48, 49},
		{2, float64(float32(1.0 / 30)), 30, 61},
		{1, 1.0 / 60, 60, 61},
		{1, 1.0 / 240, MaxSampleRate, 121},
		{2, 0.5, 30, 61},
		{1.01, 0.5, float32(31 / 1.01), 32}, // stretched so the last key is at the end
		{0, math.Inf(1), MinSampleRate, 1},
		{3, math.Inf(1), MinSampleRate, 91},
	} {
		rate, keys := sampleGrid(c.duration, c.dt)
		if rate != c.rate || keys != c.keys {
			t.Errorf("%g s, dt %g: %g keys/s, %d keys; want %g, %d", c.duration, c.dt, rate, keys, c.rate, c.keys)
		}
	}
	// Blender's 24 fps keys through the whole loader.
	times, values := make([]float32, 25), make([]float32, 75)
	for k := range times {
		times[k] = float32(k) / 24
		values[3*k], values[3*k+1] = float32(k*k)/100, 1
	}
	r := decodeBytes(t, fixtureGLB(t, VersionVRM1, FixtureOptions{Animations: []FixtureAnimation{{Channels: []FixtureChannel{{Node: "hips", Path: "translation", Times: times, Values: values}}}}}))
	a := &r.Animations[0]
	if a.Name != "animation0" || a.SampleRate != 48 || a.KeyCount != 49 {
		t.Fatalf("%q: %g keys/s, %d keys", a.Name, a.SampleRate, a.KeyCount)
	}
	for k := range times {
		if got := track(t, a, "hips").Translations[2*k]; got[0] != values[3*k] {
			t.Errorf("file key %d: %v, want x = %g", k, got, values[3*k])
		}
	}
}

// The error resampling brings against the exact curve: the resampled keys
// are played back as sway's sampler does (nlerp between keys, along the
// shorter arc) and compared with the specification's evaluation at 2000
// times per second.
func TestResampleError(t *testing.T) {
	q0, q1 := axisAngle(0, mgl32.Vec3{0, 1, 0}), axisAngle(90, mgl32.Vec3{0, 1, 0})
	w := float32(math.Pi / 4) // |dq/dt| of a turn at 90°/s
	tan := func(q mgl32.Quat, s float32) []float32 {
		// dq/dt for a turn about +Y at 90°/s: (π/4)·(0, cos θ/2, 0, -sin θ/2)
		return []float32{0, s * w * q.W, 0, -s * w * q.V[1]}
	}
	cubic := func(s float32) []float32 {
		v := append(tan(q0, s), quatXYZW(q0)...)
		v = append(v, tan(q0, s)...)
		v = append(v, tan(q1, s)...)
		v = append(v, quatXYZW(q1)...)
		return append(v, tan(q1, s)...)
	}
	for _, c := range []struct {
		name  string
		ch    FixtureChannel
		bound float64 // radians
	}{
		{"LINEAR 90°/s", FixtureChannel{Path: "rotation", Times: []float32{0, 1}, Values: append(quatXYZW(q0), quatXYZW(q1)...)}, 1e-5},
		{"CUBICSPLINE 90°/s tangents", FixtureChannel{Path: "rotation", Interpolation: "CUBICSPLINE", Times: []float32{0, 1}, Values: cubic(1)}, 1e-5},
		{"CUBICSPLINE ease (zero tangents)", FixtureChannel{Path: "rotation", Interpolation: "CUBICSPLINE", Times: []float32{0, 1}, Values: cubic(0)}, 1.5e-3},
		{"CUBICSPLINE 3×90°/s tangents", FixtureChannel{Path: "rotation", Interpolation: "CUBICSPLINE", Times: []float32{0, 1}, Values: cubic(3)}, 3e-3},
	} {
		c.ch.Node = "hairL0"
		glb := fixtureGLB(t, VersionVRM1, FixtureOptions{Animations: []FixtureAnimation{{Channels: []FixtureChannel{c.ch}}}})
		r := decodeBytes(t, glb)
		a := &r.Animations[0]
		keys := track(t, a, "hairL0").Rotations
		cv := &curve{times: c.ch.Times, values: c.ch.Values, comps: 4, interp: c.ch.Interpolation}
		if cv.interp == "" {
			cv.interp = interpLinear
		}
		worst := 0.0
		var exact [4]float64
		hint := 0
		for i := 0; i <= 2000; i++ {
			tc := float64(i) / 2000
			cv.at(tc, &hint, exact[:])
			x := float64(a.SampleRate) * tc
			k := min(int(x), a.KeyCount-2)
			played := nlerp(keys[k], keys[k+1], float32(x-float64(k)))
			e := mgl32.Quat{W: float32(exact[3]), V: mgl32.Vec3{float32(exact[0]), float32(exact[1]), float32(exact[2])}}
			worst = max(worst, angle(played, e))
		}
		t.Logf("%s at %g keys/s: max error %.3g rad (%.3g°)", c.name, a.SampleRate, worst, worst*180/math.Pi)
		if worst > c.bound {
			t.Errorf("%s: max error %g rad, bound %g", c.name, worst, c.bound)
		}
	}
}

// nlerp is sway's playback between two keys (systems/anim: nlerp along
// the shorter arc).
func nlerp(a, b mgl32.Quat, t float32) mgl32.Quat {
	if a.Dot(b) < 0 {
		b = mgl32.Quat{W: -b.W, V: b.V.Mul(-1)}
	}
	return mgl32.Quat{W: a.W + (b.W-a.W)*t, V: a.V.Add(b.V.Sub(a.V).Mul(t))}.Normalize()
}

// The same animations through a .gltf with a data: URI and with an
// external .bin next to it (Load); from a stream the external file cannot
// be read, and a URI leading out of the directory is refused.
func TestAnimationBuffers(t *testing.T) {
	glb := fixtureGLB(t, VersionVRM1, animated(VersionVRM1, true))
	want := decodeBytes(t, glb).Animations
	same := func(name string, got []Animation) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d animations", name, len(got))
		}
		for i := range got {
			if got[i].Name != want[i].Name || got[i].KeyCount != want[i].KeyCount || len(got[i].Tracks) != len(want[i].Tracks) {
				t.Errorf("%s: animation %d differs", name, i)
			}
			for k := range got[i].Tracks {
				g, w := got[i].Tracks[k], want[i].Tracks[k]
				for j := range g.Rotations {
					if g.Rotations[j] != w.Rotations[j] {
						t.Fatalf("%s: %s %s key %d differs", name, got[i].Name, g.Bone, j)
					}
				}
			}
		}
	}
	js, bin := toGLTF(t, glb, "")
	same("data: URI", decodeBytes(t, js).Animations)

	dir := t.TempDir()
	js, _ = toGLTF(t, glb, "keys%20and%20times.bin")
	write := func(name string, b []byte) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("keys and times.bin", bin)
	r, err := Load(write("avatar.gltf", js))
	if err != nil {
		t.Fatal(err)
	}
	same("external .bin", r.Animations)
	if r.Skeleton.Name != "avatar" {
		t.Errorf("skeleton named %q", r.Skeleton.Name)
	}
	for _, c := range []struct {
		uri, why string
		load     bool
	}{
		{"keys%20and%20times.bin", "from a stream", false},
		{"../keys.bin", "directory", true},
		{"/etc/keys.bin", "directory", true},
		{"https://example.com/keys.bin", "relative", true},
		{"missing.bin", "cannot open", true},
		{"data:application/octet-stream,abc", "base64", false},
		{"data:application/octet-stream;base64,@@@", "base64", false},
	} {
		js, _ := toGLTF(t, glb, c.uri)
		var err error
		if c.load {
			_, err = Load(write("bad.gltf", js))
		} else {
			_, err = Decode(bytes.NewReader(js))
		}
		if f := fieldOf(t, err); f != "buffers[0].uri" || !strings.Contains(err.Error(), c.why) {
			t.Errorf("uri %q: %v", c.uri, err)
		}
	}
}
