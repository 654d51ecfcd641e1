//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// The SSE kernels of accumulateRot (rot.go): addQuatsGo and nlerpAddGo
// for four bones at once, one bone per SSE lane, every operation in the
// Go code's order so that the results are the same bits (products and
// sums are commutative in IEEE arithmetic; the order of the sums is kept).
// Only SSE2 is used. The keys are read four at a time and turned into
// columns (w, x, y, z of the four bones); so are the four accumulator
// rotations, which go back as rows.

// SPLAT defines name as four float32 of the given bits.
#define SPLAT(name, bits) \
	DATA name<>+0(SB)/4, $bits; \
	DATA name<>+4(SB)/4, $bits; \
	DATA name<>+8(SB)/4, $bits; \
	DATA name<>+12(SB)/4, $bits; \
	GLOBL name<>(SB), RODATA|NOPTR, $16

SPLAT(sign, 0x80000000)
SPLAT(one, 0x3f800000)

// TRANSPOSE turns rows r0..r3 (lanes 0..3) into columns: afterwards r1,
// t1, r3, r2 hold element 0, 1, 2, 3 of every row. (The chain and spring
// packages' headers define the same; the assembler reads headers from a
// package's own directory only.)
#define TRANSPOSE(r0, r1, r2, r3, t0, t1) \
	MOVAPS   r0, t0; \
	UNPCKLPS r1, t0; \
	UNPCKHPS r1, r0; \
	MOVAPS   r2, t1; \
	UNPCKLPS r3, t1; \
	UNPCKHPS r3, r2; \
	MOVAPS   t0, r1; \
	MOVLHPS  t1, r1; \
	MOVHLPS  t0, t1; \
	MOVAPS   r0, r3; \
	MOVLHPS  r2, r3; \
	MOVHLPS  r0, r2

// QUATS loads the four quaternions at p (64 bytes, each W first) and
// turns them into columns: afterwards r1, t1, r3, r2 hold w, x, y, z.
#define QUATS(p, r0, r1, r2, r3, t0, t1) \
	MOVUPS 0(p), r0; \
	MOVUPS 16(p), r1; \
	MOVUPS 32(p), r2; \
	MOVUPS 48(p), r3; \
	TRANSPOSE(r0, r1, r2, r3, t0, t1)

// BONES sets R10..R13 to the addresses in acc (DI) of the four bones at SI.
#define BONES \
	MOVLQSX 0(SI), R10; \
	MOVLQSX 4(SI), R11; \
	MOVLQSX 8(SI), R12; \
	MOVLQSX 12(SI), R13; \
	SHLQ    $4, R10; \
	SHLQ    $4, R11; \
	SHLQ    $4, R12; \
	SHLQ    $4, R13; \
	ADDQ    DI, R10; \
	ADDQ    DI, R11; \
	ADDQ    DI, R12; \
	ADDQ    DI, R13

// ACCLOAD reads the four accumulator rotations (R10..R13) as columns:
// w X9, x X4, y X11, z X10 (X0 scratch).
#define ACCLOAD \
	MOVUPS (R10), X8; \
	MOVUPS (R11), X9; \
	MOVUPS (R12), X10; \
	MOVUPS (R13), X11; \
	TRANSPOSE(X8, X9, X10, X11, X0, X4)

// ACCSTORE writes the columns w X9, x X4, y X11, z X10 back as rows.
#define ACCSTORE \
	TRANSPOSE(X9, X4, X11, X10, X0, X6); \
	MOVUPS X4, (R10); \
	MOVUPS X6, (R11); \
	MOVUPS X10, (R12); \
	MOVUPS X11, (R13)

// SIDE sets s (X7) to -s where the accumulator (w X9, x X4, y X11, z X10)
// points away from q (X1, X5, X3, X2): r.W*qw+r.V[0]*qx+r.V[1]*qy+r.V[2]*qz < 0.
#define SIDE \
	MOVAPS X9, X0; MULPS X1, X0; \
	MOVAPS X4, X6; MULPS X5, X6; ADDPS X6, X0; \
	MOVAPS X11, X6; MULPS X3, X6; ADDPS X6, X0; \
	MOVAPS X10, X6; MULPS X2, X6; ADDPS X6, X0; \
	XORPS  X6, X6; \
	CMPPS  X6, X0, $1; \
	ANDPS  X15, X0; \
	XORPS  X0, X7

// ADDSCALED adds s (X7) times q (X1, X5, X3, X2) to the accumulator
// columns: r.W += s*qw, ...
#define ADDSCALED \
	MULPS X7, X1; ADDPS X1, X9; \
	MULPS X7, X5; ADDPS X5, X4; \
	MULPS X7, X3; ADDPS X3, X11; \
	MULPS X7, X2; ADDPS X2, X10

// func addQuats(acc *mgl32.Quat, bones *int32, k0 *mgl32.Quat, n int, w float32)
TEXT ·addQuats(SB), NOSPLIT, $0-36
	MOVQ   acc+0(FP), DI
	MOVQ   bones+8(FP), SI
	MOVQ   k0+16(FP), R8
	MOVQ   n+24(FP), CX
	SHRQ   $2, CX
	JZ     adddone
	MOVSS  w+32(FP), X14
	SHUFPS $0, X14, X14
	MOVUPS sign<>(SB), X15

addloop:
	// q: w X1, x X5, y X3, z X2.
	QUATS(R8, X0, X1, X2, X3, X4, X5)
	BONES
	ACCLOAD
	MOVAPS X14, X7
	SIDE
	ADDSCALED
	ACCSTORE
	ADDQ $16, SI
	ADDQ $64, R8
	DECQ CX
	JNZ  addloop

adddone:
	RET

// func nlerpAdd(acc *mgl32.Quat, bones *int32, k0, k1 *mgl32.Quat, n int, a, w float32)
TEXT ·nlerpAdd(SB), NOSPLIT, $0-48
	MOVQ   acc+0(FP), DI
	MOVQ   bones+8(FP), SI
	MOVQ   k0+16(FP), R8
	MOVQ   k1+24(FP), R9
	MOVQ   n+32(FP), CX
	SHRQ   $2, CX
	JZ     nlerpdone
	MOVSS  a+40(FP), X13
	SHUFPS $0, X13, X13
	MOVUPS one<>(SB), X12
	SUBPS  X13, X12            // a0 = 1-a
	MOVSS  w+44(FP), X14
	SHUFPS $0, X14, X14
	MOVUPS sign<>(SB), X15

nlerploop:
	// q0: w X1, x X5, y X3, z X2; q1: w X7, x X11, y X9, z X8.
	QUATS(R8, X0, X1, X2, X3, X4, X5)
	QUATS(R9, X6, X7, X8, X9, X10, X11)

	// a1 = a, or -a where q0.W*q1.W+q0.V[0]*q1.V[0]+q0.V[1]*q1.V[1]+q0.V[2]*q1.V[2] < 0.
	MOVAPS X1, X0; MULPS X7, X0
	MOVAPS X5, X4; MULPS X11, X4; ADDPS X4, X0
	MOVAPS X3, X4; MULPS X9, X4; ADDPS X4, X0
	MOVAPS X2, X4; MULPS X8, X4; ADDPS X4, X0
	XORPS  X4, X4
	CMPPS  X4, X0, $1
	ANDPS  X15, X0
	XORPS  X13, X0             // a1

	// q = a0*q0 + a1*q1: w X1, x X5, y X3, z X2.
	MULPS X12, X1; MULPS X0, X7; ADDPS X7, X1
	MULPS X12, X5; MULPS X0, X11; ADDPS X11, X5
	MULPS X12, X3; MULPS X0, X9; ADDPS X9, X3
	MULPS X12, X2; MULPS X0, X8; ADDPS X8, X2

	// s = w / sqrt(qw*qw+qx*qx+qy*qy+qz*qz).
	MOVAPS X1, X6; MULPS X1, X6
	MOVAPS X5, X7; MULPS X5, X7; ADDPS X7, X6
	MOVAPS X3, X7; MULPS X3, X7; ADDPS X7, X6
	MOVAPS X2, X7; MULPS X2, X7; ADDPS X7, X6
	SQRTPS X6, X6
	MOVAPS X14, X7
	DIVPS  X6, X7

	BONES
	ACCLOAD
	SIDE
	ADDSCALED
	ACCSTORE
	ADDQ $16, SI
	ADDQ $64, R8
	ADDQ $64, R9
	DECQ CX
	JNZ  nlerploop

nlerpdone:
	RET
