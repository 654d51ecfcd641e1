//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"
#include "vrm_simd_amd64.h"

// Stage B: stageB1 (vrm_fast.go) for eight slots.

DATA one<>+0(SB)/4, $0x3f800000
GLOBL one<>(SB), RODATA|NOPTR, $4

DATA h2min<>+0(SB)/4, $0x3e4ccccd // float32(0.2)
GLOBL h2min<>(SB), RODATA|NOPTR, $4

DATA sign<>+0(SB)/4, $0x80000000
GLOBL sign<>(SB), RODATA|NOPTR, $4

// IDENT ANDs slot s's identRot into BL.
#define IDENT(s) \
	JOINTPTR(s, R8); \
	ANDB vrmJoint_identRot(R8), BL

// GATHERLR reads the rest rotations of slots s0..s3 into half h of the
// spill columns.
#define GATHERLR(s0, s1, s2, s3, h) \
	PTRS4(JOINTPTR, s0, s1, s2, s3); \
	ROWS4(vrmJoint_localRot); \
	COLS(X1, X5, X3, X2, SP_LRW, SP_LRX, SP_LRY, SP_LRZ, h)

// QUATOUT stores x to slot s's output rotation, TAILOUT x's first three
// elements to its current tail; P is as for SCATTERB.
#define QUATOUT(P, s, x) \
	P(quad_dst, s, R8); \
	MOVUPS x, (R8)

#define TAILOUT(P, s, x) \
	P(quad_cur, s, R8); \
	STOREV3(x, R8, X6)

// SCATTERB writes half h of the output columns to slots s0..s3: *dst =
// local.quat() (AX = i*16), then *cur = next.vec() (R14 = i*12). P is
// STOREPTR or STOREPTRFULL. Its tails are stage A's GATHERT in reverse.
#define SCATTERB(P, s0, s1, s2, s3, h) \
	MOVUPS (SP_OW+h)(DI), X9; \
	MOVUPS (SP_OX+h)(DI), X10; \
	MOVUPS (SP_OY+h)(DI), X11; \
	MOVUPS (SP_OZ+h)(DI), X12; \
	TRANSPOSE(X9, X10, X11, X12, X13, X14); \
	QUATOUT(P, s0, X10); \
	QUATOUT(P, s1, X14); \
	QUATOUT(P, s2, X12); \
	QUATOUT(P, s3, X11); \
	MOVUPS (SP_TX+h)(DI), X0; \
	MOVUPS (SP_TY+h)(DI), X1; \
	MOVUPS (SP_TZ+h)(DI), X2; \
	XORPS  X3, X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	XCHGQ  AX, R14; \
	TAILOUT(P, s0, X1); \
	TAILOUT(P, s1, X5); \
	TAILOUT(P, s2, X3); \
	TAILOUT(P, s3, X2); \
	XCHGQ  AX, R14

// func stageB(q *quad, i int) bool
TEXT ·stageB(SB), NOSPLIT, $0-17
	CMPB ·simdStages(SB), $0
	JEQ  scalar
	MOVQ q+0(FP), DI
	SLOTS

	// restRot := pr, or pr*lr (q4{pr.mulW(lr), pr.mulX(lr), ...}) in
	// every slot unless every slot's joint has the identity rest rotation
	// (known for the whole quad when every slot's chain has only such
	// joints). R14 is set when it is not.
	XORL R14, R14
	CMPB quad_identAll(DI), $0
	JNE  slotted
	MOVB $1, BL
	IDENT(0)
	IDENT(1)
	IDENT(2)
	IDENT(3)
	IDENT(4)
	IDENT(5)
	IDENT(6)
	IDENT(7)
	TESTB BL, BL
	JNE   slotted
	MOVL  $1, R14
	GATHERLR(0, 1, 2, 3, 0)
	GATHERLR(4, 5, 6, 7, 16)

slotted:
	// Everything read: from here on the eight slots in YMM registers.
	// h := rest.add(dir); decline unless h.dot(h) >= 0.2 in every slot
	VMOVUPS      quad_ax(DI), Y0
	VMOVUPS      quad_ay(DI), Y1
	VMOVUPS      quad_az(DI), Y2
	VMOVUPS      quad_dx(DI), Y3
	VMOVUPS      quad_dy(DI), Y4
	VMOVUPS      quad_dz(DI), Y5
	VADDPS       Y0, Y3, Y3
	VADDPS       Y1, Y4, Y4
	VADDPS       Y2, Y5, Y5 // h Y3 Y4 Y5
	VDOT3(Y3, Y4, Y5, Y3, Y4, Y5, Y6, Y7)
	VBROADCASTSS h2min<>(SB), Y7
	VCMPPS       $2, Y6, Y7, Y7 // 0.2 <= h2
	VMOVMSKPS    Y7, BX
	CMPL         BX, $0xff
	JNE          decline

	// inv := 1 / sqrt(h.dot(h)*rest.dot(rest))
	VDOT3(Y0, Y1, Y2, Y0, Y1, Y2, Y7, Y8)
	VMULPS       Y7, Y6, Y6
	VSQRTPS      Y6, Y6
	VBROADCASTSS one<>(SB), Y7
	VDIVPS       Y6, Y7, Y7

	// r := rest.cross(h).scale(inv).q(rest.dot(h) * inv)
	VMULPS Y5, Y1, Y8
	VMULPS Y4, Y2, Y9
	VSUBPS Y9, Y8, Y8
	VMULPS Y7, Y8, Y8
	VMULPS Y3, Y2, Y9
	VMULPS Y5, Y0, Y10
	VSUBPS Y10, Y9, Y9
	VMULPS Y7, Y9, Y9
	VMULPS Y4, Y0, Y10
	VMULPS Y3, Y1, Y11
	VSUBPS Y11, Y10, Y10
	VMULPS Y7, Y10, Y10
	VMULPS Y3, Y0, Y0
	VMULPS Y4, Y1, Y1
	VADDPS Y1, Y0, Y0
	VMULPS Y5, Y2, Y2
	VADDPS Y2, Y0, Y0
	VMULPS Y7, Y0, Y0 // r: w Y0, x Y8, y Y9, z Y10

	TESTL R14, R14
	JEQ   ident
	VMOVUPS Y0, (SP_RW)(DI)
	VMOVUPS Y8, (SP_RX)(DI)
	VMOVUPS Y9, (SP_RY)(DI)
	VMOVUPS Y10, (SP_RZ)(DI)
	VMOVUPS (SP_LRW)(DI), Y1
	VMOVUPS (SP_LRX)(DI), Y5
	VMOVUPS (SP_LRY)(DI), Y3
	VMOVUPS (SP_LRZ)(DI), Y2
	VMOVUPS quad_rw(DI), Y6
	VMOVUPS quad_rx(DI), Y7
	VMOVUPS quad_ry(DI), Y8
	VMOVUPS quad_rz(DI), Y9
	VQMUL(Y6, Y7, Y8, Y9, Y1, Y5, Y3, Y2, Y10, Y11, Y12, Y13, Y0)
	VMOVUPS (SP_RW)(DI), Y0
	VMOVUPS (SP_RX)(DI), Y1
	VMOVUPS (SP_RY)(DI), Y2
	VMOVUPS (SP_RZ)(DI), Y3
	JMP     turn

ident:
	VMOVAPS Y8, Y1
	VMOVAPS Y9, Y2
	VMOVAPS Y10, Y3
	VMOVUPS quad_rw(DI), Y10
	VMOVUPS quad_rx(DI), Y11
	VMOVUPS quad_ry(DI), Y12
	VMOVUPS quad_rz(DI), Y13

turn:
	// world := r*restRot; r in Y0-Y3, restRot in Y10-Y13
	VQMUL(Y0, Y1, Y2, Y3, Y10, Y11, Y12, Y13, Y4, Y5, Y6, Y7, Y8) // world Y4-Y7

	// local := pr.conj() * world
	VBROADCASTSS sign<>(SB), Y8
	VMOVUPS      quad_rw(DI), Y0
	VMOVUPS      quad_rx(DI), Y1
	VXORPS       Y8, Y1, Y1
	VMOVUPS      quad_ry(DI), Y2
	VXORPS       Y8, Y2, Y2
	VMOVUPS      quad_rz(DI), Y3
	VXORPS       Y8, Y3, Y3
	VQMUL(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y9, Y10, Y11, Y12, Y8) // local Y9-Y12
	VMOVUPS      Y4, quad_rw(DI)
	VMOVUPS      Y5, quad_rx(DI)
	VMOVUPS      Y6, quad_ry(DI)
	VMOVUPS      Y7, quad_rz(DI)
	VMOVUPS      Y9, (SP_OW)(DI)
	VMOVUPS      Y10, (SP_OX)(DI)
	VMOVUPS      Y11, (SP_OY)(DI)
	VMOVUPS      Y12, (SP_OZ)(DI)

	// head = next; next in centre space: cr⁻¹.rot(next - cp)
	VMOVUPS quad_nx(DI), Y0
	VMOVUPS quad_ny(DI), Y1
	VMOVUPS quad_nz(DI), Y2
	VMOVUPS Y0, quad_hx(DI)
	VMOVUPS Y1, quad_hy(DI)
	VMOVUPS Y2, quad_hz(DI)
	CMPB    quad_centred(DI), $0
	JEQ     store
	VMOVUPS quad_cpx(DI), Y3
	VSUBPS  Y3, Y0, Y0
	VMOVUPS quad_cpy(DI), Y3
	VSUBPS  Y3, Y1, Y1
	VMOVUPS quad_cpz(DI), Y3
	VSUBPS  Y3, Y2, Y2
	VBROADCASTSS sign<>(SB), Y7
	VMOVUPS quad_crx(DI), Y3
	VXORPS  Y7, Y3, Y3
	VMOVUPS quad_cry(DI), Y4
	VXORPS  Y7, Y4, Y4
	VMOVUPS quad_crz(DI), Y5
	VXORPS  Y7, Y5, Y5
	VMOVUPS quad_crw(DI), Y6
	VROT(Y3, Y4, Y5, Y6, Y0, Y1, Y2, Y7, Y8, Y9, Y10, Y11)

store:
	// q.bad |= bits of next-next
	VSUBPS  Y0, Y0, Y4
	VSUBPS  Y1, Y1, Y5
	VORPS   Y5, Y4, Y4
	VSUBPS  Y2, Y2, Y5
	VORPS   Y5, Y4, Y4
	VMOVUPS quad_bad(DI), Y5
	VORPS   Y5, Y4, Y4
	VMOVUPS Y4, quad_bad(DI)
	VMOVUPS Y0, (SP_TX)(DI)
	VMOVUPS Y1, (SP_TY)(DI)
	VMOVUPS Y2, (SP_TZ)(DI)
	VZEROUPPER

	// *dst = local.quat(); *cur = next.vec()
	MOVQ CX, AX
	SHLQ $4, AX // i*16
	LEAQ (CX)(CX*2), R14
	SHLQ $2, R14 // i*12
	CMPB quad_full(DI), $0
	JNE  full
	SCATTERB(STOREPTR, 0, 1, 2, 3, 0)
	SCATTERB(STOREPTR, 4, 5, 6, 7, 16)
	MOVB $1, ret+16(FP)
	RET

full:
	SCATTERB(STOREPTRFULL, 0, 1, 2, 3, 0)
	SCATTERB(STOREPTRFULL, 4, 5, 6, 7, 16)
	MOVB $1, ret+16(FP)
	RET

decline:
	VZEROUPPER
	MOVB $0, ret+16(FP)
	RET

scalar:
	JMP ·stageBScalar(SB)
