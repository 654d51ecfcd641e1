package snapio

import (
	"reflect"
	"slices"
	"testing"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/systems/anim"
	"github.com/sway-anim/sway/systems/breath"
	"github.com/sway-anim/sway/systems/chain"
	"github.com/sway-anim/sway/systems/lookat"
	"github.com/sway-anim/sway/systems/spring"
)

// Every field of the types that hold a world's state is either saved by a
// snapshot encoder (this package), set-up, or derived (written before
// every use in a frame; each encoder's comment says where). A field added
// to one of these types fails this test until it is classified here and,
// if it is state, saved: a snapshot that silently misses state would
// restore a world that drifts from the original.
func TestSnapshotCoversEveryField(t *testing.T) {
	for _, tc := range []struct {
		typ    any
		fields []string // saved, set-up and derived, in declaration order
	}{
		{components.Time{}, []string{"Dt", "Elapsed", "Frame"}},
		{components.Root{}, []string{"Transform"}},
		{components.Pose{}, []string{"Skeleton", "First", "Count", "DirtyLo", "DirtyHi", "SyncedRoot", "Faults"}},
		{rig.Pool{}, []string{"LocalPos", "LocalRot", "LocalScale", "WorldPos", "WorldRot", "WorldScale", "ranges"}},
		{components.Animation{}, []string{"Space", "Control", "Player", "Root"}},
		{anim.RootMotion{}, []string{"Mode", "Bone", "Started", "Delta"}},
		{anim.RootDelta{}, []string{"Pos", "Yaw"}},
		{components.Control{}, []string{"Paused", "Weight", "CullDistance"}},
		{components.View{}, []string{"Point"}},
		{components.Teleport{}, []string{"Distance", "AngleDegrees", "HalfCos"}},
		{anim.Player{}, []string{"Param", "Target", "Smoothing", "Phase", "Speed", "Direct", "Scratch"}},
		{components.Breath{}, []string{"State", "Plan", "Control", "DirtyHi"}},
		{breath.State{}, []string{"Phase", "Easing", "Duration", "Time", "Angle", "Prev", "Start", "Change"}},
		{components.LookAt{}, []string{"Head", "HeadState", "HeadBone", "Eyes", "EyeStates", "EyeBones", "EyesConverge",
			"Spine", "SpineShares", "NumSpine", "Target", "Control"}},
		{lookat.HeadState{}, []string{"Rotation", "Weight"}},
		{lookat.EyeState{}, []string{"Yaw", "Pitch"}},
		{components.Target{}, []string{"Point", "Entity", "Bone", "Lost"}},
		{components.IK{}, []string{"Limbs", "NumLimbs", "Control"}},
		{components.IKLimb{}, []string{"Upper", "Middle", "End", "Settings", "Target", "TargetRot", "UseTargetRot",
			"Hint", "HintSpace", "Reached"}},
		{components.Chains{}, []string{"First", "Count", "ColliderFirst", "ColliderCount", "Control", "Faults"}},
		{store.ChainStore{}, []string{"Chains", "Steps", "Links", "Syncs", "Particles", "Rest", "ColliderDescs", "ColliderBones", "Shapes",
			"chains", "particles", "colliders", "shapes"}},
		{chain.Chain{}, []string{"Colliders", "First", "N", "RestFirst", "pk", "axis", "sized", "perParticle",
			"variable", "steps", "covers", "move", "force", "animRoot", "reach", "h", "rootFrom", "prevH", "total",
			"Settings", "restRot", "acc", "objPos", "objRot", "scale", "weight", "t",
			"params", "rmax", "maxBone", "turnAngle", "turnCos", "packOK", "started", "off", "reset"}},
		{chain.Clock{}, []string{"Rate", "MaxSteps", "acc"}},
		// Set-up: the links between a character's chains (StepLinked's
		// scratch is the workers', written before every use).
		{chain.Linked{}, []string{"Settings", "Links"}},
		{chain.Particles{}, []string{"Bone", "Parent", "Children", "Local", "LocalRot", "Dist", "Pos", "Prev", "Collided"}},
		{components.VRMSprings{}, []string{"First", "Count", "ColliderFirst", "ColliderCount", "SetFirst", "SetCount",
			"LastBone", "LastRoot", "Started", "Control", "Teleport", "Faults"}},
		{components.SimpleSprings{}, []string{"First", "Count", "LastBone", "LastRoot", "Started", "Control", "Teleport", "Faults"}},
		{store.VRMPart{}, []string{"Geometry", "Springs", "Info", "States", "JointBone", "JointDesc", "Rot", "Prev", "Cur",
			"ColliderDescs", "ColliderBones", "Shapes", "SetIndex", "SetShapes", "springs", "joints", "colliders", "sets", "bound"}},
		{store.VRMSpringInfo{}, []string{"Joint0", "N", "Parent", "Center", "ColFirst", "ColCount", "InSet", "Depth", "Reset",
			"Spec", "HasTail", "Tail", "VirtualTail", "FixedStep", "Strict", "Acc", "Contiguous"}},
		{spring.VRMState{}, []string{"PrevTail", "CurTail"}},
		{store.SimplePart{}, []string{"Chains", "States", "Info", "JointBone", "JointDesc", "Anim", "Rot", "LastTip", "Velocity", "LastAnim",
			"chains", "joints", "bound"}},
		{store.SimpleSpringInfo{}, []string{"Joint0", "N", "Parent", "Center", "Reset"}},
		{spring.SimpleState{}, []string{"LastTip", "Velocity", "LastAnim"}},
	} {
		rt := reflect.TypeOf(tc.typ)
		var got []string
		for i := range rt.NumField() {
			got = append(got, rt.Field(i).Name)
		}
		if !slices.Equal(got, tc.fields) {
			t.Errorf("%v has fields %v; the snapshot encoders know %v: classify the new ones (saved, set-up or derived)",
				rt, got, tc.fields)
		}
	}
}
