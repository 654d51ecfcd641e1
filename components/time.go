package components

// Time is the world resource that holds the frame clock. The pipeline sets
// it before running the systems; systems read it and never the wall clock,
// so a run is reproducible.
type Time struct {
	Dt      float32 // seconds since the previous frame (>= 0, finite)
	Elapsed float64 // simulated seconds since the world was created
	Frame   uint64  // frames stepped so far, counting this one
}
