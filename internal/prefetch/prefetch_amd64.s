//go:build amd64 && !purego

#include "textflag.h"

// func Range(p unsafe.Pointer, n uintptr)
TEXT ·Range(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX // end
	ANDQ $~63, AX

loop:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, CX
	JLT        loop
	RET
