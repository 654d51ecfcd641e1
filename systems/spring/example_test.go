package spring_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/spring"
)

// A two-joint VRM spring sticking out sideways droops under gravity.
func Example() {
	joint := spring.VRMJointDesc{
		LocalRot:     mgl32.QuatIdent(),
		Stiffness:    0.5,
		GravityPower: 1,
		GravityDir:   mgl32.Vec3{0, -1, 0},
		DragForce:    0.4,
	}
	j1 := joint
	j1.LocalPos = mgl32.Vec3{0.1, 0, 0}
	chain, err := spring.NewVRMChain(&spring.VRMChainDesc{
		Joints:  []spring.VRMJointDesc{joint, j1},
		HasTail: true,
		Tail:    mgl32.Vec3{0.1, 0, 0},
	})
	if err != nil {
		panic(err)
	}
	state := chain.NewState()
	rot := make([]mgl32.Quat, chain.Len())
	pos, one := mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 1}
	spring.ResetVRM(&state, chain, pos, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	for range 60 {
		spring.StepVRM(rot, &state, chain, pos, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
	}
	tip := state.CurTail[1]
	fmt.Printf("tip below the root: %v, length kept: %.3f\n", tip[1] < 1, tip.Sub(state.CurTail[0]).Len())
	// Output: tip below the root: true, length kept: 0.100
}
