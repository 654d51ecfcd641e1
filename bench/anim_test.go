package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// newAnimWorld builds a world of chars stress-rig characters playing the
// five locomotion clips, whose pipeline is just the animation system.
func newAnimWorld(b *testing.B, chars, workers int) (*sway.World, []arche.Entity, *scene.Scene) {
	b.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	p := &systems.Pipeline{}
	p.Add(systems.PhaseAnimation, "anim", systems.NewAnimation())
	w, err := sway.NewWorld(sway.Options{Workers: workers, Pipeline: p})
	if err != nil {
		b.Fatal(err)
	}
	space, err := sc.AddLocomotion(w)
	if err != nil {
		b.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range ents {
		if _, err := w.Animation().Add(e, space, sway.DefaultAnimSettings()); err != nil {
			b.Fatal(err)
		}
	}
	return w, ents, sc
}

// BenchmarkAnimation is the animation layer on the stress rig: each
// character's parameter goes round a circle inside the unit ring
// (scene.LocomotionParam), so three clips are active (two on the axes),
// sampled and blended over the 85 bones, 21 of them animated. ns/char is
// the system's own time.
func BenchmarkAnimation(b *testing.B) {
	for _, chars := range []int{100, 1000, 10000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("chars=%d/workers=%d", chars, workers), func(b *testing.B) {
				w, ents, sc := newAnimWorld(b, chars, workers)
				defer w.Close()
				anim := runLocomotion(b, w, ents, sc)
				b.ReportMetric(anim/float64(b.N*chars), "ns/char")
			})
		}
	}
}

// newFileAnimWorld is newAnimWorld with the clips loaded from a file: the
// stress rig and its locomotion clips written as a binary glTF
// (scene.LocomotionGLB), loaded with LoadRig, each character added with
// AddRig and each clip turned into a ClipDesc by Rig.Clip.
func newFileAnimWorld(b *testing.B, chars, workers int) (*sway.World, []arche.Entity, *scene.Scene) {
	b.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	glb, err := sc.LocomotionGLB()
	if err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(b.TempDir(), "locomotion.glb")
	if err := os.WriteFile(file, glb, 0o644); err != nil {
		b.Fatal(err)
	}
	r, err := sway.LoadRig(file)
	if err != nil {
		b.Fatal(err)
	}
	p := &systems.Pipeline{}
	p.Add(systems.PhaseAnimation, "anim", systems.NewAnimation())
	w, err := sway.NewWorld(sway.Options{Workers: workers, Pipeline: p})
	if err != nil {
		b.Fatal(err)
	}
	skel, err := w.RigSkeleton(r)
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]sway.ClipID, len(r.Animations))
	for i, h := range sc.LocomotionClips() {
		d, err := r.Clip(i, skel, h.Loop)
		if err != nil {
			b.Fatal(err)
		}
		if ids[i], err = w.AddClip(d); err != nil {
			b.Fatal(err)
		}
	}
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.BlendSimpleDirectional, Clips: ids, Positions: scene.LocomotionPositions()})
	if err != nil {
		b.Fatal(err)
	}
	ents := make([]arche.Entity, chars)
	for i := range ents {
		if ents[i], err = w.AddRig(r, sc.RootAt(i, 0)); err != nil {
			b.Fatal(err)
		}
		if _, err := w.Animation().Add(ents[i], space, sway.DefaultAnimSettings()); err != nil {
			b.Fatal(err)
		}
	}
	return w, ents, sc
}

// BenchmarkAnimationClipSource plays the locomotion blend at 10,000
// characters from hand-built clips (source=code) and from the same clips
// loaded from a glTF file (source=file): the sampler runs the same
// fixed-rate keys either way, so ns/bone should match.
func BenchmarkAnimationClipSource(b *testing.B) {
	for _, source := range []string{"code", "file"} {
		for _, workers := range []int{1, 2} {
			const chars = 10000
			b.Run(fmt.Sprintf("source=%s/chars=%d/workers=%d", source, chars, workers), func(b *testing.B) {
				build := newAnimWorld
				if source == "file" {
					build = newFileAnimWorld
				}
				w, ents, sc := build(b, chars, workers)
				defer w.Close()
				skel, err := w.Skeleton(ents[0])
				if err != nil {
					b.Fatal(err)
				}
				anim := runLocomotion(b, w, ents, sc)
				b.ReportMetric(anim/float64(b.N*chars), "ns/char")
				b.ReportMetric(anim/float64(b.N*chars*skel.NumBones()), "ns/bone")
			})
		}
	}
}

// runLocomotion steps b.N frames of the locomotion blend (each character's
// parameter on its circle, scene.LocomotionParam) after one warm-up frame
// and returns the animation system's time over them, in ns.
func runLocomotion(b *testing.B, w *sway.World, ents []arche.Entity, sc *scene.Scene) float64 {
	frame := func(f int) {
		t := float64(f) / 60
		for i, e := range ents {
			_ = w.Animation().Of(e).SetBlendParam(sc.LocomotionParam(i, t))
		}
		if err := w.Step(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
	frame(0) // warm up
	before := systemTime(w, "anim")
	b.ReportAllocs()
	settle()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame(i + 1)
	}
	return systemTime(w, "anim") - before
}
