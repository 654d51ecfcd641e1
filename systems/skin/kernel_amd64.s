//go:build amd64 && !purego

#include "textflag.h"

// A vector holds one matrix column's rows 0..3, or a quaternion as
// x, y, z, w. Every lane takes matricesGo's operations in its order
// (a + b and b + a, a * b and b * a are the same bits).
//
// Registers: DI dst cursor, SI pos, BX rot, CX scale, R8 joints cursor,
// R9 inv cursor, R10 joints end, R11 n, R12 bone, R13 scratch, R14 bad.
// X12 ones, X13 the mask of lanes 0..2, X15 zero.

DATA skinOnes<>+0(SB)/4, $1.0
DATA skinOnes<>+4(SB)/4, $1.0
DATA skinOnes<>+8(SB)/4, $1.0
DATA skinOnes<>+12(SB)/4, $1.0
GLOBL skinOnes<>(SB), RODATA|NOPTR, $16

DATA skinMask3<>+0(SB)/4, $0xffffffff
DATA skinMask3<>+4(SB)/4, $0xffffffff
DATA skinMask3<>+8(SB)/4, $0xffffffff
DATA skinMask3<>+12(SB)/4, $0
GLOBL skinMask3<>(SB), RODATA|NOPTR, $16

DATA skinIdent<>+0(SB)/4, $1.0
DATA skinIdent<>+4(SB)/4, $0
DATA skinIdent<>+8(SB)/4, $0
DATA skinIdent<>+12(SB)/4, $0
DATA skinIdent<>+16(SB)/4, $0
DATA skinIdent<>+20(SB)/4, $1.0
DATA skinIdent<>+24(SB)/4, $0
DATA skinIdent<>+28(SB)/4, $0
DATA skinIdent<>+32(SB)/4, $0
DATA skinIdent<>+36(SB)/4, $0
DATA skinIdent<>+40(SB)/4, $1.0
DATA skinIdent<>+44(SB)/4, $0
DATA skinIdent<>+48(SB)/4, $0
DATA skinIdent<>+52(SB)/4, $0
DATA skinIdent<>+56(SB)/4, $0
DATA skinIdent<>+60(SB)/4, $1.0
GLOBL skinIdent<>(SB), RODATA|NOPTR, $64

// func matricesSSE(dst *mgl32.Mat4, pos *mgl32.Vec3, rot *mgl32.Quat, scale *mgl32.Vec3,
//	joints *int32, inv *mgl32.Mat4, m, n int) (bad, stop int)
TEXT ·matricesSSE(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), DI
	MOVQ pos+8(FP), SI
	MOVQ rot+16(FP), BX
	MOVQ scale+24(FP), CX
	MOVQ joints+32(FP), R8
	MOVQ inv+40(FP), R9
	MOVQ m+48(FP), R10
	LEAQ (R8)(R10*4), R10
	MOVQ n+56(FP), R11
	XORQ R14, R14
	MOVUPS skinOnes<>(SB), X12
	MOVUPS skinMask3<>(SB), X13
	XORPS  X15, X15

loop:
	CMPQ    R8, R10
	JAE     done
	MOVLQSX (R8), R12
	CMPQ    R12, R11
	JAE     bad // unsigned: a negative bone too

	// Q = (x, y, z, w) from the stored (w, x, y, z).
	MOVQ   R12, R13
	SHLQ   $4, R13
	MOVUPS (BX)(R13*1), X0
	PSHUFD $0x39, X0, X1 // x y z w
	MOVAPS X1, X2
	ADDPS  X1, X2        // x2 y2 z2 w2
	MOVAPS X1, X3
	MULPS  X2, X3        // xx yy zz ww
	PSHUFD $0xC1, X3, X4 // yy xx xx
	PSHUFD $0xDA, X3, X5 // zz zz yy
	ADDPS  X5, X4        // yy+zz xx+zz xx+yy
	MOVAPS X12, X6
	SUBPS  X4, X6        // D: the diagonal 1-(yy+zz) 1-(xx+zz) 1-(xx+yy)
	PSHUFD $0xD0, X1, X7 // x x y
	PSHUFD $0xE6, X2, X8 // z2 y2 z2
	MULPS  X8, X7        // xz xy yz
	PSHUFD $0xFF, X1, X9 // w w w w
	PSHUFD $0xC9, X2, X10 // y2 z2 x2
	MULPS  X10, X9       // wy wz wx
	MOVAPS X7, X11
	ADDPS  X9, X11       // P: xz+wy xy+wz yz+wx
	SUBPS  X9, X7        // N: xz-wy xy-wz yz-wx

	// Rotation columns c0 = (D0, P1, N0, 0), c1 = (N1, D1, P2, 0),
	// c2 = (P0, N2, D2, 0).
	MOVAPS   X6, X0
	UNPCKLPS X11, X0     // D0 P0 D1 P1
	MOVAPS   X7, X1
	UNPCKLPS X15, X1     // N0 0 N1 0
	SHUFPS   $0x4C, X1, X0 // c0
	MOVAPS   X7, X1
	UNPCKLPS X6, X1      // N0 D0 N1 D1
	MOVAPS   X11, X2
	UNPCKHPS X15, X2     // P2 0 P3 0
	SHUFPS   $0x4E, X2, X1 // c1
	MOVAPS   X11, X2
	SHUFPS   $0xA0, X7, X2 // P0 P0 N2 N2
	UNPCKHPS X15, X6     // D2 0 D3 0
	SHUFPS   $0x48, X6, X2 // c2

	// A = R·S: column c times s[c]. The scale's Vec3 read one float at a
	// time (a 16-byte read could pass the array's end).
	LEAQ   (R12)(R12*2), R13
	MOVSS  (CX)(R13*4), X3
	SHUFPS $0x00, X3, X3
	MULPS  X3, X0
	MOVSS  4(CX)(R13*4), X3
	SHUFPS $0x00, X3, X3
	MULPS  X3, X1
	MOVSS  8(CX)(R13*4), X3
	SHUFPS $0x00, X3, X3
	MULPS  X3, X2

	// p = (x, y, z, 1).
	MOVSD    (SI)(R13*4), X14
	MOVSS    8(SI)(R13*4), X3
	UNPCKLPS X12, X3     // z 1 0 1
	MOVLHPS  X3, X14

	// M[c] = (A0·b0c + A1·b1c) + A2·b2c, rows 0..3 of B's column c.
	MOVUPS (R9), X3
	PSHUFD $0x00, X3, X4
	PSHUFD $0x55, X3, X5
	PSHUFD $0xAA, X3, X6
	MULPS  X0, X4
	MULPS  X1, X5
	MULPS  X2, X6
	ADDPS  X5, X4
	ADDPS  X6, X4
	ANDPS  X13, X4       // row 3: +0, as matricesGo writes it
	MOVUPS 16(R9), X3
	PSHUFD $0x00, X3, X5
	PSHUFD $0x55, X3, X6
	PSHUFD $0xAA, X3, X7
	MULPS  X0, X5
	MULPS  X1, X6
	MULPS  X2, X7
	ADDPS  X6, X5
	ADDPS  X7, X5
	ANDPS  X13, X5
	MOVUPS 32(R9), X3
	PSHUFD $0x00, X3, X6
	PSHUFD $0x55, X3, X7
	PSHUFD $0xAA, X3, X8
	MULPS  X0, X6
	MULPS  X1, X7
	MULPS  X2, X8
	ADDPS  X7, X6
	ADDPS  X8, X6
	ANDPS  X13, X6
	MOVUPS 48(R9), X3
	PSHUFD $0x00, X3, X7
	PSHUFD $0x55, X3, X8
	PSHUFD $0xAA, X3, X9
	MULPS  X0, X7
	MULPS  X1, X8
	MULPS  X2, X9
	ADDPS  X8, X7
	ADDPS  X9, X7
	ANDPS  X13, X7       // row 3 exactly 0 before p's 1 (a -0 + 1 is 1 anyway)
	ADDPS  X14, X7

	// r = (M0 + M1) + (M2 + M3) per row; r - r is 0 in every row unless
	// an entry is not finite (or the sum overflows).
	MOVAPS X4, X8
	ADDPS  X5, X8
	MOVAPS X6, X9
	ADDPS  X7, X9
	ADDPS  X9, X8
	SUBPS  X8, X8
	CMPPS  X15, X8, 4    // not equal, or unordered
	MOVMSKPS X8, R13
	ANDQ   $7, R13
	JNZ    ident

	MOVUPS X4, (DI)
	MOVUPS X5, 16(DI)
	MOVUPS X6, 32(DI)
	MOVUPS X7, 48(DI)
	JMP    next

ident:
	MOVUPS skinIdent<>+0(SB), X4
	MOVUPS skinIdent<>+16(SB), X5
	MOVUPS skinIdent<>+32(SB), X6
	MOVUPS skinIdent<>+48(SB), X7
	MOVUPS X4, (DI)
	MOVUPS X5, 16(DI)
	MOVUPS X6, 32(DI)
	MOVUPS X7, 48(DI)
	INCQ   R14

next:
	ADDQ $4, R8
	ADDQ $64, R9
	ADDQ $64, DI
	JMP  loop

bad:
	MOVQ R14, bad+64(FP)
	MOVQ R8, R13
	SUBQ joints+32(FP), R13
	SHRQ $2, R13
	MOVQ R13, stop+72(FP)
	RET

done:
	MOVQ R14, bad+64(FP)
	MOVQ $-1, stop+72(FP)
	RET
