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

// func applySimple(p *Plan, in *Rotations, a *[MaxSegments]float32, local *mgl32.Quat) bool
//
// Frame: sin at -96(SP), cos at -80(SP), turned (the segments' new local
// rotations) at -64(SP).
TEXT ·applySimple(SB), NOSPLIT, $96-33
	MOVQ p+0(FP), DI
	MOVQ in+8(FP), SI
	MOVQ a+16(FP), DX
	MOVQ local+24(FP), R8

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
	MOVUPS X4, sin-96(SP)
	MOVUPS X5, cos-80(SP)
	LEAQ   sin-96(SP), R11
	LEAQ   turned-64(SP), R12

	// Segments k < nsegs: q := in.q[k] * (c[k] + s[k]*axis), renormalised
	// in Additive mode; turned[k] = q; localRot[bones[k]] = q.
	XORQ BX, BX

seg:
	CMPQ    BX, CX
	JGE     shoulders
	MOVQ    BX, R9
	SHLQ    $4, R9
	MOVUPS  Rotations_q(SI)(R9*1), X6
	MOVSS   (R11)(BX*4), X12
	SHUFPS  $0x00, X12, X12
	MOVSS   16(R11)(BX*4), X13
	SHUFPS  $0x00, X13, X13
	MOVBLZX Plan_segs+planSegment_axis(DI)(BX*2), AX
	CMPB    AX, $const_AxisX
	JEQ     segx
	CMPB    AX, $const_AxisY
	JEQ     segy
	TURN(X6, ZYXW, mpmp, X12, X13, X8, X7, X3)
	JMP     segturned

segx:
	TURN(X6, XWZY, mppm, X12, X13, X8, X7, X3)
	JMP segturned

segy:
	TURN(X6, YZWX, mmpp, X12, X13, X8, X7, X3)

segturned:
	CMPB Plan_mode(DI), $const_Additive
	JNE  segstore
	RENORM(X8, X3, X7)

segstore:
	MOVLQSX Plan_bones(DI)(BX*4), AX
	SHLQ    $4, AX
	MOVUPS  X8, (R8)(AX*1)
	MOVUPS  X8, (R12)(R9*1)
	INCQ    BX
	JMP     seg

shoulders:
	// Shoulders j < nbones-nsegs: unless the shoulder reuses the one
	// before, m := rn.conjMul(r.turnLeft(axis[t], -s[t], c[t])), with
	// r = rn = identity when the parent is the top segment t, else
	// r = in.q[ps], rn = turned[ps] for the parent's segment ps. Then
	// localRot[bones[i]] = m.mul(in.q[i]).renormalize(), i = nsegs + j.
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
	MOVUPS Rotations_q(SI)(R13*1), X6 // r
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
	MOVQ    R13, R9
	SHLQ    $4, R9
	MOVUPS  Rotations_q(SI)(R9*1), X6
	MUL(X14, X6, X8, X7, X3)
	RENORM(X8, X3, X7)
	MOVLQSX Plan_bones(DI)(R13*4), AX
	SHLQ    $4, AX
	MOVUPS  X8, (R8)(AX*1)
	INCQ    BX
	JMP     sh

done:
	MOVB $1, ret+32(FP)
	RET

decline:
	MOVB $0, ret+32(FP)
	RET
