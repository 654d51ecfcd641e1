package gltfrig

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// allocBudget is what one load may allocate in total, whatever the file:
// the worst files below measure 22-70 MB.
const allocBudget = 96 << 20

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// Files built to make decoding allocate as much as the limits let it stay
// within allocBudget: the most nodes, values, objects, joints and bytes.
func TestAllocationBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds files of up to 16 MB")
	}
	if raceOn {
		t.Skip("the race detector changes what is allocated")
	}
	h := `{"asset":{"version":"2.0"},`
	docs := map[string]string{
		"empty nodes":     h + `"nodes":[` + strings.Repeat("{},", MaxNodes-1) + `{}]}`,
		"too many nodes":  h + `"nodes":[` + strings.Repeat("{},", MaxJSONObjects-10) + `{}]}`,
		"number extras":   h + `"nodes":[{"extras":[` + strings.Repeat("0,", MaxJSONValues-20) + `0]}]}`,
		"array extras":    h + `"nodes":[{"extras":[` + strings.Repeat("[],", MaxJSONValues/2-20) + `0]}]}`,
		"string extras":   h + `"nodes":[{"extras":[` + strings.Repeat(`"",`, MaxJSONValues-20) + `0]}]}`,
		"children":        h + `"nodes":[{"children":[` + strings.Repeat("0,", MaxJSONValues-20) + `0]}]}`,
		"colliders":       h + `"nodes":[{}],"extensions":{"VRMC_springBone":{"specVersion":"1.0","colliders":[` + strings.Repeat(`{},`, MaxJSONObjects-10) + `{}]}}}`,
		"joints":          h + `"nodes":[{}],"extensions":{"VRMC_springBone":{"specVersion":"1.0","springs":[{"joints":[` + strings.Repeat(`{},`, MaxJSONObjects-10) + `{}]}]}}}`,
		"long name":       h + `"nodes":[{"name":"` + strings.Repeat("x", MaxJSONBytes-100) + `"}]}`,
		"0.x bone groups": h + `"nodes":[{}],"extensions":{"VRM":{"secondaryAnimation":{"boneGroups":[` + strings.Repeat(`{"bones":[0,0,0,0,0,0,0,0]},`, MaxSprings) + `{}]}}}}`,
	}
	for name, js := range docs {
		n := allocated(func() { _, _ = Decode(strings.NewReader(js)) })
		t.Logf("%-16s %8d B of JSON: %9d B allocated", name, len(js), n)
		if n > allocBudget {
			t.Errorf("%s: %d bytes allocated, more than %d", name, n, allocBudget)
		}
	}
}

// FuzzLoadGLB feeds the loader GLB bytes: it must never panic, must
// return a rig that builds or an error, and must allocate at most a fixed
// amount plus a bounded multiple of the input (the worst amplification a
// JSON construct reaches is an empty node: about 460 bytes per byte) plus
// a bounded amount per resampled animation key (at most
// MaxResampledKeys).
func FuzzLoadGLB(f *testing.F) {
	f.Add(encodeGLB(f, build1()))
	f.Add(encodeGLB(f, build0()))
	for _, c := range []struct {
		v Version
		o FixtureOptions
	}{
		{VersionVRM1, FixtureOptions{Pendulum: true, Bare: true,
			Colliders: []FixtureCollider{{Node: "Ball", Shape: collide.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 0, 1}), Fallback: true}},
			Limits:    []FixtureLimit{{Spring: "pendulum", Limit: spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: 30, YawDegrees: 12, Rotation: mgl32.QuatIdent()}}}}},
		{VersionVRM0, FixtureOptions{Pendulum: true, Branch: true}},
	} {
		glb, err := Fixture(c.v, c.o)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(glb)
	}
	f.Add(wrapGLB([]byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"matrix":[2,0,0,0,0,2,0,0,0,0,2,0,1,2,3,1]}]}`)))
	f.Add(wrapGLB([]byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"children":[0]}]}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r *Rig
		var err error
		n := allocated(func() { r, err = Decode(bytes.NewReader(data)) })
		if err != nil {
			// Before a rejection, resampling may have filled up to
			// MaxResampledKeys keys (a data: URI can hold animations).
			if limit := uint64(1<<20 + 512*len(data) + 40*MaxResampledKeys); n > limit {
				t.Fatalf("%d bytes of input allocated %d bytes (limit %d)", len(data), n, limit)
			}
			fieldOrIO(t, err)
			return
		}
		checkRig(t, r)
		keys := checkAnimations(t, r)
		if limit := uint64(1<<20 + 512*len(data) + 48*keys); n > limit {
			t.Fatalf("%d bytes of input and %d resampled keys allocated %d bytes (limit %d)", len(data), keys, n, limit)
		}
	})
}

// BenchmarkDecodeHumanoid loads the 1.0 test humanoid from GLB bytes.
func BenchmarkDecodeHumanoid(b *testing.B) {
	glb := encodeGLB(b, build1())
	b.SetBytes(int64(len(glb)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(glb)); err != nil {
			b.Fatal(err)
		}
	}
}

// Resampling stops at MaxResampledKeys: an animation of two keys an hour
// apart on every channel of every bone (15 bones, 45 channels of 108,001
// keys at 30 keys/s) is rejected within the allocation budget, naming the
// animation.
func TestResampleBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("resamples up to MaxResampledKeys keys")
	}
	if raceOn {
		t.Skip("the race detector changes what is allocated")
	}
	var chans []FixtureChannel
	bones := []string{"hips", "spine", "chest", "neck", "head", "leftEye", "rightEye"}
	for _, s := range []string{"L", "R"} {
		for k := 0; k < 4; k++ {
			bones = append(bones, "hair"+s+string(rune('0'+k)))
		}
	}
	for _, b := range bones {
		chans = append(chans,
			FixtureChannel{Node: b, Path: "translation", Times: []float32{0, MaxKeyTime}, Values: make([]float32, 6)},
			FixtureChannel{Node: b, Path: "rotation", Times: []float32{0, MaxKeyTime}, Values: []float32{0, 0, 0, 1, 0, 0, 0, 1}},
			FixtureChannel{Node: b, Path: "scale", Times: []float32{0, MaxKeyTime}, Values: []float32{1, 1, 1, 1, 1, 1}})
	}
	glb, err := Fixture(VersionVRM1, FixtureOptions{Animations: []FixtureAnimation{{Name: "long", Channels: chans}}})
	if err != nil {
		t.Fatal(err)
	}
	var derr error
	n := allocated(func() { _, derr = Decode(bytes.NewReader(glb)) })
	t.Logf("%d B file: %d B allocated: %v", len(glb), n, derr)
	if derr == nil || fieldOf(t, derr) != "animations[0]" {
		t.Errorf("accepted or misnamed: %v", derr)
	}
	if n > allocBudget {
		t.Errorf("%d bytes allocated, more than %d", n, allocBudget)
	}
}
