// Package bench holds sway's benchmarks of whole systems on the standard
// stress rig (internal/scene), named for benchstat:
//
//	BenchmarkFK/bones=85/chars=1000/workers=2
//
// Run and compare them as docs/performance.md describes:
//
//	go test ./bench -run '^$' -bench . -count 10 > new.txt
//	benchstat old.txt new.txt
//
// Each benchmark reports allocations and a per-unit metric (ns/bone,
// ns/char, ns/particle) measured on the system itself, from the pipeline's
// per-system timing, so the harness's own work is not counted.
package bench
