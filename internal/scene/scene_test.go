package scene

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestStressRigCounts(t *testing.T) {
	s, err := New(Config{Characters: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Skeleton.NumBones(); n != BonesPerChar || BonesPerChar != 85 {
		t.Fatalf("bones = %d, want 85", n)
	}
	for _, name := range []string{"hips", "head", "eye.L", "foot.R", "hair7.5", "ear.R.2", "tail.7", "earring.L"} {
		if s.Skeleton.Index(name) < 0 {
			t.Fatalf("bone %q missing", name)
		}
	}
}

func TestSceneIsDeterministic(t *testing.T) {
	a, _ := New(Config{Characters: 50, Seed: 7})
	b, _ := New(Config{Characters: 50, Seed: 7})
	c, _ := New(Config{Characters: 50, Seed: 8})
	for i := range a.Chars {
		if a.Chars[i] != b.Chars[i] {
			t.Fatalf("same seed, character %d differs", i)
		}
	}
	if a.Chars[3] == c.Chars[3] {
		t.Fatal("different seeds gave the same character")
	}
	// The root faces along its path: forward (+Z) matches the velocity.
	p0, p1 := a.RootAt(0, 1.0).Pos, a.RootAt(0, 1.001).Pos
	fwd := a.RootAt(0, 1.0).Rot.Rotate(mgl32.Vec3{0, 0, 1})
	if vel := p1.Sub(p0).Normalize(); vel.Dot(fwd) < 0.999 {
		t.Fatalf("root faces %v, moves %v", fwd, vel)
	}
}

func TestChainSpecsMakeSixtyTwoParticles(t *testing.T) {
	s, _ := New(Config{Characters: 3, Seed: 1})
	moving := 0
	for _, c := range ChainSpecs(rand.New(rand.NewSource(1))) {
		root := s.Skeleton.Index(c.Root)
		if root < 0 {
			t.Fatalf("chain root %q missing", c.Root)
		}
		// Bones below the root, plus one virtual end particle.
		moving += int(s.Skeleton.SubtreeEnd(root)) - root - 1 + 1
	}
	if moving != SecondaryBones {
		t.Fatalf("moving particles = %d, want 62", moving)
	}
}

func TestOnePercentTeleportEveryTenSeconds(t *testing.T) {
	s, _ := New(Config{Characters: 10000, Seed: 3})
	jumped := 0
	for i := range s.Chars {
		if s.Teleports(i, 9.99) != 0 {
			t.Fatalf("character %d teleported before 10 s", i)
		}
		if n := s.Teleports(i, 10); n == 1 {
			jumped++
			if d := s.RootAt(i, 10).Pos.Sub(s.RootAt(i, 9.999).Pos).Len(); d < 49 {
				t.Fatalf("teleport moved character %d by %.2f m", i, d)
			}
		}
	}
	if jumped < 70 || jumped > 130 { // 1% of 10,000, binomial spread
		t.Fatalf("%d of 10000 characters teleported at 10 s, want about 100", jumped)
	}
}
