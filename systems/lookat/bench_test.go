package lookat

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

type benchCharacter struct {
	head       HeadInput
	headState  HeadState
	eyes       [2]EyeInput
	eyeStates  [2]EyeState
	eyeLocalOf [2]mgl32.Vec3
}

// BenchmarkLookAtCharacter steps the head and both eyes of each character,
// eyes after the head with their parent rotation and origin recomputed.
func BenchmarkLookAtCharacter(b *testing.B) {
	h, err := NewHead(DefaultHeadSettings())
	if err != nil {
		b.Fatal(err)
	}
	right := DefaultEyeSettings()
	right.MinYawDegrees, right.MaxYawDegrees = -25, 35
	var eyes [2]Eye
	if eyes[0], err = NewEye(DefaultEyeSettings()); err != nil {
		b.Fatal(err)
	}
	if eyes[1], err = NewEye(right); err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 64, 1024} {
		b.Run(fmt.Sprintf("characters=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewSource(7))
			chars := make([]benchCharacter, n)
			for i := range chars {
				c := &chars[i]
				head := mgl32.Vec3{r.Float32() * 10, 1.6, r.Float32() * 10}
				c.head = HeadInput{ParentWorldRot: randUnitQuat(r), RestLocalRot: mgl32.QuatIdent(), HeadPos: head, TargetPos: head.Add(randDir(r).Mul(3)), Weight: 1}
				c.headState = NewHeadState(c.head.RestLocalRot)
				c.eyeLocalOf = [2]mgl32.Vec3{{0.03, 0.05, 0.08}, {-0.03, 0.05, 0.08}}
				for e := range c.eyes {
					c.eyes[e] = EyeInput{RestLocalRot: mgl32.QuatIdent(), TargetPos: c.head.TargetPos}
				}
			}
			var hp HeadPose
			var eye mgl32.Quat
			b.ReportAllocs()
			b.ResetTimer()
			for it := 0; it < b.N; it++ {
				for i := range chars {
					c := &chars[i]
					h.Step(&hp, &c.headState, &c.head, 1.0/60)
					for e := range c.eyes {
						in := &c.eyes[e]
						in.ParentWorldRot = hp.World
						in.Origin = c.head.HeadPos.Add(mathx.Rotate(hp.World, c.eyeLocalOf[e]))
						in.Weight = c.headState.Weight
						eyes[e].Step(&eye, &c.eyeStates[e], in, 1.0/60)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/character")
		})
	}
}

func BenchmarkHeadStep(b *testing.B) {
	h, _ := NewHead(DefaultHeadSettings())
	in := HeadInput{ParentWorldRot: yawQuat(20), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{3, 1, 2}, Weight: 1}
	st := NewHeadState(in.RestLocalRot)
	var hp HeadPose
	b.ReportAllocs()
	for it := 0; it < b.N; it++ {
		h.Step(&hp, &st, &in, 1.0/60)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/head")
}

func BenchmarkEyeStep(b *testing.B) {
	e, _ := NewEye(DefaultEyeSettings())
	in := EyeInput{ParentWorldRot: yawQuat(20), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{3, 1, 2}, Weight: 1}
	var st EyeState
	var q mgl32.Quat
	b.ReportAllocs()
	for it := 0; it < b.N; it++ {
		e.Step(&q, &st, &in, 1.0/60)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/eye")
}
