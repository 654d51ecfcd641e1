package chain

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The lane kernels' memory layout, in one place.
//
// The AVX2 kernels (quad_amd64.s, quadapply_amd64.s) address the lanes'
// records through go_asm.h, which the Go toolchain writes from this
// package's declarations when it assembles the package: quad_part is the
// offset of quad.part, quadPart__size the size of a quadPart,
// packed_keepHit the offset of packed.keepHit, const_tKeep the value of
// tKeep. The assembly holds no offset of its own, so a field may be added
// to, moved in or removed from these structs and the assembly follows.
// What it cannot follow is the shape its SIMD code assumes, which the
// declarations below and TestKernelLayout check:
//
//	record                      shape the kernels assume
//	column                      [LaneCount]float32 (uint32 for a mask): colBytes,
//	                            one YMM register; the SSE copies move lanes 0..3
//	                            (its first 16 bytes) then lanes 4..7
//	quadPart, quatCols,         columns only, each named by go_asm.h
//	quadCol, boundCols, segCols
//	packed                      eight float32 in the order of the spill columns
//	                            tR..tInert: the step kernel reads a record as two
//	                            16-byte rows and transposes each into four columns
//	                            of quad.t
//	quad.pos, prev, hit;        LaneCount pointers (8 bytes: twice a float32, so
//	quadPoses; applyQuad's      lanes 4..7 start at twice their column offset, 2*16)
//	quad.pk, quad.ps            a slice header (sliceBytes) and an int (intBytes)
//	                            per lane
//	mgl32.Vec3, mgl32.Quat      vec3Bytes and quatBytes, a Quat W first: the rows of
//	                            the particles and poses
//	quad.t, applyQuad.t         spill columns, named by the constants below
//
// Changing the chain step is then a bounded job:
//
//  1. Change the scalar code (constrain, skipUpdate, integrator, turn) and
//     the lane definitions in Go (quadKernelGo, applyKernelGo, ...): the
//     same operations in the same order, every summed product converted
//     (float32(x*y), see the package doc).
//  2. go test -tags purego ./systems/chain: the lanes then run the Go
//     definitions, and the lane tests compare them with the scalar code
//     bit for bit.
//  3. Make the same change in quad_amd64.s or quadapply_amd64.s, whose
//     comments name the Go expression each block computes. go test
//     ./systems/chain then compares the AVX2 lanes with the scalar code,
//     and the copies and culling with their Go definitions. A new
//     per-particle parameter is a packed field and a spill column here;
//     the kernel's ROWS reads four at a time.
//  4. .ci/fused and GOAMD64=v3 go test ./systems/chain: no fused
//     multiply-add, the same bits as the default build (update
//     goldenFixed if the results change on purpose).
const (
	colBytes   = LaneCount * 4 // a column: one float32 per lane
	vec3Bytes  = 12            // mgl32.Vec3
	quatBytes  = 16            // mgl32.Quat
	ptrBytes   = 8             // a pointer on amd64, twice a float32
	intBytes   = 8             // an int on amd64
	sliceBytes = 24            // a slice header on amd64
)

// The spill columns of quad.t: the packed records of the lanes' particle,
// as columns, in the packed field order.
const (
	tR       = iota // packed.r
	tE              // packed.e
	tSK             // packed.sk
	tKeep           // packed.keep
	tKeepHit        // packed.keepHit
	tFS             // packed.fs
	tFSHit          // packed.fsHit
	tInert          // packed.inert
	tCols
)

// The spill columns of applyQuad.t (the names are turn's).
const (
	aT0 = iota // t = pi - pj
	aT1
	aT2
	aV0 // v = s ⊙ l
	aV1
	aV2
	aNL0 // the child's new local position
	aNL1
	aNL2
	aS0 // s, the parent bone's world scale
	aS1
	aS2
	aL0 // l, the child's animated local position
	aL1
	aL2
	aCW // C, the child's local rotation
	aCX
	aCY
	aCZ
	aLW // L, the parent's local rotation, then its new one
	aLX
	aLY
	aLZ
	aCols
)

// Each index below is a constant that must be 0: any other value fails to
// compile. The packed fields in the order of their spill columns, and the
// element sizes the assembly steps by (the amd64 ones in lanes_amd64.go).
var (
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.r)-4*tR]
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.e)-4*tE]
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.sk)-4*tSK]
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.keep)-4*tKeep]
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.keepHit)-4*tKeepHit]
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.fs)-4*tFS]
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.fsHit)-4*tFSHit]
	_ = [1]struct{}{}[unsafe.Offsetof(packed{}.inert)-4*tInert]
	_ = [1]struct{}{}[unsafe.Sizeof(packed{})-4*tCols]
	_ = [1]struct{}{}[unsafe.Sizeof(mgl32.Vec3{})-vec3Bytes]
	_ = [1]struct{}{}[unsafe.Sizeof(mgl32.Quat{})-quatBytes]
	_ = [1]struct{}{}[unsafe.Offsetof(mgl32.Quat{}.W)]
)
