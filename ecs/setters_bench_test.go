package sway_test

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// BenchmarkGameSetters times the calls a game makes per character per
// frame: a look-at target, a blend parameter and an IK target.
func BenchmarkGameSetters(b *testing.B) {
	w, ents, sc := plainWorld(b, 1, 1)
	defer w.Close()
	if err := sc.AddProcedural(w, ents, 1); err != nil {
		b.Fatal(err)
	}
	space, err := sc.AddLocomotion(w)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Animation().Add(ents[0], space, sway.DefaultAnimSettings()); err != nil {
		b.Fatal(err)
	}
	e := ents[0]
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := mgl32.Vec3{float32(i % 7), 1.6, 1}
		_ = w.LookAt().Of(e).SetTarget(p)
		_ = w.Animation().Of(e).SetBlendParam(mgl32.Vec2{0.3, 0.4})
		_ = w.IK().Of(e).SetTarget(0, p)
	}
}
