package spring

import (
	"unsafe"

	"github.com/sway-anim/sway/systems/collide"
)

// The SIMD kernels (vrm_simd_amd64.s) load each of these groups of a
// vrmJoint as one 16-byte row: restAxis, stiffness | gravity, keep |
// force, length, hitRadius, reach | localRot. Each index below is a
// constant that must be 0: any other value fails to compile.
var (
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.stiffness)-unsafe.Offsetof(vrmJoint{}.restAxis)-12]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.keep)-unsafe.Offsetof(vrmJoint{}.gravity)-12]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.length)-unsafe.Offsetof(vrmJoint{}.force)-4]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.hitRadius)-unsafe.Offsetof(vrmJoint{}.force)-8]
	_ = [1]struct{}{}[unsafe.Offsetof(vrmJoint{}.reach)-unsafe.Offsetof(vrmJoint{}.force)-12]
	_ = [1]struct{}{}[unsafe.Sizeof(vrmJoint{}.localRot)-16]
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
