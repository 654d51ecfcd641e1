//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// applySimple: applyGo (plan_kernel.go) for plans of the simple shape,
// one quaternion per SSE register as (w, x, y, z). Every operation is the
// one applyGo performs, in the same order, so the results are the same
// bits; comments name the Go expression a block computes. Only SSE2 is
// used: every amd64 processor has it. Constants and sign masks are loaded
// with MOVUPS, which needs no alignment.

#define VEC4(name, v) \
	DATA name<>+0(SB)/4, $v; \
	DATA name<>+4(SB)/4, $v; \
	DATA name<>+8(SB)/4, $v; \
	DATA name<>+12(SB)/4, $v; \
	GLOBL name<>(SB), RODATA|NOPTR, $16

VEC4(halfdeg, 0x3c0efa35) // float32(math.Pi / 360)
VEC4(small, 0x3c23d70a)   // float32(0.01)
VEC4(c120, 0x3c088889)    // float32(1.0 / 120)
VEC4(cm6, 0xbe2aaaab)     // float32(-1.0 / 6)
VEC4(c24, 0x3d2aaaab)     // float32(1.0 / 24)
VEC4(cmhalf, 0xbf000000)  // -0.5
VEC4(one, 0x3f800000)     // 1
VEC4(neg, 0x80000000)     // the sign bit in every lane

DATA half<>+0(SB)/4, $0x3f000000 // 0.5
GLOBL half<>(SB), RODATA|NOPTR, $4
DATA onehalf<>+0(SB)/4, $0x3fc00000 // 1.5
GLOBL onehalf<>(SB), RODATA|NOPTR, $4

DATA ident<>+0(SB)/4, $0x3f800000 // the quaternion (1, 0, 0, 0)
DATA ident<>+4(SB)/4, $0
DATA ident<>+8(SB)/4, $0
DATA ident<>+12(SB)/4, $0
GLOBL ident<>(SB), RODATA|NOPTR, $16

// Sign masks, lanes (w, x, y, z): m = minus, p = plus.
#define MASK(name, a, b, c, d) \
	DATA name<>+0(SB)/4, $a; \
	DATA name<>+4(SB)/4, $b; \
	DATA name<>+8(SB)/4, $c; \
	DATA name<>+12(SB)/4, $d; \
	GLOBL name<>(SB), RODATA|NOPTR, $16

MASK(mpmp, 0x80000000, 0, 0x80000000, 0)
MASK(mppm, 0x80000000, 0, 0, 0x80000000)
MASK(mmpp, 0x80000000, 0x80000000, 0, 0)
MASK(pmpm, 0, 0x80000000, 0, 0x80000000)
MASK(pmmp, 0, 0x80000000, 0x80000000, 0)
MASK(ppmm, 0, 0, 0x80000000, 0x80000000)

// Shuffles of a quaternion's lanes (w, x, y, z).
#define XWZY $0xb1
#define YZWX $0x4e
#define ZYXW $0x1b

// TERM adds to acc the product of lane l of a (PSHUFD immediate l*0x55)
// and b shuffled by sh with signs m: acc += a.l * (±b.sh). t, u: scratch.
#define TERM(a, l, b, sh, m, acc, t, u) \
	PSHUFD sh, b, t; \
	MOVUPS m<>(SB), u; \
	XORPS  u, t; \
	PSHUFD l, a, u; \
	MULPS  u, t; \
	ADDPS  t, acc

// MUL sets acc to q4.mul: a*b, summed in the order of a's components.
#define MUL(a, b, acc, t, u) \
	PSHUFD $0x00, a, u; \
	MOVAPS b, acc; \
	MULPS  u, acc; \
	TERM(a, $0x55, b, XWZY, mpmp, acc, t, u); \
	TERM(a, $0xaa, b, YZWX, mppm, acc, t, u); \
	TERM(a, $0xff, b, ZYXW, mmpp, acc, t, u)

// CONJMUL sets acc to q4.conjMul: conj(a)*b.
#define CONJMUL(a, b, acc, t, u) \
	PSHUFD $0x00, a, u; \
	MOVAPS b, acc; \
	MULPS  u, acc; \
	TERM(a, $0x55, b, XWZY, pmpm, acc, t, u); \
	TERM(a, $0xaa, b, YZWX, pmmp, acc, t, u); \
	TERM(a, $0xff, b, ZYXW, ppmm, acc, t, u)

// RENORM is q4.renormalize on q:
// k := 1.5 - 0.5*(w*w + x*x + y*y + z*z); q *= k. t, u: scratch.
#define RENORM(q, t, u) \
	MOVAPS q, t; \
	MULPS  t, t; \
	PSHUFD $0x55, t, u; \
	ADDSS  u, t; \
	PSHUFD $0xaa, t, u; \
	ADDSS  u, t; \
	PSHUFD $0xff, t, u; \
	ADDSS  u, t; \
	MULSS  half<>(SB), t; \
	MOVSS  onehalf<>(SB), u; \
	SUBSS  t, u; \
	SHUFPS $0x00, u, u; \
	MULPS  u, q

// TURN sets dst to q*c + (q shuffled by sh, signs m)*s: a segment's turn
// in applyGo, or q4.turnLeft, for one axis (s, c broadcast). t, u: scratch.
#define TURN(q, sh, m, s, c, dst, t, u) \
	MOVAPS q, dst; \
	MULPS  c, dst; \
	PSHUFD sh, q, t; \
	MOVUPS m<>(SB), u; \
	XORPS  u, t; \
	MULPS  s, t; \
	ADDPS  t, dst

// func applySimple(p *Plan, a *[MaxSegments]float32, local *mgl32.Quat) bool
//
// Frame: sin at -160(SP), cos at -144(SP), turned (the segments' new local
// rotations) at -128(SP), old (their rotations before) at -64(SP).
TEXT ·applySimple(SB), NOSPLIT, $160-25
	MOVQ p+0(FP), DI
	MOVQ a+8(FP), DX
	MOVQ local+16(FP), R8

	// x := a * (math.Pi / 360); x2 := x * x
	MOVUPS (DX), X0
	MOVUPS halfdeg<>(SB), X1
	MULPS  X1, X0
	MOVAPS X0, X2
	MULPS  X0, X2

	// Decline unless x2 <= 0.01 for every segment in use.
	MOVUPS   small<>(SB), X1
	MOVAPS   X2, X3
	CMPPS    X1, X3, $2 // x2 <= 0.01
	MOVMSKPS X3, AX
	MOVBLZX  Plan_nsegs(DI), CX
	MOVL     $1, BX
	SHLL     CX, BX
	DECL     BX
	ANDL     BX, AX
	CMPL     AX, BX
	JNE      decline

	// sinCosSmall: s = x + (x*x2)*(-1/6 + x2*(1/120)),
	// c = 1 + x2*(-1/2 + x2*(1/24)).
	MOVAPS X2, X3
	MOVUPS c120<>(SB), X1
	MULPS  X1, X3
	MOVUPS cm6<>(SB), X1
	ADDPS  X1, X3
	MOVAPS X0, X4
	MULPS  X2, X4
	MULPS  X3, X4
	ADDPS  X0, X4 // s
	MOVAPS X2, X5
	MOVUPS c24<>(SB), X1
	MULPS  X1, X5
	MOVUPS cmhalf<>(SB), X1
	ADDPS  X1, X5
	MULPS  X2, X5
	MOVUPS one<>(SB), X1
	ADDPS  X1, X5 // c
	MOVUPS X4, sin-160(SP)
	MOVUPS X5, cos-144(SP)
	LEAQ   sin-160(SP), R11
	LEAQ   turned-128(SP), R12
	LEAQ   old-64(SP), SI

	// Segments k < nsegs, written out for k = 0..3: o := localRot[bones[k]];
	// old[k] = o; q := o * (c[k] + s[k]*axis), renormalised in Additive
	// mode; turned[k] = q; localRot[bones[k]] = q.
	CMPQ    CX, $0
	JLE     shoulders
	MOVLQSX Plan_bones+0(DI), R13
	SHLQ    $4, R13
	MOVUPS  (R8)(R13*1), X6
	MOVUPS  X6, old-64(SP)
	PSHUFD  $0x00, X4, X12
	PSHUFD  $0x00, X5, X13
	MOVBLZX Plan_segs+0+planSegment_axis(DI), AX
	CMPB    AX, $const_AxisX
	JEQ     seg0x
	CMPB    AX, $const_AxisY
	JEQ     seg0y
	TURN(X6, ZYXW, mpmp, X12, X13, X8, X7, X3)
	JMP     seg0t

seg0x:
	TURN(X6, XWZY, mppm, X12, X13, X8, X7, X3)
	JMP seg0t

seg0y:
	TURN(X6, YZWX, mmpp, X12, X13, X8, X7, X3)

seg0t:
	CMPB Plan_mode(DI), $const_Additive
	JNE  seg0s
	RENORM(X8, X3, X7)

seg0s:
	MOVUPS X8, (R8)(R13*1)
	MOVUPS X8, turned-128(SP)

	CMPQ    CX, $1
	JLE     shoulders
	MOVLQSX Plan_bones+4(DI), R13
	SHLQ    $4, R13
	MOVUPS  (R8)(R13*1), X6
	MOVUPS  X6, old-48(SP)
	PSHUFD  $0x55, X4, X12
	PSHUFD  $0x55, X5, X13
	MOVBLZX Plan_segs+2+planSegment_axis(DI), AX
	CMPB    AX, $const_AxisX
	JEQ     seg1x
	CMPB    AX, $const_AxisY
	JEQ     seg1y
	TURN(X6, ZYXW, mpmp, X12, X13, X8, X7, X3)
	JMP     seg1t

seg1x:
	TURN(X6, XWZY, mppm, X12, X13, X8, X7, X3)
	JMP seg1t

seg1y:
	TURN(X6, YZWX, mmpp, X12, X13, X8, X7, X3)

seg1t:
	CMPB Plan_mode(DI), $const_Additive
	JNE  seg1s
	RENORM(X8, X3, X7)

seg1s:
	MOVUPS X8, (R8)(R13*1)
	MOVUPS X8, turned-112(SP)

	CMPQ    CX, $2
	JLE     shoulders
	MOVLQSX Plan_bones+8(DI), R13
	SHLQ    $4, R13
	MOVUPS  (R8)(R13*1), X6
	MOVUPS  X6, old-32(SP)
	PSHUFD  $0xaa, X4, X12
	PSHUFD  $0xaa, X5, X13
	MOVBLZX Plan_segs+4+planSegment_axis(DI), AX
	CMPB    AX, $const_AxisX
	JEQ     seg2x
	CMPB    AX, $const_AxisY
	JEQ     seg2y
	TURN(X6, ZYXW, mpmp, X12, X13, X8, X7, X3)
	JMP     seg2t

seg2x:
	TURN(X6, XWZY, mppm, X12, X13, X8, X7, X3)
	JMP seg2t

seg2y:
	TURN(X6, YZWX, mmpp, X12, X13, X8, X7, X3)

seg2t:
	CMPB Plan_mode(DI), $const_Additive
	JNE  seg2s
	RENORM(X8, X3, X7)

seg2s:
	MOVUPS X8, (R8)(R13*1)
	MOVUPS X8, turned-96(SP)

	CMPQ    CX, $3
	JLE     shoulders
	MOVLQSX Plan_bones+12(DI), R13
	SHLQ    $4, R13
	MOVUPS  (R8)(R13*1), X6
	MOVUPS  X6, old-16(SP)
	PSHUFD  $0xff, X4, X12
	PSHUFD  $0xff, X5, X13
	MOVBLZX Plan_segs+6+planSegment_axis(DI), AX
	CMPB    AX, $const_AxisX
	JEQ     seg3x
	CMPB    AX, $const_AxisY
	JEQ     seg3y
	TURN(X6, ZYXW, mpmp, X12, X13, X8, X7, X3)
	JMP     seg3t

seg3x:
	TURN(X6, XWZY, mppm, X12, X13, X8, X7, X3)
	JMP seg3t

seg3y:
	TURN(X6, YZWX, mmpp, X12, X13, X8, X7, X3)

seg3t:
	CMPB Plan_mode(DI), $const_Additive
	JNE  seg3s
	RENORM(X8, X3, X7)

seg3s:
	MOVUPS X8, (R8)(R13*1)
	MOVUPS X8, turned-80(SP)

shoulders:
	// Shoulders j < nbones-nsegs: unless the shoulder reuses the one
	// before, m := rn.conjMul(r.turnLeft(axis[t], -s[t], c[t])), with
	// r = rn = identity when the parent is the top segment t, else
	// r = old[ps], rn = turned[ps] for the parent's segment ps. Then
	// l := &localRot[bones[nsegs+j]]; *l = m.mul(*l).renormalize().
	MOVBLZX Plan_nbones(DI), R10
	SUBQ    CX, R10
	XORQ    BX, BX

sh:
	CMPQ    BX, R10
	JGE     done
	LEAQ    Plan_shoulders(DI)(BX*8), R9
	CMPB    planShoulder_reuse(R9), $0
	JNE     shapply
	MOVBLZX planShoulder_topSeg(R9), AX
	MOVBQSX planShoulder_parentSeg(R9), R13
	MOVSS   (R11)(AX*4), X12
	SHUFPS  $0x00, X12, X12
	MOVUPS  neg<>(SB), X1
	XORPS   X1, X12 // -s[t]
	MOVSS   16(R11)(AX*4), X13
	SHUFPS  $0x00, X13, X13
	CMPQ    R13, AX
	JNE     shseg
	MOVUPS  ident<>(SB), X6 // r
	MOVAPS  X6, X9          // rn
	JMP     shturn

shseg:
	SHLQ   $4, R13
	MOVUPS (SI)(R13*1), X6  // r
	MOVUPS (R12)(R13*1), X9 // rn

shturn:
	MOVBLZX Plan_segs+planSegment_axis(DI)(AX*2), AX
	CMPB    AX, $const_AxisX
	JEQ     shx
	CMPB    AX, $const_AxisY
	JEQ     shy
	TURN(X6, ZYXW, mmpp, X12, X13, X8, X7, X3)
	JMP     shm

shx:
	TURN(X6, XWZY, mpmp, X12, X13, X8, X7, X3)
	JMP shm

shy:
	TURN(X6, YZWX, mppm, X12, X13, X8, X7, X3)

shm:
	CONJMUL(X9, X8, X14, X7, X3)

shapply:
	MOVQ    CX, R13
	ADDQ    BX, R13
	MOVLQSX Plan_bones(DI)(R13*4), AX
	SHLQ    $4, AX
	MOVUPS  (R8)(AX*1), X6
	MUL(X14, X6, X8, X7, X3)
	RENORM(X8, X3, X7)
	MOVUPS  X8, (R8)(AX*1)
	INCQ    BX
	JMP     sh

done:
	MOVB $1, ret+24(FP)
	RET

decline:
	MOVB $0, ret+24(FP)
	RET

// func prefetchBones(local *mgl32.Quat, bones *[maxBones]int32)
//
// PREFETCHT0 of local[bones[i]] for the six bones.
TEXT ·prefetchBones(SB), NOSPLIT, $0-16
	MOVQ       local+0(FP), AX
	MOVQ       bones+8(FP), BX
	MOVLQSX    0(BX), CX
	SHLQ       $4, CX
	PREFETCHT0 (AX)(CX*1)
	MOVLQSX    4(BX), CX
	SHLQ       $4, CX
	PREFETCHT0 (AX)(CX*1)
	MOVLQSX    8(BX), CX
	SHLQ       $4, CX
	PREFETCHT0 (AX)(CX*1)
	MOVLQSX    12(BX), CX
	SHLQ       $4, CX
	PREFETCHT0 (AX)(CX*1)
	MOVLQSX    16(BX), CX
	SHLQ       $4, CX
	PREFETCHT0 (AX)(CX*1)
	MOVLQSX    20(BX), CX
	SHLQ       $4, CX
	PREFETCHT0 (AX)(CX*1)
	RET
