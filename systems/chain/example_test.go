package chain_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/chain"
)

// A three-bone tail sticking out sideways droops under a downward force.
// (Gravity would not do it here: the part of gravity the rest pose already
// hangs along is removed, and a chain at rest in its rest pose feels none.)
func Example() {
	skel := chain.Skeleton{
		Parent:    []int32{-1, 0, 1, 2},
		RestPos:   []mgl32.Vec3{{}, {0.3, 0, 0}, {0.3, 0, 0}, {0.3, 0, 0}},
		RestRot:   []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent()},
		RestScale: []mgl32.Vec3{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
	}
	s := chain.DefaultSettings()
	s.Force = mgl32.Vec3{0, -9.81, 0} // m/s²
	s.Elasticity, s.Stiffness = 0.02, 0

	var pool chain.Particles
	var c chain.Chain
	if err := chain.Build(&pool, &c, &skel, &chain.Desc{Root: 0, Settings: s}); err != nil {
		fmt.Println(err)
		return
	}
	n := len(skel.Parent)
	pose := chain.Pose{
		LocalPos: make([]mgl32.Vec3, n), LocalRot: make([]mgl32.Quat, n),
		WorldPos: make([]mgl32.Vec3, n), WorldRot: make([]mgl32.Quat, n), WorldScale: make([]mgl32.Vec3, n),
	}
	frame := chain.Frame{Dt: 1.0 / 60, ObjectRot: mgl32.QuatIdent(), ObjectScale: mgl32.Vec3{1, 1, 1}}
	p := c.Particles(&pool)
	for f := 0; f < 300; f++ {
		// The animation: the rest pose, then forward kinematics.
		copy(pose.LocalPos, skel.RestPos)
		copy(pose.LocalRot, skel.RestRot)
		fk(pose, skel.Parent)
		chain.Update(p, &c, pose, nil, &frame)
	}
	fk(pose, skel.Parent)
	tip := pose.WorldPos[3]
	fmt.Printf("tip dropped: %v, bone length kept: %.3f\n", tip[1] < -0.3, pose.WorldPos[3].Sub(pose.WorldPos[2]).Len())
	// Output: tip dropped: true, bone length kept: 0.300
}

// fk is forward kinematics for unit scale.
func fk(pose chain.Pose, parent []int32) {
	for i, pa := range parent {
		pose.WorldScale[i] = mgl32.Vec3{1, 1, 1}
		if pa < 0 {
			pose.WorldPos[i], pose.WorldRot[i] = pose.LocalPos[i], pose.LocalRot[i]
			continue
		}
		pose.WorldPos[i] = pose.WorldPos[pa].Add(mathx.Rotate(pose.WorldRot[pa], pose.LocalPos[i]))
		pose.WorldRot[i] = mathx.Mul(pose.WorldRot[pa], pose.LocalRot[i])
	}
}
