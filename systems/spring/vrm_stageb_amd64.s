//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"
#include "vrm_simd_amd64.h"

// Stage B: stageB1 (vrm_fast.go) for four slots.

DATA one<>+0(SB)/4, $0x3f800000
DATA one<>+4(SB)/4, $0x3f800000
DATA one<>+8(SB)/4, $0x3f800000
DATA one<>+12(SB)/4, $0x3f800000
GLOBL one<>(SB), RODATA|NOPTR, $16

DATA h2min<>+0(SB)/4, $0x3e4ccccd // float32(0.2)
DATA h2min<>+4(SB)/4, $0x3e4ccccd
DATA h2min<>+8(SB)/4, $0x3e4ccccd
DATA h2min<>+12(SB)/4, $0x3e4ccccd
GLOBL h2min<>(SB), RODATA|NOPTR, $16

DATA sign<>+0(SB)/4, $0x80000000
DATA sign<>+4(SB)/4, $0x80000000
DATA sign<>+8(SB)/4, $0x80000000
DATA sign<>+12(SB)/4, $0x80000000
GLOBL sign<>(SB), RODATA|NOPTR, $16

// func stageB(q *quad, i int) bool
TEXT ·stageB(SB), NOSPLIT, $0-17
	MOVQ q+0(FP), DI
	SLOTS

	// h := rest.add(dir); decline unless h.dot(h) >= 0.2 in every slot
	MOVUPS quad_ax(DI), X0
	MOVUPS quad_ay(DI), X1
	MOVUPS quad_az(DI), X2
	MOVUPS quad_dx(DI), X3
	MOVUPS quad_dy(DI), X4
	MOVUPS quad_dz(DI), X5
	ADDPS  X0, X3
	ADDPS  X1, X4
	ADDPS  X2, X5 // h X3 X4 X5
	MOVAPS X3, X6
	MULPS  X3, X6
	MOVAPS X4, X7
	MULPS  X4, X7
	ADDPS  X7, X6
	MOVAPS X5, X7
	MULPS  X5, X7
	ADDPS  X7, X6
	MOVUPS h2min<>(SB), X7
	CMPPS  X6, X7, $2 // 0.2 <= h2
	MOVMSKPS X7, BX
	CMPL   BX, $15
	JNE    decline

	// inv := 1 / sqrt(h.dot(h)*rest.dot(rest))
	MOVAPS X0, X7
	MULPS  X0, X7
	MOVAPS X1, X8
	MULPS  X1, X8
	ADDPS  X8, X7
	MOVAPS X2, X8
	MULPS  X2, X8
	ADDPS  X8, X7
	MULPS  X7, X6
	SQRTPS X6, X6
	MOVUPS one<>(SB), X7
	DIVPS  X6, X7

	// r := rest.cross(h).scale(inv).q(rest.dot(h) * inv)
	MOVAPS X1, X8
	MULPS  X5, X8
	MOVAPS X2, X9
	MULPS  X4, X9
	SUBPS  X9, X8
	MULPS  X7, X8
	MOVAPS X2, X9
	MULPS  X3, X9
	MOVAPS X0, X10
	MULPS  X5, X10
	SUBPS  X10, X9
	MULPS  X7, X9
	MOVAPS X0, X10
	MULPS  X4, X10
	MOVAPS X1, X11
	MULPS  X3, X11
	SUBPS  X11, X10
	MULPS  X7, X10
	MULPS  X3, X0
	MULPS  X4, X1
	ADDPS  X1, X0
	MULPS  X5, X2
	ADDPS  X2, X0
	MULPS  X7, X0 // r: w X0, x X8, y X9, z X10

	// restRot := pr, or pr*lr (q4{pr.mulW(lr), pr.mulX(lr), ...}) in every slot unless
	// every slot's joint has the identity rest rotation (known for the
	// whole quad when every slot's chain has only such joints)
	CMPB quad_identAll(DI), $0
	JNE  ident
	JOINTPTR(0, R8)
	JOINTPTR(1, R9)
	JOINTPTR(2, R10)
	JOINTPTR(3, R11)
	MOVB vrmJoint_identRot(R8), BL
	ANDB vrmJoint_identRot(R9), BL
	ANDB vrmJoint_identRot(R10), BL
	ANDB vrmJoint_identRot(R11), BL
	JNE  ident
	MOVUPS X0, (quad_spill+0)(DI)
	MOVUPS X8, (quad_spill+16)(DI)
	MOVUPS X9, (quad_spill+32)(DI)
	MOVUPS X10, (quad_spill+48)(DI)
	MOVUPS vrmJoint_localRot(R8), X0
	MOVUPS vrmJoint_localRot(R9), X1
	MOVUPS vrmJoint_localRot(R10), X2
	MOVUPS vrmJoint_localRot(R11), X3
	TRANSPOSE(X0, X1, X2, X3, X4, X5) // lr: w X1, x X5, y X3, z X2
	MOVUPS quad_rw(DI), X6
	MOVUPS quad_rx(DI), X7
	MOVUPS quad_ry(DI), X8
	MOVUPS quad_rz(DI), X9
	QMUL(X6, X7, X8, X9, X1, X5, X3, X2, X10, X11, X12, X13, X0)
	MOVUPS (quad_spill+0)(DI), X0
	MOVUPS (quad_spill+16)(DI), X1
	MOVUPS (quad_spill+32)(DI), X2
	MOVUPS (quad_spill+48)(DI), X3
	JMP    turn

ident:
	MOVAPS X8, X1
	MOVAPS X9, X2
	MOVAPS X10, X3
	MOVUPS quad_rw(DI), X10
	MOVUPS quad_rx(DI), X11
	MOVUPS quad_ry(DI), X12
	MOVUPS quad_rz(DI), X13

turn:
	// world := r*restRot; r in X0-X3, restRot in X10-X13
	QMUL(X0, X1, X2, X3, X10, X11, X12, X13, X4, X5, X6, X7, X8) // world X4-X7

	// local := pr.conj() * world
	MOVUPS sign<>(SB), X8
	MOVUPS quad_rw(DI), X0
	MOVUPS quad_rx(DI), X1
	XORPS  X8, X1
	MOVUPS quad_ry(DI), X2
	XORPS  X8, X2
	MOVUPS quad_rz(DI), X3
	XORPS  X8, X3
	QMUL(X0, X1, X2, X3, X4, X5, X6, X7, X9, X10, X11, X12, X8) // local X9-X12
	MOVUPS X4, quad_rw(DI)
	MOVUPS X5, quad_rx(DI)
	MOVUPS X6, quad_ry(DI)
	MOVUPS X7, quad_rz(DI)

	// *dst = local.quat(): rows w, x, y, z
	MOVQ   CX, AX
	SHLQ   $4, AX // i*16
	TRANSPOSE(X9, X10, X11, X12, X13, X14) // slots 0-3: X10 X14 X12 X11
	CMPB quad_full(DI), $0
	JNE  dstfull
	STOREPTR(quad_dst, 0, R8)
	MOVUPS X10, (R8)
	STOREPTR(quad_dst, 1, R8)
	MOVUPS X14, (R8)
	STOREPTR(quad_dst, 2, R8)
	MOVUPS X12, (R8)
	STOREPTR(quad_dst, 3, R8)
	MOVUPS X11, (R8)
	JMP  dstdone

dstfull:
	STOREPTRFULL(quad_dst, 0, R8)
	MOVUPS X10, (R8)
	STOREPTRFULL(quad_dst, 1, R8)
	MOVUPS X14, (R8)
	STOREPTRFULL(quad_dst, 2, R8)
	MOVUPS X12, (R8)
	STOREPTRFULL(quad_dst, 3, R8)
	MOVUPS X11, (R8)

dstdone:

	// head = next; next in centre space: cr⁻¹.rot(next - cp)
	MOVUPS quad_nx(DI), X0
	MOVUPS quad_ny(DI), X1
	MOVUPS quad_nz(DI), X2
	MOVUPS X0, quad_hx(DI)
	MOVUPS X1, quad_hy(DI)
	MOVUPS X2, quad_hz(DI)
	CMPB   quad_centred(DI), $0
	JEQ    store
	MOVUPS quad_cpx(DI), X3
	SUBPS  X3, X0
	MOVUPS quad_cpy(DI), X3
	SUBPS  X3, X1
	MOVUPS quad_cpz(DI), X3
	SUBPS  X3, X2
	MOVUPS sign<>(SB), X7
	MOVUPS quad_crx(DI), X3
	XORPS  X7, X3
	MOVUPS quad_cry(DI), X4
	XORPS  X7, X4
	MOVUPS quad_crz(DI), X5
	XORPS  X7, X5
	MOVUPS quad_crw(DI), X6
	ROT(X3, X4, X5, X6, X0, X1, X2, X7, X8, X9, X10, X11)

store:
	// q.bad |= bits of next-next
	MOVAPS X0, X4
	SUBPS  X0, X4
	MOVAPS X1, X5
	SUBPS  X1, X5
	ORPS   X5, X4
	MOVAPS X2, X5
	SUBPS  X2, X5
	ORPS   X5, X4
	MOVUPS quad_bad(DI), X5
	ORPS   X5, X4
	MOVUPS X4, quad_bad(DI)

	// *cur = next.vec()
	LEAQ  (CX)(CX*2), AX
	SHLQ  $2, AX // i*12
	XORPS X3, X3
	TRANSPOSE(X0, X1, X2, X3, X4, X5) // slots 0-3: X1 X5 X3 X2
	CMPB quad_full(DI), $0
	JNE  curfull
	STOREPTR(quad_cur, 0, R8)
	STOREV3(X1, R8, X6)
	STOREPTR(quad_cur, 1, R8)
	STOREV3(X5, R8, X6)
	STOREPTR(quad_cur, 2, R8)
	STOREV3(X3, R8, X6)
	STOREPTR(quad_cur, 3, R8)
	STOREV3(X2, R8, X6)
	JMP  curdone

curfull:
	STOREPTRFULL(quad_cur, 0, R8)
	STOREV3(X1, R8, X6)
	STOREPTRFULL(quad_cur, 1, R8)
	STOREV3(X5, R8, X6)
	STOREPTRFULL(quad_cur, 2, R8)
	STOREV3(X3, R8, X6)
	STOREPTRFULL(quad_cur, 3, R8)
	STOREV3(X2, R8, X6)

curdone:
	MOVB $1, ret+16(FP)
	RET

decline:
	MOVB $0, ret+16(FP)
	RET
