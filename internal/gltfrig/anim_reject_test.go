package gltfrig

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/anim"
)

// oneChannel is a fixture with one animation of one channel.
func oneChannel(node, path, interp string, times, values []float32) FixtureOptions {
	return FixtureOptions{Animations: []FixtureAnimation{{Name: "bad", Channels: []FixtureChannel{
		{Node: node, Path: path, Interpolation: interp, Times: times, Values: values}}}}}
}

// accessorOf returns the accessor index a JSON path of the file holds.
func accessorOf(t testing.TB, glb []byte, path string) int {
	t.Helper()
	js, _ := glbChunks(t, glb)
	var root any
	if err := json.Unmarshal(js, &root); err != nil {
		t.Fatal(err)
	}
	f, ok := getPath(t, root, path).(float64)
	if !ok {
		t.Fatalf("no number at %s", path)
	}
	return int(f)
}

// strided returns the first buffer view with a byteStride.
func strided(t testing.TB, glb []byte) int {
	t.Helper()
	js, _ := glbChunks(t, glb)
	var doc struct {
		BufferViews []struct {
			ByteStride int `json:"byteStride"`
		} `json:"bufferViews"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	for i, v := range doc.BufferViews {
		if v.ByteStride != 0 {
			return i
		}
	}
	t.Fatal("no interleaved buffer view")
	return -1
}

// Hostile animations and buffers are rejected with the JSON path of the
// bad value, allocating little whatever the counts and lengths claim.
func TestRejectAnimations(t *testing.T) {
	good := fixtureGLB(t, VersionVRM1, animated(VersionVRM1, false))
	inter := fixtureGLB(t, VersionVRM1, animated(VersionVRM1, true))
	nan := float32(math.NaN())
	hipsOut := accessorOf(t, good, "animations[0].samplers[0].output")
	hipsIn := accessorOf(t, good, "animations[0].samplers[0].input")
	rotOut := accessorOf(t, good, "animations[1].samplers[0].output")
	view := func(a int) int { return accessorOf(t, good, fmt.Sprintf("accessors[%d].bufferView", a)) }
	fix := func(o FixtureOptions) []byte { return fixtureGLB(t, VersionVRM1, o) }
	m := func(base []byte, path string, v any) []byte { return mutateBin(t, base, path, v, false) }
	lying := bytes.Clone(good)
	{ // a BIN chunk (and file) claiming 2 GB
		n := binary.LittleEndian.Uint32(lying[12:])
		binary.LittleEndian.PutUint32(lying[8:], 0x7fffffff)
		binary.LittleEndian.PutUint32(lying[20+n:], 0x7ffffff0)
	}
	const s0 = "animations[0].samplers[0]"
	cases := []struct {
		name  string
		glb   []byte
		field string
	}{
		{"times not increasing", fix(oneChannel("hips", "translation", "", []float32{0, 1, 1}, make([]float32, 9))), s0 + ".input"},
		{"times decreasing", fix(oneChannel("hips", "translation", "", []float32{0, 1, 0.5}, make([]float32, 9))), s0 + ".input"},
		{"NaN time", fix(oneChannel("hips", "translation", "", []float32{0, nan}, make([]float32, 6))), s0 + ".input"},
		{"infinite time", fix(oneChannel("hips", "translation", "", []float32{0, float32(math.Inf(1))}, make([]float32, 6))), s0 + ".input"},
		{"huge time", fix(oneChannel("hips", "translation", "", []float32{0, 1e6}, make([]float32, 6))), s0 + ".input"},
		{"negative time", fix(oneChannel("hips", "translation", "", []float32{-1, 0}, make([]float32, 6))), s0 + ".input"},
		{"one CUBICSPLINE key", fix(oneChannel("hips", "translation", "CUBICSPLINE", []float32{0}, make([]float32, 9))), s0 + ".input"},
		{"NaN value", fix(oneChannel("hips", "translation", "", []float32{0, 1}, []float32{0, 0, 0, 0, nan, 0})), s0 + ".output"},
		{"translation too far", fix(oneChannel("hips", "translation", "", []float32{0, 1}, []float32{0, 0, 0, 0, 2e4, 0})), s0 + ".output"},
		{"not a unit rotation", fix(oneChannel("hips", "rotation", "", []float32{0, 1}, []float32{0, 0, 0, 1, 0, 0, 0, 2})), s0 + ".output"},
		{"count that lies", m(good, fmt.Sprintf("accessors[%d].count", hipsOut), 1_000_000_000), fmt.Sprintf("accessors[%d].count", hipsOut)},
		{"count one past the view", m(good, fmt.Sprintf("accessors[%d].count", hipsOut), 4), fmt.Sprintf("accessors[%d].count", hipsOut)},
		{"output count not the input's", m(good, fmt.Sprintf("accessors[%d].count", hipsOut), 2), s0 + ".output"},
		{"CUBICSPLINE output not 3× the input", m(good, "animations[0].samplers[0].interpolation", "CUBICSPLINE"), "animations[0].samplers[0].output"},
		{"bad interpolation", m(good, "animations[0].samplers[1].interpolation", "SMOOTH"), "animations[0].samplers[1].interpolation"},
		{"lower-case interpolation", m(good, "animations[0].samplers[1].interpolation", "linear"), "animations[0].samplers[1].interpolation"},
		{"view past its buffer", m(good, fmt.Sprintf("bufferViews[%d].byteLength", view(hipsOut)), 1<<30), fmt.Sprintf("bufferViews[%d].byteLength", view(hipsOut))},
		{"view offset past its buffer", m(good, fmt.Sprintf("bufferViews[%d].byteOffset", view(hipsOut)), 1<<20), fmt.Sprintf("bufferViews[%d].byteOffset", view(hipsOut))},
		{"accessor offset past its view", m(good, fmt.Sprintf("accessors[%d].byteOffset", hipsOut), 4096), fmt.Sprintf("accessors[%d].byteOffset", hipsOut)},
		{"accessor offset misaligned", m(good, fmt.Sprintf("accessors[%d].byteOffset", hipsOut), 2), fmt.Sprintf("accessors[%d].byteOffset", hipsOut)},
		{"stride too small", m(inter, fmt.Sprintf("bufferViews[%d].byteStride", strided(t, inter)), 8), fmt.Sprintf("bufferViews[%d].byteStride", strided(t, inter))},
		{"stride not a multiple of 4", m(inter, fmt.Sprintf("bufferViews[%d].byteStride", strided(t, inter)), 26), fmt.Sprintf("bufferViews[%d].byteStride", strided(t, inter))},
		{"no such buffer", m(good, fmt.Sprintf("bufferViews[%d].buffer", view(hipsOut)), 3), fmt.Sprintf("bufferViews[%d].buffer", view(hipsOut))},
		{"buffer longer than the chunk", m(good, "buffers[0].byteLength", 1<<20), "buffers[0].byteLength"},
		{"no such accessor", m(good, s0+".input", 99), s0 + ".input"},
		{"input not FLOAT", m(m(good, fmt.Sprintf("accessors[%d].componentType", hipsIn), 5123), fmt.Sprintf("accessors[%d].normalized", hipsIn), true), fmt.Sprintf("accessors[%d].componentType", hipsIn)},
		{"integers not normalized", m(good, fmt.Sprintf("accessors[%d].componentType", hipsIn), 5123), fmt.Sprintf("accessors[%d].normalized", hipsIn)},
		{"unknown component type", m(good, fmt.Sprintf("accessors[%d].componentType", hipsIn), 5127), fmt.Sprintf("accessors[%d].componentType", hipsIn)},
		{"rotation as VEC3", m(good, fmt.Sprintf("accessors[%d].type", rotOut), "VEC3"), fmt.Sprintf("accessors[%d].type", rotOut)},
		{"sparse", m(good, fmt.Sprintf("accessors[%d].sparse", hipsOut), map[string]any{"count": 1}), fmt.Sprintf("accessors[%d].sparse", hipsOut)},
		{"no buffer view", mutateBin(t, good, fmt.Sprintf("accessors[%d].bufferView", hipsOut), nil, true), fmt.Sprintf("accessors[%d].bufferView", hipsOut)},
		{"node out of range", m(good, "animations[0].channels[0].target.node", 999), "animations[0].channels[0].target.node"},
		{"negative node", m(good, "animations[0].channels[0].target.node", -1), "animations[0].channels[0].target.node"},
		{"sampler out of range", m(good, "animations[0].channels[1].sampler", 7), "animations[0].channels[1].sampler"},
		{"unknown path", m(good, "animations[0].channels[0].target.path", "colour"), "animations[0].channels[0].target.path"},
		{"target twice", m(good, "animations[0].channels[2].target.node", 1), "animations[0].channels[2].target"}, // hips' translation again
		{"no channels", m(good, "animations[0].channels", []any{}), "animations[0].channels"},
		{"node as a string", m(good, "animations[0].channels[0].target.node", "hips"), "animations[0].channels[0].target.node"},
		{"no BIN chunk", mutate(t, good, "asset.generator", "x", false), "glb.chunks[1]"},
		{"truncated BIN chunk", good[:len(good)-8], "glb.chunks[1].chunkLength"},
		{"BIN chunk length that lies", lying, "glb.chunks[1].chunkLength"},
		{"uri from a stream", m(good, "buffers[0].uri", "keys.bin"), "buffers[0].uri"},
	}
	for _, c := range cases {
		var err error
		n := allocated(func() { _, err = Decode(bytes.NewReader(c.glb)) })
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if f := fieldOf(t, err); f != c.field {
			t.Errorf("%s: error names %q (%v), want %q", c.name, f, err, c.field)
		}
		if limit := uint64(1<<20 + 64*len(c.glb)); n > limit && !raceOn {
			t.Errorf("%s: %d bytes allocated for a file of %d", c.name, n, len(c.glb))
		}
	}
}

// A channel without a node (an extension's target) is ignored with a
// warning, as the specification says; the other channels are kept.
func TestAnimationChannelWithoutNode(t *testing.T) {
	glb := mutateBin(t, fixtureGLB(t, VersionVRM1, animated(VersionVRM1, false)), "animations[0].channels[1].target.node", nil, true)
	r := decodeBytes(t, glb)
	if a := &r.Animations[0]; len(a.Tracks) != 2 || a.Channels != 3 {
		t.Errorf("%d tracks of %d channels", len(a.Tracks), a.Channels)
	}
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "animations[0]: channels 1 ignored: they target no node") {
		t.Errorf("warnings %q", r.Warnings)
	}
}

// checkAnimations fails unless every animation is well formed and makes
// a clip sway accepts, bone names mapped to the skeleton's indices.
func checkAnimations(t *testing.T, r *Rig) int {
	t.Helper()
	s, err := rig.NewSkeleton(r.Skeleton)
	if err != nil {
		t.Fatal(err)
	}
	rest := map[string]mgl32.Quat{}
	for _, b := range r.Skeleton.Bones {
		rest[b.Name] = b.Rot
	}
	keys := 0
	for _, a := range r.Animations {
		if a.KeyCount < 1 || !(a.SampleRate > 0) || math.IsInf(float64(a.SampleRate), 0) || a.Duration < 0 {
			t.Fatalf("%s: %d keys at %g/s over %g s", a.Name, a.KeyCount, a.SampleRate, a.Duration)
		}
		if d := float32(a.KeyCount-1) / a.SampleRate; math.Abs(float64(d-a.Duration)) > 1e-3*float64(max(1, a.Duration)) {
			t.Fatalf("%s: %d keys at %g/s last %g s, not %g", a.Name, a.KeyCount, a.SampleRate, d, a.Duration)
		}
		desc := anim.ClipDesc{Name: a.Name, SampleRate: a.SampleRate, KeyCount: a.KeyCount, BoneCount: s.NumBones()}
		for _, tr := range a.Tracks {
			i := s.Index(tr.Bone)
			if i < 0 {
				t.Fatalf("%s: track of %q, not a bone", a.Name, tr.Bone)
			}
			td := anim.TrackDesc{Bone: i, Rotations: tr.Rotations, Translations: tr.Translations, Scales: tr.Scales}
			if td.Rotations == nil {
				td.Rotations = make([]mgl32.Quat, a.KeyCount)
				for k := range td.Rotations {
					td.Rotations[k] = rest[tr.Bone]
				}
			} else {
				keys += a.KeyCount
			}
			if tr.Translations != nil {
				keys += a.KeyCount
			}
			if tr.Scales != nil {
				keys += a.KeyCount
			}
			desc.Tracks = append(desc.Tracks, td)
		}
		if _, err := anim.NewClip(desc); err != nil {
			t.Fatalf("%s does not make a clip: %v", a.Name, err)
		}
	}
	if keys > MaxResampledKeys {
		t.Fatalf("%d resampled keys", keys)
	}
	return keys
}

// FuzzAnimations feeds the loader animated files: it must never panic,
// must return an error naming a path or animations that make clips, and
// must allocate at most a fixed amount, a bounded multiple of the input
// and a bounded amount per resampled key. Without -fuzz it runs its seeds
// only.
func FuzzAnimations(f *testing.F) {
	for _, v := range []Version{VersionVRM1, VersionVRM0} {
		for _, il := range []bool{false, true} {
			f.Add(fixtureGLB(f, v, animated(v, il)))
		}
	}
	glb := fixtureGLB(f, VersionVRM1, animated(VersionVRM1, true))
	js, _ := toGLTF(f, glb, "")
	f.Add(js)
	f.Add(mutateBin(f, glb, "animations[0].samplers[1].interpolation", "CUBICSPLINE", false))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r *Rig
		var err error
		n := allocated(func() { r, err = Decode(bytes.NewReader(data)) })
		if err != nil {
			fieldOrIO(t, err)
			if limit := uint64(1<<20 + 512*len(data) + 40*MaxResampledKeys); n > limit {
				t.Fatalf("%d bytes of input allocated %d bytes before a rejection", len(data), n)
			}
			return
		}
		checkRig(t, r)
		keys := checkAnimations(t, r)
		if limit := uint64(1<<20 + 512*len(data) + 48*keys); n > limit {
			t.Fatalf("%d bytes of input and %d resampled keys allocated %d bytes (limit %d)", len(data), keys, n, limit)
		}
	})
}
