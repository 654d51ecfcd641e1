package chain

import (
	"os"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The records the lane kernels read have the shape layout.go describes,
// checked with unsafe.Offsetof and unsafe.Sizeof; and the assembly takes
// every offset into them from go_asm.h and the spill columns from
// layout.go's constants, not from numbers of its own.
func TestKernelLayout(t *testing.T) {
	// Columns: one float32 (or uint32 mask) per lane, colBytes each.
	for _, v := range []any{quadPart{}, quatCols{}, quadCol{}, boundCols{}, segCols{}} {
		typ := reflect.TypeOf(v)
		cols := 0
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Type.Kind() != reflect.Array || f.Type.Len() != LaneCount {
				continue // quadCol's bounds and segment index
			}
			if k := f.Type.Elem().Kind(); (k != reflect.Float32 && k != reflect.Uint32) || f.Type.Size() != colBytes {
				t.Errorf("%s.%s is %s: a column is [LaneCount]float32 or uint32, %d bytes", typ.Name(), f.Name, f.Type, colBytes)
			}
			cols++
		}
		if cols == 0 {
			t.Errorf("%s has no columns", typ.Name())
		}
	}
	// The packed record: two rows of four, in the spill columns' order.
	for _, c := range []struct {
		name      string
		off, want uintptr
	}{
		{"r", unsafe.Offsetof(packed{}.r), 4 * tR}, {"e", unsafe.Offsetof(packed{}.e), 4 * tE},
		{"sk", unsafe.Offsetof(packed{}.sk), 4 * tSK}, {"keep", unsafe.Offsetof(packed{}.keep), 4 * tKeep},
		{"keepHit", unsafe.Offsetof(packed{}.keepHit), 4 * tKeepHit}, {"fs", unsafe.Offsetof(packed{}.fs), 4 * tFS},
		{"fsHit", unsafe.Offsetof(packed{}.fsHit), 4 * tFSHit}, {"inert", unsafe.Offsetof(packed{}.inert), 4 * tInert},
		{"size", unsafe.Sizeof(packed{}), 4 * tCols}, {"second row", unsafe.Offsetof(packed{}.keepHit) - unsafe.Offsetof(packed{}.r), 16},
	} {
		if c.off != c.want {
			t.Errorf("packed.%s at byte %d: the step kernel reads it at %d", c.name, c.off, c.want)
		}
	}
	if tCols != 8 || tKeepHit != tR+4 {
		t.Errorf("spill columns: %d, the second row at %d: the kernel's ROWS fills four columns from each 16-byte row of a record", tCols, tKeepHit)
	}
	var q quad
	var a applyQuad
	var lp quadPoses
	type size struct {
		name      string
		got, want uintptr
	}
	sizes := []size{
		// Spill space.
		{"quad.t", unsafe.Sizeof(q.t), tCols * colBytes}, {"applyQuad.t", unsafe.Sizeof(a.t), aCols * colBytes},
		// The pose rows.
		{"mgl32.Vec3", unsafe.Sizeof(mgl32.Vec3{}), vec3Bytes}, {"mgl32.Quat", unsafe.Sizeof(mgl32.Quat{}), quatBytes},
		{"mgl32.Quat.V", unsafe.Offsetof(mgl32.Quat{}.V), 4},
		{"quatCols.x", unsafe.Offsetof(quatCols{}.x), unsafe.Offsetof(quatCols{}.w) + colBytes},
	}
	if runtime.GOARCH == "amd64" {
		// The assembly's: lane s's pointer at ptrBytes*s (lanes 4..7 at
		// 2*16), and a slice header and an int per lane of packed inputs.
		const lanePtrs = LaneCount * ptrBytes
		sizes = append(sizes, []size{
			{"quad.pos", unsafe.Sizeof(q.pos), lanePtrs}, {"quad.prev", unsafe.Sizeof(q.prev), lanePtrs},
			{"quad.hit", unsafe.Sizeof(q.hit), lanePtrs}, {"quadPoses.wp", unsafe.Sizeof(lp.wp), lanePtrs},
			{"quadPoses.wr", unsafe.Sizeof(lp.wr), lanePtrs}, {"quadPoses.ws", unsafe.Sizeof(lp.ws), lanePtrs},
			{"applyQuad.pos", unsafe.Sizeof(a.pos), lanePtrs}, {"applyQuad.lp", unsafe.Sizeof(a.lp), lanePtrs},
			{"applyQuad.lr", unsafe.Sizeof(a.lr), lanePtrs}, {"applyQuad.wp", unsafe.Sizeof(a.wp), lanePtrs},
			{"a pointer", unsafe.Sizeof(uintptr(0)), 2 * 4},
			{"quad.pk", unsafe.Sizeof(q.pk), LaneCount * sliceBytes}, {"quad.ps", unsafe.Sizeof(q.ps), LaneCount * intBytes},
		}...)
	}
	for _, c := range sizes {
		if c.got != c.want {
			t.Errorf("%s: %d bytes, the kernels take %d", c.name, c.got, c.want)
		}
	}

	// The assembly: its spill columns are layout.go's constants, and it
	// writes no offset into a record as a number.
	defs := map[string]string{"quad": "t", "applyQuad": "a"}
	column := regexp.MustCompile(`#define T_(\w+) \((quad|applyQuad)_t\+const_colBytes\*const_(\w+)\)\(DI\)`)
	literal := regexp.MustCompile(`\b(quad|applyQuad)_t\+[0-9]|\bCOL\([0-9]|\bROWS[34]?\([^,()]+, [0-9]|\bquad_(pk|ps)\+[0-9]`)
	for _, file := range []string{"quad_amd64.s", "quadapply_amd64.s"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		n := 0
		for _, m := range column.FindAllStringSubmatch(src, -1) {
			n++
			if !strings.HasPrefix(m[3], defs[m[2]]) || !strings.EqualFold(strings.TrimPrefix(m[3], defs[m[2]]), m[1]) {
				t.Errorf("%s: T_%s is column %s of %s.t", file, m[1], m[3], m[2])
			}
		}
		if n == 0 {
			t.Errorf("%s: no spill column defined from layout.go's constants", file)
		}
		for i, line := range strings.Split(src, "\n") {
			if code, _, _ := strings.Cut(line, "//"); literal.MatchString(code) {
				t.Errorf("%s:%d: a column or record offset as a number (take it from go_asm.h or layout.go): %s", file, i+1, strings.TrimSpace(line))
			}
		}
	}
}
