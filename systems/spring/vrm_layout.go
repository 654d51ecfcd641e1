package spring

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// The SIMD kernels (vrm_stage[ab]_amd64.s) load each of these groups of a
// vrmJoint and a vrmSet as one 16-byte row: restAxis, length | localRot,
// and gravity, keep | stiffness, force, hitRadius. Each index below is a
// constant that must be 0: any other value fails to compile.
var (
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.restAxis)]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.length)-12]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.localRot)-16]
	_ = [1]struct{}{}[unsafe.Sizeof(vrmJoint{}.localRot)-16]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmSet{}.gravity)]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmSet{}.keep)-12]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmSet{}.stiffness)-16]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmSet{}.force)-20]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmSet{}.hitRadius)-24]
	_ = [1]struct{}{}[unsafe.Sizeof(vrmSet{})-32]
)

// touches reads collide.Shape at these offsets.
var (
	_ = [1]struct{}{}[unsafe.Offsetof(collide.Shape{}.Bound)-1]
	_ = [1]struct{}{}[unsafe.Offsetof(collide.Shape{}.A)-4]
	_ = [1]struct{}{}[unsafe.Offsetof(collide.Shape{}.B)-16]
	_ = [1]struct{}{}[unsafe.Offsetof(collide.Shape{}.RA)-28]
	_ = [1]struct{}{}[unsafe.Offsetof(collide.Shape{}.RB)-32]
	_ = [1]struct{}{}[unsafe.Offsetof(collide.Shape{}.N)-36]
	_ = [1]struct{}{}[unsafe.Sizeof(collide.Shape{})-48]
	_ = [1]struct{}{}[unsafe.Sizeof(collide.Kind(0))-1]
)

// hasCentre reads VRMSpring.CenterPos and CenterRot as seven words.
var (
	_ = [1]struct{}{}[unsafe.Offsetof(VRMSpring{}.CenterRot)-unsafe.Offsetof(VRMSpring{}.CenterPos)-12]
	_ = [1]struct{}{}[unsafe.Offsetof(mgl32.Quat{}.W)]
	_ = [1]struct{}{}[unsafe.Offsetof(mgl32.Quat{}.V)-4]
)
