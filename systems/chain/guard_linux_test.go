//go:build linux

package chain

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/memguard"
)

// quadLoad and quadStore touch nothing past a lane's last particle, and
// copy as the Go definitions do: each lane's rows end at an inaccessible
// page (reading 16 bytes of the last particle would fault).
func TestQuadLoadStoreStopAtTheLastParticle(t *testing.T) {
	needAVX2(t)
	guarded := func(n int) ([]mgl32.Vec3, []mgl32.Vec3, []bool) {
		pos, f1, err := memguard.End[mgl32.Vec3](n)
		if err != nil {
			t.Fatal(err)
		}
		prev, f2, err := memguard.End[mgl32.Vec3](n)
		if err != nil {
			t.Fatal(err)
		}
		hit, f3, err := memguard.End[bool](n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f1(); f2(); f3() })
		return pos, prev, hit
	}
	for n := 1; n <= quadMaxN; n++ {
		var a, b quad
		var rows [LaneCount][3][]mgl32.Vec3 // pos and prev of a (guarded) and b
		var hits [LaneCount][2][]bool
		for s := range LaneCount {
			pos, prev, hit := guarded(n)
			rows[s][0], rows[s][1], hits[s][0] = pos, prev, hit
			rows[s][2], hits[s][1] = make([]mgl32.Vec3, 2*n), make([]bool, n)
			for i := range n {
				pos[i], prev[i] = mgl32.Vec3{float32(i), float32(s), 1}, mgl32.Vec3{float32(i), float32(s), 2}
				rows[s][2][i], rows[s][2][n+i] = pos[i], prev[i]
				hit[i], hits[s][1][i] = (i+s)%3 == 0, (i+s)%3 == 0
			}
			a.pos[s], a.prev[s], a.hit[s] = &pos[0], &prev[0], &hit[0]
			b.pos[s], b.prev[s], b.hit[s] = &rows[s][2][0], &rows[s][2][n], &hits[s][1][0]
		}
		quadLoad(&a, n)
		quadLoadGo(&b, n)
		if a.part != b.part {
			t.Fatalf("n %d: the loaded columns differ from the Go definition's", n)
		}
		for i := range n {
			for s := range LaneCount {
				P := &a.part[i]
				P.x[s], P.pz[s], P.hit[s] = P.x[s]+1, P.pz[s]-1, ^P.hit[s]
			}
		}
		b.part = a.part
		if ba, bb := quadStore(&a, n), quadStoreGo(&b, n); ba != bb {
			t.Fatalf("n %d: store reports lanes %08b, Go %08b", n, ba, bb)
		}
		for s := range LaneCount {
			for i := range n {
				if rows[s][0][i] != rows[s][2][i] || rows[s][1][i] != rows[s][2][n+i] || hits[s][0][i] != hits[s][1][i] {
					t.Fatalf("n %d lane %d particle %d: stored %v %v %v, Go %v %v %v", n, s, i,
						rows[s][0][i], rows[s][1][i], hits[s][0][i], rows[s][2][i], rows[s][2][n+i], hits[s][1][i])
				}
			}
		}
	}
}
