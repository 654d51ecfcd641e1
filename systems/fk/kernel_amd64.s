//go:build amd64 && !purego

#include "textflag.h"

// A vector holds one bone's x, y, z (lane 3 zero, or junk that no result
// stores: see the parent's loads) or a quaternion's
// w, x, y, z. Every lane takes the Go kernel's operations in its order;
// a - b is written a + (-b) where lanes differ in sign (the same bits).
//
// Registers: AX worldPos, BX worldRot, CX worldScale, DX parents,
// SI localPos, DI localRot, R8 localScale, R9 root, R10 order cursor,
// R11 order end, R12 n, R13 bone, R14 and R15 scratch.
// X0 parent pos, X1 parent rot Q, X2 parent scale, X4 Q.w in every lane,
// X14 the sign bit in lane 0.

// func runOrderSSE(worldPos *mgl32.Vec3, worldRot *mgl32.Quat, worldScale *mgl32.Vec3, parents *int32,
//	localPos *mgl32.Vec3, localRot *mgl32.Quat, localScale *mgl32.Vec3, root *rootTransform,
//	order *int32, m, n int) int
TEXT ·runOrderSSE(SB), NOSPLIT, $0-96
	MOVQ worldPos+0(FP), AX
	MOVQ worldRot+8(FP), BX
	MOVQ worldScale+16(FP), CX
	MOVQ parents+24(FP), DX
	MOVQ localPos+32(FP), SI
	MOVQ localRot+40(FP), DI
	MOVQ localScale+48(FP), R8
	MOVQ root+56(FP), R9
	MOVQ order+64(FP), R10
	MOVQ m+72(FP), R11
	LEAQ (R10)(R11*4), R11
	MOVQ n+80(FP), R12
	MOVL $0x80000000, R14
	MOVQ R14, X14

loop:
	CMPQ    R10, R11
	JAE     done
	MOVLQSX (R10), R13
	CMPQ    R13, R12
	JAE     bad
	MOVLQSX (DX)(R13*4), R14
	TESTQ   R14, R14
	JS      fromRoot
	CMPQ    R14, R13 // a parent stored before its bone, so before the last
	JAE     bad
	// The parent's Vec3s by 16 bytes: parent < bone < n (checked above),
	// so the next element is in the array; its x lands in lane 3, which
	// no result stores.
	LEAQ    (R14)(R14*2), R15
	MOVUPS  (AX)(R15*4), X0
	MOVUPS  (CX)(R15*4), X2
	SHLQ    $4, R14
	MOVUPS  (BX)(R14*1), X1
	JMP     bone

fromRoot:
	MOVSD   (R9), X0
	MOVSS   8(R9), X3
	MOVLHPS X3, X0 // a Vec3, lane 3 zero
	MOVUPS 12(R9), X1
	MOVSD   28(R9), X2
	MOVSS   36(R9), X3
	MOVLHPS X3, X2 // a Vec3, lane 3 zero

bone:
	ADDQ $4, R10
	LEAQ (R13)(R13*2), R14 // 3i: Vec3 index
	SHLQ $4, R13           // 16i: Quat offset

	// worldRot[i] = Q*L:
	// W = ((qw*lw - qx*lx) - qy*ly) - qz*lz
	// X = ((qw*lx + qx*lw) + qy*lz) - qz*ly
	// Y = ((qw*ly + qy*lw) + qz*lx) - qx*lz
	// Z = ((qw*lz + qz*lw) + qx*ly) - qy*lx
	MOVUPS (DI)(R13*1), X3
	PSHUFD $0x00, X1, X4 // qw qw qw qw
	MOVAPS X3, X5
	MULPS  X4, X5        // qw*(lw lx ly lz)
	PSHUFD $0xE5, X1, X6 // qx qx qy qz
	PSHUFD $0x01, X3, X7 // lx lw lw lw
	MULPS  X7, X6
	XORPS  X14, X6
	ADDPS  X6, X5
	PSHUFD $0x7A, X1, X6 // qy qy qz qx
	PSHUFD $0x9E, X3, X7 // ly lz lx ly
	MULPS  X7, X6
	XORPS  X14, X6
	ADDPS  X6, X5
	PSHUFD $0x9F, X1, X6 // qz qz qx qy
	PSHUFD $0x7B, X3, X7 // lz ly lz lx
	MULPS  X7, X6
	SUBPS  X6, X5
	MOVUPS X5, (BX)(R13*1)

	// s = ps*lp; t = 2 (qv×s); worldPos[i] = ((pp + s) + qw*t) + qv×t.
	MOVSD   (SI)(R14*4), X6
	MOVSS   8(SI)(R14*4), X7
	MOVLHPS X7, X6 // a Vec3, lane 3 zero
	MULPS  X2, X6        // s
	PSHUFD $0x1E, X1, X7 // qy qz qx
	PSHUFD $0x27, X1, X8 // qz qx qy
	PSHUFD $0xD2, X6, X9 // sz sx sy
	MULPS  X7, X9
	PSHUFD $0xC9, X6, X10 // sy sz sx
	MULPS  X8, X10
	SUBPS  X10, X9
	ADDPS  X9, X9        // t
	ADDPS  X6, X0
	MOVAPS X9, X10
	MULPS  X4, X10
	ADDPS  X10, X0
	PSHUFD $0xD2, X9, X10 // tz tx ty
	MULPS  X7, X10
	PSHUFD $0xC9, X9, X11 // ty tz tx
	MULPS  X8, X11
	SUBPS  X11, X10
	ADDPS  X10, X0
	MOVSD  X0, (AX)(R14*4)
	MOVHLPS X0, X0
	MOVSS  X0, 8(AX)(R14*4)

	// worldScale[i] = ps*ls.
	MOVSD   (R8)(R14*4), X6
	MOVSS   8(R8)(R14*4), X7
	MOVLHPS X7, X6 // a Vec3, lane 3 zero
	MULPS  X2, X6
	MOVSD  X6, (CX)(R14*4)
	MOVHLPS X6, X6
	MOVSS  X6, 8(CX)(R14*4)
	JMP    loop

done:
	MOVQ $-1, ret+88(FP)
	RET

bad:
	SUBQ order+64(FP), R10
	SHRQ $2, R10
	MOVQ R10, ret+88(FP)
	RET
