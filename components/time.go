package components

// Time is the world resource that holds the frame clock. The pipeline sets
// it before running the systems; systems read it and never the wall clock,
// so a run is reproducible.
type Time struct {
	Dt      float32 // seconds since the previous frame (>= 0, finite; the facade's Step clamps it to MaxDt, 0.25 s)
	Elapsed float64 // simulated seconds since the world was created: the sum of the frames' Dt
	Frame   uint64  // frames stepped so far, counting this one
}
