//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"
#include "go_asm.h"
#include "sse_amd64.h"

// The SSE kernel of Quad.ApplyIn: turn (apply.go) and the child's world
// rotation for the four lanes at once, one lane per SSE lane, every
// operation in the same order as the Go code so that the results are the
// same bits (products and sums are commutative in IEEE arithmetic; the
// order of the sums is kept, and 2*x is computed as x+x, which is exact
// too). Comments name the Go expression a block computes.

SPLAT(tiny, 0x179abe15)   // float32(1e-24)
SPLAT(huge, 0x7149f2ca)   // float32(1e30)
SPLAT(milli, 0x3a83126f)  // float32(1e-3)
SPLAT(nmilli, 0xba83126f) // float32(-1e-3)
SPLAT(one, 0x3f800000)
SPLAT(half, 0x3f000000)
SPLAT(sign, 0x80000000)

// Spill slots in applyQuad.t.
#define T_T0 (applyQuad_t+16*0)(DI)
#define T_T1 (applyQuad_t+16*1)(DI)
#define T_T2 (applyQuad_t+16*2)(DI)
#define T_V0 (applyQuad_t+16*3)(DI)
#define T_V1 (applyQuad_t+16*4)(DI)
#define T_V2 (applyQuad_t+16*5)(DI)
#define T_NL0 (applyQuad_t+16*6)(DI)
#define T_NL1 (applyQuad_t+16*7)(DI)
#define T_NL2 (applyQuad_t+16*8)(DI)

// LANEPTRS sets R8..R11 to the lanes' pointers at off in the applyQuad.
#define LANEPTRS(off) \
	MOVQ (off+0)(DI), R8; \
	MOVQ (off+8)(DI), R9; \
	MOVQ (off+16)(DI), R10; \
	MOVQ (off+24)(DI), R11

// TDIFF sets x to the lane's pi - pj, its particles i and j at p+AX and
// p+BX (X4 and X6 scratch).
#define TDIFF(p, x) \
	LOADV3I(p, AX, x, X6); \
	LOADV3I(p, BX, X4, X6); \
	SUBPS   X4, x

// QW, QX, QY and QZ set d to one element of the Hamilton product a b
// (qmul), with t scratch; QMUL sets dw..dz to all four.
#define QW(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	MOVAPS aw, d; MULPS bw, d; MOVAPS ax, t; MULPS bx, t; SUBPS t, d; \
	MOVAPS ay, t; MULPS by, t; SUBPS t, d; MOVAPS az, t; MULPS bz, t; SUBPS t, d

#define QX(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	MOVAPS aw, d; MULPS bx, d; MOVAPS ax, t; MULPS bw, t; ADDPS t, d; \
	MOVAPS ay, t; MULPS bz, t; ADDPS t, d; MOVAPS az, t; MULPS by, t; SUBPS t, d

#define QY(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	MOVAPS aw, d; MULPS by, d; MOVAPS ay, t; MULPS bw, t; ADDPS t, d; \
	MOVAPS az, t; MULPS bx, t; ADDPS t, d; MOVAPS ax, t; MULPS bz, t; SUBPS t, d

#define QZ(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	MOVAPS aw, d; MULPS bz, d; MOVAPS az, t; MULPS bw, t; ADDPS t, d; \
	MOVAPS ax, t; MULPS by, t; ADDPS t, d; MOVAPS ay, t; MULPS bx, t; SUBPS t, d

#define QMUL(aw, ax, ay, az, bw, bx, by, bz, dw, dx, dy, dz, t) \
	QW(aw, ax, ay, az, bw, bx, by, bz, dw, t); \
	QX(aw, ax, ay, az, bw, bx, by, bz, dx, t); \
	QY(aw, ax, ay, az, bw, bx, by, bz, dy, t); \
	QZ(aw, ax, ay, az, bw, bx, by, bz, dz, t)

// STOREQ and STOREV store the quaternion or vector x to p+i for lane s
// unless bit s of AX is set.
#define STOREQ(s, x, p, i, skip) \
	BTL    $s, AX; \
	JCS    skip; \
	MOVUPS x, (p)(i*1); \
skip:

#define STOREV(s, x, p, i, t, skip) \
	BTL $s, AX; \
	JCS skip; \
	STOREV3I(x, p, i, t); \
skip:

// func applyKernel(a *applyQuad, i, j, pb, b int, end *mgl32.Vec3) uint32
TEXT ·applyKernel(SB), NOSPLIT, $0-52
	MOVQ a+0(FP), DI
	MOVQ i+8(FP), AX
	MOVQ j+16(FP), BX
	MOVQ pb+24(FP), CX
	MOVQ b+32(FP), DX
	LEAQ (AX)(AX*2), AX
	SHLQ $2, AX         // i*12
	LEAQ (BX)(BX*2), BX
	SHLQ $2, BX         // j*12
	LEAQ (CX)(CX*2), R12
	SHLQ $2, R12        // pb*12
	MOVQ CX, R13
	SHLQ $4, R13        // pb*16
	LEAQ (DX)(DX*2), R14
	SHLQ $2, R14        // b*12
	SHLQ $4, DX         // b*16

	// t := pi - pj (T_T0..2), lb2 := t·t (X7).
	LANEPTRS(applyQuad_pos)
	TDIFF(R8, X0)
	TDIFF(R9, X1)
	TDIFF(R10, X2)
	TDIFF(R11, X3)
	TRANSPOSE(X0, X1, X2, X3, X4, X5)
	MOVUPS  X1, T_T0
	MOVUPS  X5, T_T1
	MOVUPS  X3, T_T2
	MOVAPS  X1, X7
	MULPS   X7, X7
	MULPS   X5, X5
	ADDPS   X5, X7
	MULPS   X3, X3
	ADDPS   X3, X7

	// v := s ⊙ l (X1, X5, X3), s = ws[pb] and l = lp[b] (X9, X13, X11).
	LANEPTRS(applyQuad_ws)
	LOADV3I(R8, R12, X0, X6)
	LOADV3I(R9, R12, X1, X6)
	LOADV3I(R10, R12, X2, X6)
	LOADV3I(R11, R12, X3, X6)
	TRANSPOSE(X0, X1, X2, X3, X4, X5)
	CMPQ    b+32(FP), $0
	JLT     endl
	LANEPTRS(applyQuad_lp)
	LOADV3I(R8, R14, X8, X6)
	LOADV3I(R9, R14, X9, X6)
	LOADV3I(R10, R14, X10, X6)
	LOADV3I(R11, R14, X11, X6)
	TRANSPOSE(X8, X9, X10, X11, X12, X13)
	JMP     havel

endl:
	// An end particle: l is its rest offset, the same in every lane.
	MOVQ   end+40(FP), SI
	MOVSS  (SI), X9
	SHUFPS $0, X9, X9
	MOVSS  4(SI), X13
	SHUFPS $0, X13, X13
	MOVSS  8(SI), X11
	SHUFPS $0, X11, X11

havel:
	MULPS   X9, X1
	MULPS   X13, X5
	MULPS   X11, X3
	MOVUPS  X1, T_V0
	MOVUPS  X5, T_V1
	MOVUPS  X3, T_V2

	// la2 := v·v; m2 := la2*lb2; m := sqrt32(m2) (X2).
	MOVAPS X1, X0
	MULPS  X0, X0
	MULPS  X5, X5
	ADDPS  X5, X0
	MULPS  X3, X3
	ADDPS  X3, X0
	MULPS  X7, X0
	SQRTPS X0, X2

	// lp[b] = l*(lb2/m) (T_NL0..2).
	DIVPS  X2, X7
	MULPS  X7, X9
	MULPS  X7, X13
	MULPS  X7, X11
	MOVUPS X9, T_NL0
	MOVUPS X13, T_NL1
	MOVUPS X11, T_NL2

	// ok (X4) := m2 > 1e-24 && m2 < 1e30.
	MOVUPS tiny<>(SB), X4
	CMPPS  X0, X4, $1
	MOVUPS huge<>(SB), X6
	CMPPS  X6, X0, $1
	ANDPS  X0, X4

	// w := rot[pb], the columns of particle j (X8..X11), and -w.V
	// (X12..X14).
	MOVQ   j+16(FP), BX
	SHLQ   $6, BX
	ADDQ   DI, BX
	MOVUPS (applyQuad_w+quatCols_w)(BX), X8
	MOVUPS (applyQuad_w+quatCols_x)(BX), X9
	MOVUPS (applyQuad_w+quatCols_y)(BX), X10
	MOVUPS (applyQuad_w+quatCols_z)(BX), X11
	MOVUPS sign<>(SB), X0
	MOVAPS X9, X12
	XORPS  X0, X12
	MOVAPS X10, X13
	XORPS  X0, X13
	MOVAPS X11, X14
	XORPS  X0, X14

	// u := rotate(ww, -wx, -wy, -wz, t) (X1, X6, X7): with x, y, z the
	// negated ones, T = 2 (y t2 - z t1, z t0 - x t2, x t1 - y t0) (X0, X3,
	// X5); u = t + w T + (y T2 - z T1, z T0 - x T2, x T1 - y T0).
	MOVUPS T_T0, X6
	MOVUPS T_T1, X7
	MOVUPS T_T2, X15
	MOVAPS X13, X0
	MULPS  X15, X0
	MOVAPS X14, X1
	MULPS  X7, X1
	SUBPS  X1, X0
	ADDPS  X0, X0
	MOVAPS X14, X3
	MULPS  X6, X3
	MOVAPS X12, X1
	MULPS  X15, X1
	SUBPS  X1, X3
	ADDPS  X3, X3
	MOVAPS X12, X5
	MULPS  X7, X5
	MOVAPS X13, X1
	MULPS  X6, X1
	SUBPS  X1, X5
	ADDPS  X5, X5
	MOVAPS X8, X1
	MULPS  X0, X1
	ADDPS  X6, X1
	MOVAPS X13, X6
	MULPS  X5, X6
	ADDPS  X6, X1
	MOVAPS X14, X6
	MULPS  X3, X6
	SUBPS  X6, X1
	MOVAPS X8, X6
	MULPS  X3, X6
	ADDPS  X7, X6
	MOVAPS X14, X7
	MULPS  X0, X7
	ADDPS  X7, X6
	MOVAPS X12, X7
	MULPS  X5, X7
	SUBPS  X7, X6
	MOVAPS X8, X7
	MULPS  X5, X7
	ADDPS  X15, X7
	MOVAPS X12, X15
	MULPS  X3, X15
	ADDPS  X15, X7
	MOVAPS X13, X15
	MULPS  X0, X15
	SUBPS  X15, X7

	// hw := m + v·u (X0); ok = ok && hw > 1e-3*m.
	MOVUPS T_V0, X3
	MOVUPS T_V1, X5
	MOVUPS T_V2, X12
	MOVAPS X3, X0
	MULPS  X1, X0
	ADDPS  X2, X0
	MOVAPS X5, X13
	MULPS  X6, X13
	ADDPS  X13, X0
	MOVAPS X12, X13
	MULPS  X7, X13
	ADDPS  X13, X0
	MOVUPS milli<>(SB), X13
	MULPS  X2, X13
	CMPPS  X0, X13, $1
	ANDPS  X13, X4

	// c := v × u (X2, X13, X3).
	MOVAPS X5, X2
	MULPS  X7, X2
	MOVAPS X12, X13
	MULPS  X6, X13
	SUBPS  X13, X2
	MOVAPS X12, X13
	MULPS  X1, X13
	MOVAPS X3, X14
	MULPS  X7, X14
	SUBPS  X14, X13
	MULPS  X6, X3
	MULPS  X1, X5
	SUBPS  X5, X3

	// k := 1/sqrt32(hw² + c·c); r := (hw, c)*k (X0, X2, X13, X3).
	MOVAPS X0, X1
	MULPS  X1, X1
	MOVAPS X2, X5
	MULPS  X5, X5
	ADDPS  X5, X1
	MOVAPS X13, X5
	MULPS  X5, X5
	ADDPS  X5, X1
	MOVAPS X3, X5
	MULPS  X5, X5
	ADDPS  X5, X1
	SQRTPS X1, X1
	MOVUPS one<>(SB), X5
	DIVPS  X1, X5
	MULPS  X5, X0
	MULPS  X5, X2
	MULPS  X5, X13
	MULPS  X5, X3

	// n := w r (X1, X6, X7, X12), the parent's new world rotation, into
	// its turned columns (BX: particle j's).
	QMUL(X8, X9, X10, X11, X0, X2, X13, X3, X1, X6, X7, X12, X5)
	MOVUPS X1, (applyQuad_turned+quatCols_w)(BX)
	MOVUPS X6, (applyQuad_turned+quatCols_x)(BX)
	MOVUPS X7, (applyQuad_turned+quatCols_y)(BX)
	MOVUPS X12, (applyQuad_turned+quatCols_z)(BX)

	// rot[b] := n C, C = lr[b]: the columns of particle i (none for an
	// end particle).
	LANEPTRS(applyQuad_lr)
	CMPQ   b+32(FP), $0
	JLT    turnl
	MOVUPS (R8)(DX*1), X8
	MOVUPS (R9)(DX*1), X9
	MOVUPS (R10)(DX*1), X10
	MOVUPS (R11)(DX*1), X11
	TRANSPOSE(X8, X9, X10, X11, X14, X15)
	MOVQ   i+8(FP), BX
	SHLQ   $6, BX
	ADDQ   DI, BX
	QW(X1, X6, X7, X12, X9, X15, X11, X10, X8, X5)
	MOVUPS X8, (applyQuad_w+quatCols_w)(BX)
	QX(X1, X6, X7, X12, X9, X15, X11, X10, X8, X5)
	MOVUPS X8, (applyQuad_w+quatCols_x)(BX)
	QY(X1, X6, X7, X12, X9, X15, X11, X10, X8, X5)
	MOVUPS X8, (applyQuad_w+quatCols_y)(BX)
	QZ(X1, X6, X7, X12, X9, X15, X11, X10, X8, X5)
	MOVUPS X8, (applyQuad_w+quatCols_z)(BX)

turnl:

	// q := L r, L = lr[pb] (X1, X6, X7, X12).
	MOVUPS (R8)(R13*1), X8
	MOVUPS (R9)(R13*1), X9
	MOVUPS (R10)(R13*1), X10
	MOVUPS (R11)(R13*1), X11
	TRANSPOSE(X8, X9, X10, X11, X14, X15)
	QMUL(X9, X15, X11, X10, X0, X2, X13, X3, X1, X6, X7, X12, X5)

	// d := q·q - 1; ok = ok && d < 1e-3 && d > -1e-3; L' := q*(1 - 0.5*d).
	MOVAPS X1, X8
	MULPS  X8, X8
	MOVAPS X6, X5
	MULPS  X5, X5
	ADDPS  X5, X8
	MOVAPS X7, X5
	MULPS  X5, X5
	ADDPS  X5, X8
	MOVAPS X12, X5
	MULPS  X5, X5
	ADDPS  X5, X8
	MOVUPS one<>(SB), X5
	SUBPS  X5, X8
	MOVAPS X8, X14
	MOVUPS milli<>(SB), X5
	CMPPS  X5, X14, $1
	MOVUPS nmilli<>(SB), X5
	CMPPS  X8, X5, $1
	ANDPS  X5, X14
	ANDPS  X14, X4
	MOVUPS half<>(SB), X5
	MULPS  X8, X5
	MOVUPS one<>(SB), X14
	SUBPS  X5, X14
	MULPS  X14, X1
	MULPS  X14, X6
	MULPS  X14, X7
	MULPS  X14, X12

	// The lanes left to turn (AX), and the others' results into the pose.
	MOVMSKPS X4, AX
	XORL     $15, AX
	MOVL     AX, ret+48(FP)
	TRANSPOSE(X1, X6, X7, X12, X5, X14)
	STOREQ(0, X6, R8, R13, lr0)
	STOREQ(1, X14, R9, R13, lr1)
	STOREQ(2, X12, R10, R13, lr2)
	STOREQ(3, X7, R11, R13, lr3)
	CMPQ   b+32(FP), $0
	JLT    done
	MOVUPS T_NL0, X8
	MOVUPS T_NL1, X9
	MOVUPS T_NL2, X10
	XORPS  X11, X11
	TRANSPOSE(X8, X9, X10, X11, X14, X15)
	LANEPTRS(applyQuad_lp)
	STOREV(0, X9, R8, R14, X5, lp0)
	STOREV(1, X15, R9, R14, X5, lp1)
	STOREV(2, X11, R10, R14, X5, lp2)
	STOREV(3, X10, R11, R14, X5, lp3)

done:
	RET

// COPYPOS copies the 12 bytes of lane s's particle at r+R14 to its
// pose's world position at R13 (AX and R12 scratch).
#define COPYPOS(s, r) \
	MOVQ (applyQuad_wp+8*(s))(DI), AX; \
	MOVQ (r)(R14*1), R12; \
	MOVQ R12, (AX)(R13*1); \
	MOVL 8(r)(R14*1), R12; \
	MOVL R12, 8(AX)(R13*1)

// func applyWorld(a *applyQuad, bone, children *int32, n int)
TEXT ·applyWorld(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), DI
	MOVQ bone+8(FP), SI
	MOVQ children+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ BX, BX

wloop:
	MOVLQSX (SI)(BX*4), R12 // b
	TESTQ   R12, R12
	JLT     wnext           // an end particle

	// The bone's last rotation: its turn's (turned) when it has a child
	// particle, else the one its parent's turn gave it (w).
	MOVQ BX, R13
	SHLQ $6, R13
	LEAQ applyQuad_w(DI)(R13*1), R14
	MOVL (DX)(BX*4), AX
	TESTL AX, AX
	JEQ  wleaf
	LEAQ applyQuad_turned(DI)(R13*1), R14

wleaf:
	MOVUPS quatCols_w(R14), X0
	MOVUPS quatCols_x(R14), X1
	MOVUPS quatCols_y(R14), X2
	MOVUPS quatCols_z(R14), X3
	TRANSPOSE(X0, X1, X2, X3, X4, X5)
	MOVQ   R12, R13
	SHLQ   $4, R13      // b*16
	LANEPTRS(applyQuad_wr)
	MOVUPS X1, (R8)(R13*1)
	MOVUPS X5, (R9)(R13*1)
	MOVUPS X3, (R10)(R13*1)
	MOVUPS X2, (R11)(R13*1)

	// The bone on its particle, but the root's, which stays.
	TESTQ BX, BX
	JEQ   wnext
	LEAQ  (R12)(R12*2), R13
	SHLQ  $2, R13       // b*12
	LEAQ  (BX)(BX*2), R14
	SHLQ  $2, R14       // k*12
	LANEPTRS(applyQuad_pos)
	COPYPOS(0, R8)
	COPYPOS(1, R9)
	COPYPOS(2, R10)
	COPYPOS(3, R11)

wnext:
	INCQ BX
	CMPQ BX, CX
	JLT  wloop
	RET
