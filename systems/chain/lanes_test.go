package chain

import "testing"

// The lane tests run each lane implementation this build has against the
// scalar step and apply: the AVX2 kernels (useAVX2) and their Go
// definitions. A build without the AVX2 kernels (the purego tag, another
// architecture, a processor without AVX2) runs the Go definitions only,
// and skips the AVX2 runs saying so: it never compares a path with
// itself.

// noAVX2 is the reason given for skipping an AVX2 run.
const noAVX2 = "no AVX2 lane kernels in this build (purego tag, GOAMD64 build without them, another architecture, or a processor without AVX2): only their Go definitions are tested, against the scalar step and apply"

// forEachLanes runs f as subtests "avx2" and "go", with the lanes on the
// AVX2 kernels and on their Go definitions.
func forEachLanes(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, avx2 := range []bool{true, false} {
		name := "go"
		if avx2 {
			name = "avx2"
		}
		t.Run(name, func(t *testing.T) {
			if avx2 && !hasAVX2 {
				t.Skip(noAVX2)
			}
			setAVX2(t, avx2)
			f(t)
		})
	}
}

// laneKinds returns the values of useAVX2 this build can run, for loops
// (fuzz targets) that cannot use subtests.
func laneKinds() []bool {
	if hasAVX2 {
		return []bool{true, false}
	}
	return []bool{false}
}

// setAVX2 sets useAVX2 for the rest of t.
func setAVX2(t testing.TB, on bool) {
	old := useAVX2
	useAVX2 = on
	t.Cleanup(func() { useAVX2 = old })
}

// needAVX2 readies t to compare an AVX2 kernel with its Go definition, or
// skips it, saying why, where the build has no AVX2 kernels: there the
// two would be one function.
func needAVX2(t *testing.T) {
	t.Helper()
	if !hasAVX2 {
		t.Skip(noAVX2)
	}
	setAVX2(t, true)
}

// The Go definitions are what the lanes run without the AVX2 kernels:
// the lane tests must find that they ran (a lane test that fell back to
// stepping each chain alone would compare the scalar step with itself).
func TestLanesRunTheGoDefinitions(t *testing.T) {
	setAVX2(t, false)
	l := newQuadLanes(t, Variable, true)
	cs := l.chains()
	var q Lanes
	steps := l.frame(t, 0, 1.0/60)
	if !quadable(l.a, l.a, &cs, l.poses(), &steps) {
		t.Fatal("the lanes are not quadable: the test proves nothing")
	}
	q.Shapes(&l.shapes)
	before := l.a.Pos[l.ca[3].First+2]
	q.q.part[2].x[3] = 12345 // what quadLoad overwrites
	q.StepsIn(l.a, l.a, &cs, l.poses(), &steps)
	if q.q.part[2].x[3] == 12345 || l.a.Pos[l.ca[3].First+2] == before {
		t.Fatal("Lanes.StepsIn did not step the lanes side by side")
	}
}
